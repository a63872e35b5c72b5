// Package agents holds botarena's generic agents and external bots, and
// makes agents by name: scripted players that fill seats in matches
// (botarena play), in pools (as opponents) and in tests.
//
// # Model
//
// An [env.Agent] plays one seat of one env. It is made for a game by name
// ([New], [Names]): every game has the generic agents registered here,
// "idle" (always action 0, the do-nothing action), "random" (uniform among
// the legal actions of [env.Env.WriteMask]) and "console", and the game's
// own built-in agents, such as Bomberman's "reference" (the original
// competition's reference bot), which its package lists in its registry
// entry's [env.Kit] ([env.Entry.Kit]); [New] finds them there.
//
// Besides the registered names, [New] takes the specs of registered
// schemes, the original competitions' external bots: "cmd:COMMAND" is a
// BattleBots command-line bot ([CmdBot]). The generic agent "console" is a
// person at the terminal ([Console]). Such agents allocate and block in
// Act, and may implement io.Closer and [Terminal].
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
// original competitions. "dir:PATH" is an Entelect Challenge bot folder
// (bot.json; Bomberman 2016 and Battleships 2017): see [EntelectBot] and
// [NewEntelectBot] for the commands per BotType, the round folders (the
// round-level files included, with or without a replay folder), the copy
// of the bot folder each match runs from, the time limit, the penalties
// and the problem lines. Such agents start processes and allocate in Act,
// hold files (they implement io.Closer), and take their harness settings
// from [ExternalOptions].
//
// Every process a bot's run starts is killed when the run ends, whether
// it stayed in the bot's process group or not (setsid, a double fork): on
// Linux through a cgroup of the run's own where one can be made, else by
// walking /proc for the run's processes ([RunEnv]); see [CmdBot]. All
// that is read from a bot is capped, keeping what the original harness
// made of it: [MaxCommandFile] of move.txt, place.txt and command.txt,
// [MaxCommandOutput] of a command-line bot's stdout, [MaxHTTPReply] of an
// HTTP bot's reply.
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
