// Package agents makes agents by name and holds botarena's generic agents
// and what the external bots share (their protocols live in packages
// below it): scripted players that fill seats in matches (botarena play),
// in pools (as opponents) and in tests.
//
// # Model
//
// An [env.Agent] plays one seat of one env. It is made for a game by name
// ([New], [Names]): every game has the generic agents registered here,
// "idle" (always action 0, the do-nothing action), "random" (uniform among
// the legal actions of [env.Env.WriteMask]) and "console", and the game's
// own built-in agents, such as Bomberman's "reference" (the original
// competition's reference bot), which its package lists through its
// registry entry's Kit ([Builtins]); [New] finds them there.
//
// Besides the registered names, [New] takes the specs of registered
// schemes ([RegisterScheme]): the original competitions' external bots
// and trained policies, each in a package of its own that registers its
// scheme in its init function. The generic agent "console" is a person at
// the terminal ([Console]). Such agents allocate and block in Act, and may
// implement io.Closer and [Terminal].
//
// The life of an agent mirrors the env's:
//
//	a, err := agents.New("bomberman", "reference", e.Spec())
//	e.Reset(seed)
//	a.Reset(e, seat, agentSeed)
//	for !e.Done() {
//		actions[seat] = a.Act(e, seat)
//		... other seats ...
//		e.Step(actions, rewards, terminated, truncated)
//	}
//
// # External bots
//
// Specs of a registered [Scheme] make agents that run bots written for the
// original competitions, one package per protocol:
//
//   - agents/entelect: "dir:PATH", an Entelect Challenge bot folder
//     (bot.json; Bomberman 2016 and Battleships 2017);
//   - agents/cmdbot: "cmd:COMMAND", a BattleBots command-line bot;
//   - agents/httpbot: "http://..." and "https://...", a Battle³ bot
//     server;
//   - agents/upe: "upe://HOST:PORT", a UPE client playing portalbomber
//     over HTTP;
//   - agents/policy: "policy:PATH", a trained policy file (not an external
//     bot: it plays inside the process).
//
// Package agents/all links these schemes into a program, as package games
// links the games: a program that resolves agent specs imports it.
// This package holds what those packages share: the registry, the fault
// counts ([Faults]), the harness settings ([ExternalOptions]) and the
// interfaces through which botarena play and match talk to external bots
// ([Terminal], [PlayerNamer], [ReplayDirSetter], [GameEnder]). It imports
// no game: a game's knowledge lives in the game's package, a protocol's in
// the protocol's.
//
// Every process a bot's run starts is killed when the run ends, whether
// it stayed in the bot's process group or not (setsid, a double fork). All
// that is read from a bot is capped, keeping what the original harness
// made of it. The protocol packages document both.
//
// # Capabilities
//
// [New] makes whatever it is asked for: the local command line runs the
// bots its user names. A server asks [Capabilities.Check] first, with the
// capabilities its operator gave its clients: each [Scheme] declares what
// its agents need of the machine ([Scheme.Needs]: files in the bots
// folders, commands, outbound HTTP, listeners), and a spec the
// capabilities do not grant is a [*DeniedError] naming the need. Errors
// quote specs cut short ([QuoteSpec]) and never the contents of files.
//
// # Invariants
//
//   - An agent is not safe for concurrent use; use one instance per seat (a
//     pool gives each worker its own agents, as it gives it its own envs).
//   - Act returns an action in 0..Spec().Actions-1 and does not allocate once
//     the agent has been Reset: pools call it inside their step.
//   - Randomness comes from the agent's own seeded generator (math/rand/v2
//     PCG), seeded in Reset: the same env trajectory and seed give the same
//     actions.
//   - Registration happens in init functions; a mistake there panics.
package agents
