package league

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/botarena/botarena/agents"
	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/match"
	"github.com/botarena/botarena/vecenv"
)

// BatchRunner is a [Runner] that plays a block of matches at once. A league
// run hands each block of [BatchGames] indices to PlayBatch when its Runner
// implements it, and plays the matches one Play call at a time otherwise.
type BatchRunner interface {
	Runner
	// PlayBatch plays matches on at most workers goroutines and calls done
	// once per match, from one goroutine at a time, as each game finishes:
	// with its result, or with the error Play would have returned for it
	// (an unknown agent, a bad config, ctx's error). Results equal Play's
	// for the same match. After an error or once ctx is cancelled,
	// PlayBatch may return without calling done for the matches left.
	PlayBatch(ctx context.Context, matches []Match, workers int, done func(j int, r Result, err error))
}

// DefaultEnvsPerWorker is the number of games each worker of a
// [PoolRunner] plays at once when EnvsPerWorker is 0.
const DefaultEnvsPerWorker = 16

// PoolRunner plays matches on vecenv pools: a block's games whose agents
// all play in this process (built-in agents and policy files; see
// agents.InProcess) run as planned episodes (vecenv.Pool.Plan) of pools
// without learner seats, one pool of EnvsPerWorker envs per worker
// goroutine, each taking the next game from the block as one of its envs
// finishes, so that the neural agents' decisions of a worker's games are
// computed in batches and no worker waits for another. Games with an
// external bot, which may read the players' names
// or a per-match URL from the game's config, are played by a [LocalRunner]
// alongside, one game per goroutine.
//
// The results equal [LocalRunner]'s: every game is reset with its seed and
// its agents with [env.AgentSeed], and batched decisions are those of one Act
// call each. A game in which an agent panics is played again, alone, by a
// LocalRunner, which gives that seat the forfeit. Play plays one match with
// a LocalRunner. A PoolRunner is safe for concurrent use; its fields must
// not change while it plays.
type PoolRunner struct {
	// Registry makes the envs; nil means env.Default.
	Registry *env.Registry
	// Log receives external bots' fault lines, as LocalRunner.Log.
	Log io.Writer
	// EnvsPerWorker is the number of games a worker plays at once; 0 means
	// DefaultEnvsPerWorker.
	EnvsPerWorker int
}

var _ BatchRunner = (*PoolRunner)(nil)

// local returns the LocalRunner of r's settings.
func (r *PoolRunner) local() *LocalRunner { return &LocalRunner{Registry: r.Registry, Log: r.Log} }

// Play plays one match with a [LocalRunner].
func (r *PoolRunner) Play(ctx context.Context, m Match) (Result, error) {
	return r.local().Play(ctx, m)
}

// PlayBatch plays matches as described on [PoolRunner] and [BatchRunner].
func (r *PoolRunner) PlayBatch(ctx context.Context, matches []Match, workers int, done func(j int, r Result, err error)) {
	if workers < 1 {
		workers = 1
	}
	var pooled, alone []int
	for j, m := range matches {
		if len(pooled) == 0 || sameSetting(matches[pooled[0]], m) {
			if inProcess(m) {
				pooled = append(pooled, j)
				continue
			}
		}
		alone = append(alone, j)
	}
	var mu sync.Mutex
	report := func(j int, res Result, err error) {
		mu.Lock()
		defer mu.Unlock()
		done(j, res, err)
	}
	var wg sync.WaitGroup
	if len(alone) > 0 {
		wg.Go(func() { playEach(ctx, r.local(), matches, alone, workers, report) })
	}
	if len(pooled) > 0 {
		r.playPooled(ctx, matches, pooled, workers, report)
	}
	wg.Wait()
}

// inProcess reports whether every agent of m plays in this process.
func inProcess(m Match) bool {
	for _, s := range m.Seats {
		if !agents.InProcess(m.Game, s.Spec) {
			return false
		}
	}
	return true
}

// sameSetting reports whether a and b can share one pool: the same game,
// config and round cap.
func sameSetting(a, b Match) bool {
	return a.Game == b.Game && string(a.Config) == string(b.Config) && a.MaxRounds == b.MaxRounds
}

// playEach plays matches[js] with runner, one game per goroutine on at
// most workers goroutines, and reports each; it stops starting games once
// one fails or ctx is cancelled.
func playEach(ctx context.Context, runner Runner, matches []Match, js []int, workers int, report func(int, Result, error)) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range min(workers, len(js)) {
		wg.Go(func() {
			for j := range jobs {
				res, err := playRecovered(ctx, runner, matches[j])
				if err != nil {
					cancel()
				}
				report(j, res, err)
			}
		})
	}
	for _, j := range js {
		select {
		case jobs <- j:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			break
		}
	}
	close(jobs)
	wg.Wait()
}

// playRecovered plays m, turning a panic of the game (agents' panics are
// forfeits already) into an error naming the game.
func playRecovered(ctx context.Context, runner Runner, m Match) (res Result, err error) {
	defer func() {
		if p := recover(); p != nil {
			res, err = Result{}, fmt.Errorf("panic in game %d of %s (seed %d): %v", m.Index, m.Game, m.Seed, p)
		}
	}()
	return runner.Play(ctx, m)
}

// choiceName names an entrant's choice in the pool's mixtures: its league
// name and spec, so that two specs under one name stay apart.
func choiceName(e Entrant) string { return e.Name + "\x00" + e.Spec }

// playPooled plays matches[js] (all in process, one setting) on a pool.
func (r *PoolRunner) playPooled(ctx context.Context, matches []Match, js []int, workers int, report func(int, Result, error)) {
	reg := r.Registry
	if reg == nil {
		reg = env.Default
	}
	first := matches[js[0]]
	fail := func(j int, err error) { report(j, Result{}, err) }
	// The players keep the game's default names: in-process agents do not
	// read them, and the standings name the agents from the match.
	cfg, err := MatchConfig(reg, Match{Game: first.Game, Config: first.Config, MaxRounds: first.MaxRounds})
	if err != nil {
		fail(js[0], markBad(err))
		return
	}
	probe, err := reg.Make(first.Game, cfg)
	if err != nil {
		fail(js[0], markBad(err))
		return
	}
	spec := probe.Spec()
	// Check every match's seats, and make each agent once, so that a bad
	// one is reported for the first match that names it.
	made := map[string]bool{}
	for _, j := range js {
		m := matches[j]
		if len(m.Seats) != spec.Seats {
			// The error a LocalRunner gives (the players' names in the
			// config come first).
			_, err := r.local().Play(ctx, m)
			if err == nil {
				err = kindError{ErrBadMatch, fmt.Errorf("league: game %d: %d agents for %d seats", m.Index, len(m.Seats), spec.Seats)}
			}
			fail(j, err)
			return
		}
		for _, ent := range m.Seats {
			if made[choiceName(ent)] {
				continue
			}
			a, err := agents.New(m.Game, ent.Spec, spec)
			if err != nil {
				fail(j, kindError{ErrBadMatch, fmt.Errorf("league: agent %s: %w", ent.Name, err)})
				return
			}
			agents.Close(a)
			made[choiceName(ent)] = true
		}
	}

	choices := seatChoices(matches, js, spec.Seats)
	q := &gameQueue{js: js}
	per := min(cmp0(r.EnvsPerWorker, DefaultEnvsPerWorker), (len(js)+workers-1)/workers)
	var wg sync.WaitGroup
	for range min(workers, (len(js)+per-1)/per) {
		wg.Go(func() {
			p := &pooledGames{matches: matches, queue: q, spec: spec, maxRounds: first.MaxRounds}
			r.playShare(ctx, p, reg, cfg, choices, per, report)
		})
	}
	wg.Wait()
}

// seatChoices returns, for every seat, a mixture choice for every agent
// that matches[js] put in it, in order of first appearance.
func seatChoices(matches []Match, js []int, seats int) [][]vecenv.OpponentChoice {
	out := make([][]vecenv.OpponentChoice, seats)
	for seat := range seats {
		seen := map[string]bool{}
		for _, j := range js {
			ent := matches[j].Seats[seat]
			if name := choiceName(ent); !seen[name] {
				seen[name] = true
				out[seat] = append(out[seat], vecenv.OpponentChoice{Name: name, Factory: entrantFactory(matches[j].Game, ent), Weight: 1})
			}
		}
	}
	return out
}

// playShare plays games from p.queue on one pool of nEnvs envs, on the
// calling goroutine, until the queue is empty. If an agent panics, the
// pool is unusable: its unfinished games are played again alone, where
// the panic is a forfeit, and so are the games it takes after them.
func (r *PoolRunner) playShare(ctx context.Context, p *pooledGames, reg *env.Registry, cfg []byte, choices [][]vecenv.OpponentChoice, nEnvs int, report func(int, Result, error)) {
	p.playing = make([]int, nEnvs)
	p.rounds = make([]int, nEnvs)
	p.rec = make([]*recorder, nEnvs)
	p.counters = make([]*match.Counter, nEnvs)
	pool, err := p.newPool(reg, cfg, choices)
	if err != nil {
		if j, ok := p.queue.take(); ok {
			report(j, Result{}, err)
		}
		p.queue.halt()
		return
	}
	defer pool.Close()
	left, panicked := p.run(ctx, pool, report)
	if panicked == nil || ctx.Err() != nil {
		return
	}
	local := r.local()
	for {
		var j int
		if len(left) > 0 {
			j, left = left[0], left[1:]
		} else if next, ok := p.queue.take(); ok {
			j = next
		} else {
			return
		}
		res, err := playRecovered(ctx, local, p.matches[j])
		report(j, res, err)
		if err != nil {
			p.queue.halt()
			return
		}
	}
}

// cmp0 returns v, or def when v is 0 or less.
func cmp0(v, def int) int {
	if v <= 0 {
		return def
	}
	return v
}

// gameQueue hands the pooled matches out to the pools, in order.
type gameQueue struct {
	mu     sync.Mutex
	js     []int
	next   int
	halted bool
}

// take returns the next match to play, or false when none is left or the
// queue was halted.
func (q *gameQueue) take() (int, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.halted || q.next == len(q.js) {
		return 0, false
	}
	q.next++
	return q.js[q.next-1], true
}

// halt stops handing out matches (after an error).
func (q *gameQueue) halt() {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.halted = true
}

// pooledGames is the state of one pool of a playPooled call. Only rec is
// touched by the pool's worker (as its Observer); the pools share only the
// queue.
type pooledGames struct {
	matches   []Match
	queue     *gameQueue
	spec      *env.Spec
	maxRounds int
	playing   []int            // per env: the index into matches of its game, or -1
	rounds    []int            // per env: steps of its game so far
	rec       []*recorder      // per env: the recording of its game, or nil
	counters  []*match.Counter // per env: its game's actions by kind (nil for a game without kinds)
}

// newPool makes a one-worker pool of len(p.playing) envs without learner
// seats, every seat a mixture of choices.
func (p *pooledGames) newPool(reg *env.Registry, cfg []byte, choices [][]vecenv.OpponentChoice) (*vecenv.Pool, error) {
	game := p.matches[p.queue.js[0]].Game
	opps := map[int]env.AgentFactory{}
	names := map[int]string{}
	for seat, cs := range choices {
		opps[seat], names[seat] = cs[0].Factory, cs[0].Name
	}
	cfgPool := vecenv.Config{
		Game: game, GameConfig: cfg, Registry: reg, NumEnvs: len(p.playing), Workers: 1,
		LearnerSeats: []int{}, Opponents: opps, OpponentNames: names, MaxEpisodeSteps: p.maxRounds,
		Observer: p, // counts the actions, and records the games that ask for it
	}
	pool, err := vecenv.New(cfgPool)
	if err != nil {
		return nil, markBad(err)
	}
	for seat, cs := range choices {
		if err := pool.SetOpponents(seat, cs); err != nil {
			pool.Close()
			return nil, markBad(err)
		}
	}
	return pool, nil
}

// entrantFactory makes ent's agent for the pool.
func entrantFactory(game string, ent Entrant) env.AgentFactory {
	return func(spec *env.Spec) (env.Agent, error) {
		a, err := agents.New(game, ent.Spec, spec)
		if err != nil {
			return nil, err
		}
		return a, nil
	}
}

// assign plans env i's next game, or holds the env when none is left.
func (p *pooledGames) assign(pool *vecenv.Pool, i int) error {
	p.rounds[i] = 0
	j, ok := p.queue.take()
	if !ok {
		p.playing[i] = -1
		return pool.Hold(i)
	}
	p.playing[i] = j
	m := p.matches[j]
	plan := vecenv.EpisodePlan{Seed: m.Seed}
	for seat, ent := range m.Seats {
		plan.Opponents = append(plan.Opponents, choiceName(ent))
		plan.OpponentSeeds = append(plan.OpponentSeeds, env.AgentSeed(m.Seed, seat))
	}
	return pool.Plan(i, plan)
}

// run plays games until the queue is empty, reporting each. When an agent
// panics it returns the panic and the matches it was playing. After an
// error it halts the queue.
func (p *pooledGames) run(ctx context.Context, pool *vecenv.Pool, report func(int, Result, error)) (left []int, panicked any) {
	fail := func(j int, err error) ([]int, any) {
		report(j, Result{}, err)
		p.queue.halt()
		return nil, nil
	}
	for i := range p.playing {
		if err := p.assign(pool, i); err != nil {
			return fail(p.playing[i], err)
		}
	}
	if panicked = step(pool.Reset); panicked != nil {
		return p.unfinished(), panicked
	}
	limit := match.RoundLimit(p.spec)
	for p.active() {
		if err := ctx.Err(); err != nil {
			return fail(p.unfinished()[0], err)
		}
		if panicked = step(func() error { return pool.Step(nil) }); panicked != nil {
			return p.unfinished(), panicked
		}
		for i, ended := range pool.EnvsEnded() {
			j := p.playing[i]
			if j < 0 {
				continue
			}
			if !ended {
				if p.rounds[i]++; p.rounds[i] > limit {
					m := p.matches[j]
					return fail(j, fmt.Errorf("league: game %d: %s: %w after %d rounds", m.Index, m.Game, match.ErrRunaway, limit))
				}
				continue
			}
			m := p.matches[j]
			res := m.result(match.ResultOf(pool.Env(i), m.Seed, m.names(), p.counters[i]))
			if p.matches[j].Fingerprint {
				res.Fingerprint = match.Fingerprint(pool.Env(i))
			}
			if p.rec[i] != nil {
				res.Data = &p.rec[i].rows
				p.rec[i] = nil
			}
			report(j, res, nil)
			if err := p.assign(pool, i); err != nil {
				return fail(j, err)
			}
		}
	}
	return nil, nil
}

// active reports whether an env has a game.
func (p *pooledGames) active() bool {
	for _, j := range p.playing {
		if j >= 0 {
			return true
		}
	}
	return false
}

// unfinished returns the matches being played.
func (p *pooledGames) unfinished() []int {
	var out []int
	for _, j := range p.playing {
		if j >= 0 {
			out = append(out, j)
		}
	}
	return out
}

// step calls f, returning what it panicked with (a pool re-raises its
// agents' panics) or its error (an agent that could not be made for a new
// env): either way the games left are played again alone, where the
// panic is a forfeit and the error is reported for its match.
func step(f func() error) (panicked any) {
	defer func() { panicked = recover() }()
	if err := f(); err != nil {
		return errors.Join(errors.New("league: pool"), err)
	}
	return nil
}

// EpisodeStarted starts counting the actions of env i's game and its
// recording (vecenv.Observer).
func (p *pooledGames) EpisodeStarted(i int, e env.Env) {
	if p.counters[i] == nil {
		p.counters[i] = match.NewCounter(e)
	}
	p.counters[i].Reset()
	m := p.matches[p.playing[i]]
	if !m.Record {
		return
	}
	p.rec[i] = newRecorder(p.spec, m)
	p.rec[i].observe(e)
}

// Stepped counts env i's actions and records its step (vecenv.Observer):
// the actions and outcomes, and the observations before the next step, if
// any.
func (p *pooledGames) Stepped(i int, e env.Env, actions []int32, rewards []float32, terminated, truncated []bool) {
	p.counters[i].Count(actions)
	r := p.rec[i]
	if r == nil {
		return
	}
	r.step(actions, actions, rewards, terminated, truncated) // pooled agents play in process: none is a Labeller
	if !e.Done() && (p.maxRounds == 0 || r.rows.Steps < p.maxRounds) {
		r.observe(e)
	}
}
