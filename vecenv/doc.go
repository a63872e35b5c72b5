// Package vecenv runs pools of envs of one game: thousands of envs stepped
// in parallel on persistent worker goroutines, writing flat per-row buffers
// that Arrow batches and RPC responses wrap without copying.
//
// # Model
//
// A [Pool] owns NumEnvs envs made from the registry with one config, and one
// [env.Buffers] with a row per learner agent:
//
//	row = env*len(LearnerSeats) + k    // seat LearnerSeats[k] of env
//	Buffers.Env[row] = env, Buffers.Seat[row] = LearnerSeats[k]
//
// Observation tensor t of row r is Obs[t][r*b : (r+1)*b] with b =
// Spec.Obs[t].Bytes(); the mask of row r is Mask[r*A : (r+1)*A] with A =
// Spec.Actions. Learner seats (default: every seat) take their actions from
// the caller, one int32 per row; every other seat is played inside the
// pool's step by an [env.Agent], one instance per env and seat, made by the
// [OpponentFactory] given for the seat. A trainer can so see a single-agent
// env (one learner seat, opponents elsewhere) or the full multi-agent batch.
// Opponents that implement [BatchOpponent] (neural policies) are computed
// in one batch over all the seats they play in a chunk of envs, with
// results identical to one Act call per seat.
//
//	p, err := vecenv.New(vecenv.Config{Game: "bomberman", NumEnvs: 1024, Seed: 1})
//	...
//	defer p.Close()
//	p.Reset()
//	buf := p.Buffers()
//	for {
//		policy(buf.Obs, buf.Mask, actions) // one action per row
//		if err := p.Step(actions); err != nil { ... }
//		learn(buf.Rewards, buf.Terminated, buf.Truncated, p.Ended())
//	}
//
// # Opponent mixtures
//
// Each opponent seat plays a mixture of opponents, at first the one
// factory of Config.Opponents. [Pool.SetOpponents] replaces a seat's
// mixture between steps with weighted, named [OpponentChoice] values, for
// self-play against a changing population: at every episode start each env
// draws the seat's choice from the episode seed, so trajectories still
// depend only on the pool seed, the actions and the sequence of
// SetOpponents calls, for any worker count. Episodes in progress keep
// their opponent. Instances are made per env on first use and kept, and
// those of a removed choice are closed once no episode plays against them.
// Batched opponents stay batched: each step every worker gathers its envs'
// current opponents by [Batcher]. [Stats.Opponents] counts the learners'
// results per choice and [Pool.Opponent] names the choice an env plays.
//
// # Matches without learners
//
// A pool whose LearnerSeats is empty (not nil) plays every seat with
// opponents: it has no rows, Step takes no actions, and it runs whole
// matches, batched neural agents included, on the same workers. A league
// schedules its games on such a pool: [Pool.Plan] fixes an env's next
// episode (its seed, the mixture choice of every seat and the agents'
// seeds), [Pool.Hold] parks an env that has no game left, [Pool.EnvsEnded]
// tells which envs finished a game in the last Step, [Pool.Env] shows the
// final state, and an [Observer] sees every seat's action and reward
// (match recording). Plans work in any pool: a trainer can replay an
// episode's seed with one. Config.MaxEpisodeSteps caps every episode.
//
// # Episodes and autoreset
//
// An env's episode ends when the game is Done, after Config.MaxEpisodeSteps
// steps when set, or when every learner seat of the env is out (terminated or truncated) while the game plays on: a
// single learner that is eliminated ends its episode even though the
// opponents could go on. At the end every row of the env has Terminated or
// Truncated set (the pool sets Truncated on a row whose game set neither),
// and [Pool.Ended] is true for those rows. With several learner seats per
// env, a seat eliminated before the end keeps Terminated set, with reward 0,
// while its env plays on; multi-agent trainers mask such rows, as
// PettingZoo drops the agent.
//
// What happens next is the [AutoReset] mode. [NextStep] (the default,
// Gymnasium 1.x and EnvPool): the ending step returns the final observation;
// the following step resets the env instead of stepping it, ignores its
// rows' actions, and returns the first observation with reward 0 and flags
// false. [SameStep]: the ending step resets the env at once and returns the
// new episode's first observation with the final rewards and flags, and the
// final observation in [Pool.FinalObs] (valid where Ended is true).
// Buffers.Episode counts each env's episodes from 0 and changes on the step
// whose observation belongs to the new episode.
//
// # Seeding and determinism
//
// Every seed derives from Config.Seed with SplitMix64: [EnvSeed] per env,
// [EpisodeSeed] per episode of an env (passed to env.Reset) and
// [OpponentSeed] per opponent and episode. An env's trajectory depends only
// on these seeds and the actions of its rows, so the buffers after any
// sequence of Reset and Step calls are byte-identical for every worker
// count and however the chunks of a batch are shared out. Workers == 1
// runs every env in a plain loop on the caller's goroutine: the serial
// reference the tests compare against.
//
// # Workers
//
// Each batch (a Reset or a Step) is split into chunks, contiguous ranges
// of envs: one with a single worker, otherwise at least four per worker
// and enough that no chunk writes much more than 1 MiB of rows. The
// caller's goroutine and the persistent worker goroutines take the chunks
// in order from an atomic counter, each as soon as it is free (no
// goroutine and no allocation per step), so a worker that the OS
// deschedules, or that is slow to wake, holds back at most the chunk it
// took; the caller steps whatever nobody took.
//
// How many workers a Step wakes: with Config.Workers 0 the pool measures
// its batches and chooses (the caller alone while a step costs less than
// waking a worker; more as steps grow; fewer when other processes take the
// cores), trying a neighbouring count now and then and keeping it if its
// batches are faster (see [Pool.StepWorkers]); with a fixed count, every
// worker, except that after a short batch (under 1 ms) in which no woken
// worker took a chunk the caller steps the next 63 alone. Since a chunk is stepped by
// the same per-env kernel whoever takes it, none of this changes a
// trajectory.
//
// Between batches a worker spins on an atomic epoch, yielding its P, for
// at most twice what the last batch took and 50 µs, and then parks on a
// channel, so back-to-back steps pay no scheduler wake-up and an idle
// pool burns no CPU; after a batch its workers were too late for, they
// park at once. The caller, waiting for the chunks still being stepped,
// never yields its P: it may be locked to its OS thread (every call of the
// native backend is a cgo callback), where each yield costs two thread
// switches; it spins for about two chunks' time while a P is spare and
// otherwise parks. A worker touches only the envs of the chunks it takes,
// their opponents, their rows and its own padded scratch, so workers share
// no written cache line except at the chunk boundaries of the flat
// buffers.
//
// # Statistics
//
// Per learner seat and per env, the pool accumulates the completed
// episodes, their lengths, returns and outcomes (win, draw or loss; see
// [SeatStats]) and the invalid actions the env counted ([env.Env.Invalid];
// [Stats.Invalid], and per opponent choice [OpponentStats.Invalid]) in
// plain fields owned by the env's worker. [Pool.Stats]
// merges them in env order when asked, so the figures do not depend on the
// worker count; [Pool.ResetStats] zeroes them.
//
// # Errors
//
// [New] validates the config once: errors name the field and value
// ([*ConfigError]) or wrap the registry's error ([env.ErrUnknownGame]).
// [Pool.Step] checks the batch once, before stepping anything: a wrong
// length or an action outside 0..Actions-1 wraps [ErrActions]; stepping
// before the first Reset is [ErrNotReset], and after Close [ErrClosed].
// In-range illegal actions are the game's business: they do what the
// original engine does and are counted there.
//
// # Concurrency and aliasing
//
// A Pool is not safe for concurrent use by several callers; the RPC layer
// serialises the calls on a pool (unary Step and StepStream alike). The
// buffers, Ended and FinalObs are overwritten in place by every Reset and
// Step; read or copy them before the next call.
//
// The observation rows are also updated in place: the envs of every
// built-in game implement [ObsUpdater], and a Step writes into each row
// only the bytes that changed since that row was last written (most of a
// Bomberman observation, the walls, does not change from one step to the
// next; a BattleBots, Battle³ or portal Bomberman observation is nearly
// all zeros apart from the walls, and only the few marks move; a
// Battleships round changes the cells it shot at), so a step costs a
// fraction of the bytes it produces. Masks likewise for envs that
// implement [MaskUpdater] (Battleships: a weapon's block of target cells is
// rewritten only when its legality changes; Battle³). The rows then hold
// exactly what a full write would; callers that modify them would see the
// modification kept in the bytes that did not change, until the next
// [Pool.Reset], which rewrites every row in full.
//
// # Memory and async stepping
//
// [Pool.SetOutput] points the pool's rows at caller memory (an [Output]),
// such as numpy arrays of a Python process that loads botarena as a shared
// library, so that the pool's writes are the only copy of a step.
//
// On Linux the buffers a pool allocates itself ([New], [Pool.NewOutput])
// are advised to transparent huge pages (madvise MADV_HUGEPAGE, the whole
// 2 MiB pages inside each buffer): a large pool's rows span tens of MiB
// written a few bytes per row, and with 4 KiB pages most rows cost a TLB
// miss. Caller memory passed to SetOutput is left as its owner made it.
//
// [Async] is EnvPool's send/recv (batch_size < num_envs): [Async.Send]
// queues some envs with their actions and returns, background workers step
// them with the same per-env kernel as Step, and [Async.Recv] returns the
// next batch of BatchSize envs that finished, one row per learner seat
// with Env[row] naming the env (which is why Env and Seat are columns
// rather than implied by the row number). Seeds and per-env statistics
// depend only on the env, so an env's results are the same bytes as with
// Step, whatever the order envs finish in. A caller that hands each batch
// back before sending its envs again ([Async.Release], as the env
// service and the native library's send-and-receive call do) lets envs
// sent back in batch order step into their own rows, updated in place as
// a Pool's rows are; otherwise a batch's observations are written in full.
package vecenv
