// Package match plays one game between agents: the one match runner of
// botarena. `botarena play`, `botarena tournament`, league.LocalRunner (and
// so the match service and every league game not played on a pool) and the
// web viewer all play their games through [Match.Run], so that a game is
// set up, seeded, played, guarded and judged the same way wherever it runs.
//
// # A match
//
// A [Match] holds an env made by the caller (with whatever config the
// caller needs: the players' names, a round cap, a preset) and one agent
// per seat, usually made with [NewAgents]. [Match.Run]
//
//  1. resets the env with the match's Seed (and lets Load replace the
//     state, as `play --state` does),
//  2. resets the agent of seat k with [env.AgentSeed](Seed, k),
//  3. plays rounds, every agent's Act then one env Step, until the env is
//     Done, MaxRounds rounds were played, an agent forfeits, a hook stops
//     the match ([ErrStop]) or fails, or ctx is cancelled,
//  4. tells the agents that implement agents.GameEnder that the game ended
//     when the env is Done,
//  5. returns the env's result with the failure policy applied, the
//     faults counted by agents that count them ([FaultCounter]) and every
//     seat's actions by kind, as a [Result].
//
// The caller closes the agents with [Match.Close].
//
// # Seeds
//
// A match of seed S is the episode of a vecenv pool whose env was Reset
// with S (a planned episode, vecenv.EpisodePlan{Seed: S}, or one whose
// vecenv.EpisodeSeed is S) with the same agents in its opponent seats:
// both reset the env with S and seat k's agent with env.AgentSeed(S, k),
// so `botarena play --seed S`, a league or match-service game of seed S,
// the viewer's match of seed S and that pool episode play the same game.
//
// # Failure policy
//
// This is the one failure policy of botarena's matches. An agent that
// panics, in Reset or in Act, forfeits: the match ends at that point (the
// env is not stepped again), [Result.Forfeit] names the seat and
// [Forfeit.Err] the panic (it wraps [ErrForfeit]), and the seat drops to
// last place of the standings: it cannot win or share a draw. The others
// keep their order; the first of them wins, unless the top of the others
// is tied (score and alive flag), which is a draw without a winner. The
// first seat to panic in seat order forfeits; a match has at most one
// forfeit.
//
// Faults of external bots (a crash, a timeout, garbage output) are not
// panics: each bot applies the original competition's penalty itself
// (usually doing nothing that round) and the match goes on; the bot counts
// them by kind ([Faults]: timed out, crashed, invalid), and
// [Result.Faults] holds each seat's counts.
//
// A game that does not end within [RoundLimit] rounds is a bug in the
// game: Run returns an error wrapping [ErrRunaway] rather than hang. A
// hook's error, other than ErrStop, and ctx's error end the match with
// that error and no result.
//
// # The result
//
// [Result] is botarena's one description of a match's outcome: Run returns
// it, `botarena play --json` prints it, a recording ends with it, the
// viewer shows it and league records are made from it. Its JSON form is
// documented in docs/recording-format.md.
//
// # Behaviour figures
//
// A game whose env implements [ActionKinder] sorts its actions into kinds
// (Bomberman: nothing, move, bomb, trigger; BattleBots: nothing, move,
// bullet, missile, mine, emp; ...), declared in its own package. Run
// counts every action every seat chooses by kind, whether or not the rules
// let it take effect, into [Standing.Actions]; the league's pools count
// theirs with a [Counter] and get the same figures. A tournament averages
// them per game, so that a bot that never bombs or never moves shows
// beside its win rate.
//
// A game whose env implements [DeathCauser] says how each player ended
// (Bomberman: alive, own bomb, opponent's bomb, own and opponent's bomb):
// Run and [ResultOf] put it in [Standing.Death], and a tournament counts
// each agent's deaths by cause, so that wins by the opponent's own bomb
// show beside the wins won.
//
// # Fingerprints
//
// [Fingerprint] hashes where a game stands (the step count, every seat's
// observation and mask, the standings), not the players' names: games
// that ended alike have one fingerprint wherever they were played. A
// tournament counts its distinct endings with it.
//
// # Recordings
//
// A [Recorder] writes a match as a botarena recording through its hooks:
// JSON Lines, a [RecordingHeader] (game, config, seed, agents, format
// version), one [RecordedRound] per state (the canonical native state as
// the full view, then the round's actions, native commands, rewards and
// flags) and a result line, within a size limit. `botarena play --record`
// writes one, the web viewer plays them back, and [RecordingReader] reads
// them; docs/recording-format.md is the format's reference.
//
// # Concurrency
//
// A Match is not safe for concurrent use; separate Matches, each with its
// own env and agents, may run at once.
package match
