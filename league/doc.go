// Package league runs leagues: populations of agents of one game that play
// each other to rate them, to choose training opponents and to produce match
// data. It holds the league's state, matchmaking, ratings, the running of
// games and their storage; `botarena league` is its command line.
//
// # Store
//
// A league is a directory with one bbolt file, league.db ([StoreFile]),
// with the buckets
//
//	meta     "settings" → Settings (game, JSON config, seed, created)
//	agents   name → Agent (spec, added, tag)
//	games    index (8 bytes, big-endian) → GameRecord (match.Result's JSON with index, run, seats' agents and specs, time; older stores' GameLine form is read too)
//	ratings  name → Rating (Glicko-2 rating, RD, volatility; Elo; games, wins, draws, losses)
//	runs     id (8 bytes, big-endian) → RunRecord (first index, games, matchmaking, target, max rounds, request id)
//	requests request id → run id (8 bytes, big-endian): the runs that calls with a RunOptions.RequestID started or resumed
//
// Agent specs are opaque strings resolved by agents.New when a game is
// played ("huggy", "cmd:...", "dir:...", "http://...", "policy:PATH"); they are
// checked with agents.Known when added; names, specs, tags, configs and
// request ids are bounded and printable ([CheckAgent], [MaxSpecBytes] and
// the other limits), and bbolt is handed the store file only once it is
// known to be a regular file ([ErrBadStore]). Games are stored in index order,
// each with the rating changes it makes, in one bbolt transaction (several
// games that finish together share one), so a process killed during a run
// loses no finished game and the ratings always match the stored games.
//
// # Determinism and resuming
//
// Game i of a league seeded with S has seed [GameSeed](S, i); seat k's agent
// is seeded with [env.AgentSeed] of that. The agents of game i depend only on i,
// the league's agents (in the order they were added) and, for PFSP, the games
// below i rounded down to a multiple of [BatchGames]. Results are collected
// and stored in index order, so a run gives the same games and ratings for
// any worker count, and a run interrupted after 40 of 100 games and started
// again with the same options plays the remaining 60 with exactly the seeds
// and agents the uninterrupted run would have used (see [League.Run]). A
// run given a request id ([RunOptions.RequestID]) is played once however
// often it is asked for: a retry of a finished run plays nothing. A run
// stopped by a full disk ([ErrDiskFull]) keeps the games stored and says
// how many.
//
// # Matchmaking
//
// [RoundRobin] cycles through every ordered pair of agents; [Uniform] draws
// agents at random; [PFSP] (prioritised fictitious self-play, AlphaStar)
// always seats a target agent and draws each opponent with weight (1−p)²,
// p being the target's win rate against it with a prior of one draw
// ([PFSPWinRate], [PFSPWeight]). Randomness comes from PCG generators seeded
// with the league seed and the game index.
//
// # Ratings
//
// Ratings are Glicko-2 (Glickman 2013; τ = 0.5, start 1500 ± 350,
// volatility 0.06) with rating periods of [BatchGames] games: the blocks of
// game indices 0–63, 64–127, ... ([RatePeriod]). Each seat is rated against
// every other seat played by a different agent (1 above it, 0 below it, ½
// for a shared drawn top), and an agent's outcomes of the whole period make
// one update against its opponents' ratings from before the period, as the
// paper advises (it suggests 10–15 games per agent and period; an agent of a
// 6-agent round robin plays about 21). The store keeps the ratings of the
// finished periods and commits a period's update with its last game, so the
// ratings do not depend on how games are split into runs or on
// interruptions; [League.Ratings] and the table apply the games of the
// unfinished period on read, as a provisional period. Agents that do not
// play keep their deviation. A plain Elo rating (K = 32 per pair of seats,
// divided by the number of opponents, game by game) is
// kept beside it. [League.Table] gives the leaderboard: rank, agent, rating ±
// 2·RD, Elo, games, wins, draws, losses, win rate.
//
// # Where games are played
//
// A [Runner] plays one [Match] and returns its [Result]. [LocalRunner] plays
// it in this process (env from the registry, agents from their specs), one
// game per call, with the match runner of package match, whose failure
// policy (an agent that panics forfeits) gives [Result.Forfeit]. [PoolRunner], the default, is also a [BatchRunner]: a run
// hands it each block of games, and it plays those of in-process agents
// (built-in agents, policy files) on vecenv pools without learner seats,
// one per worker goroutine with EnvsPerWorker games at once, every game a
// planned episode (vecenv.Pool.Plan) with its seed and agents, so that a
// policy's decisions in a worker's games are computed in one batch; games with an
// external bot go to a LocalRunner, one per goroutine. Both give the same
// results. matchservice.RemoteRunner sends matches to `botarena serve` processes,
// whose MatchService plays them the same way, and plugs in through
// [RunOptions.Runner] (`botarena league run --servers`); with a plain
// Runner, a run hands matches to Workers goroutines, each calling
// Runner.Play for whole games. The store stays with the process that calls
// Run. Errors of a match that
// cannot be played as given match [ErrBadMatch]. This package does not
// import the rpc packages.
//
// # Gauntlets
//
// A [Gauntlet] (`botarena tournament`) is a league without a store: every
// pairing of its agents plays every seating ([GauntletSeatings]) Games
// times, game i with seed [GameSeed](Seed, i), on any [BatchRunner];
// [PlayGauntlet] returns a [GauntletTable] per pairing (W/D/L, win rate
// with its [WilsonInterval], points, distinct endings by
// match.Fingerprint, game length, faults) that depends only on the
// gauntlet.
//
// # Match data
//
// With [RunOptions.DataDir], a run records every step of every game and
// writes it as Parquet (zstd; the Arrow schema stored in the file, so Arrow
// readers get the fixed-size lists and metadata back) with
// matchdata.Schema: one row per (game, step, seat) in that order:
//
//	game        int64                                     the game's index in the league
//	seed        uint64                                    the game's seed
//	step        int32                                     the step (round), from 0
//	seat        int32                                     the seat
//	agent       string                                    the agent's name in the league
//	action      int32                                     the action the seat took
//	reward      float32                                   the seat's reward for the step
//	terminated  bool                                      after the step
//	truncated   bool                                      after the step
//	<tensor>    fixed_size_list<uint8|float32>[len]       the seat's observation before the step, per Spec.Obs tensor
//	                                                      (BattleBots: planes uint8 [19,10,10], scalars float32 [4])
//	mask        fixed_size_list<uint8>[actions]           the seat's legal actions before the step
//
// The tensor fields carry "shape", "dtype" and "layout" metadata and the
// schema the game's ("game", "seats", "actions", ...), as in the
// observations package. One file holds the games of one block of
// [BatchGames] indices, DIR/games-FIRST-LAST.parquet (indices zero-padded to
// 9 digits); it is written to a temporary file and renamed, so a crash
// never leaves a partial file, and the block's games are stored only after
// their file, so a resumed run rewrites the file of a block it had not
// finished. The observation after the last step is not recorded.
//
// # Concurrency
//
// A [League] holds an exclusive lock on its store while open for writing:
// one process at a time runs or edits a league; another gets [ErrBusy].
// Its methods are safe for concurrent use by goroutines.
//
// # Serving leagues
//
// [Leagues] keeps the leagues of one folder for a server's clients (`botarena
// serve --leagues-dir`): leagues named by paths that may not leave the folder,
// one open store per league shared by the calls using it, writers in turns, and
// the operations of `botarena league` ([League.RunLive], [ReadTable],
// [WriteTable], [WriteChart]), which the command line uses too, so that both
// give the same games, seeds, ratings and tables.
package league
