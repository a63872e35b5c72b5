// Package env is the game contract every botarena game implements and every
// other part of botarena (pools, Arrow encoding, RPC, agents, the command line)
// builds on.
//
// # Model
//
// An [Env] is one game in progress: a plain Go value with fixed-size state and
// its own seeded generator. It is not safe for concurrent use; a pool gives each
// worker goroutine a disjoint range of envs. Every env has a fixed number of
// seats (players), and each seat acts once per step, simultaneously, as the
// original engine applies commands. Games whose original engine is sequential
// document in their doc.go how a seat's move is ordered.
//
// A game describes itself with a [Spec]: its seats, the named observation
// tensors each seat sees (dtype, shape and layout with its index formula), the
// number of discrete actions, the step cap, and the reward definition.
//
// The life of an env:
//
//	e.Reset(seed)                         // a new game; same seed, same game
//	for !e.Done() {
//		for seat := range spec.Seats {
//			e.WriteObs(seat, obs[seat])     // caller-owned memory
//			e.WriteMask(seat, mask[seat])
//		}
//		e.Step(actions, rewards, terminated, truncated)
//	}
//	res := e.Result()                     // ranks and scores, original rules
//
// # Invariants
//
//   - Step, WriteObs and WriteMask never allocate and never return errors.
//     Illegal or out-of-range actions do what the original engine does with
//     them (usually nothing) and are counted ([Env.Invalid]), never rejected.
//   - A buffer of the wrong length is a programmer error and panics with a
//     package-prefixed message.
//   - The same seed and the same actions give the same trajectory, byte for
//     byte, on any machine and with any number of goroutines around it.
//   - Configs are validated once, when an env is made through a [Registry],
//     with errors that name the field and the value ([ConfigError]).
//
// # Native formats
//
// Every game of botarena also speaks its original competition's formats
// through the optional [Codec] interface: the state as a seat sees it
// (Entelect state.json and map.txt, BattleBots ASCII, Battle³ JSON, ...),
// loading a full state, and parsing and formatting the original bot
// commands. External bots, replays, native renders and scenarios
// ([Scenario]) are built on these and get the codec with [CodecOf], which
// names the game when it has none; pools and built-in agents need only
// [Env].
//
// # Registry
//
// Games register an [Entry] in the [Default] registry from their package's
// init function, as image formats and database drivers do; a program selects
// its games by importing their packages (the botarena command imports
// package games, which imports them all). [Registry.Make] builds an env from
// a name ("bomberman", "bomberman/12p") and an optional JSON config.
//
// An entry also carries the game's kit ([Entry].Kit), a value env knows
// nothing about: each tool around the games (agents, the play command, the
// trainer's defaults, the web viewer ...) declares the small interface it
// needs and asks a kit for it by a type assertion, so that everything about
// a game lives in its package and env stays the contract.
// docs/add-a-game.md lists the interfaces and gives the steps of a new game.
package env
