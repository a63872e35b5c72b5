package vecenv_test

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/internal/testutil"
	"github.com/botarena/botarena/vecenv"
)

// startAsync returns an Async of p with batches of batch envs, closed at
// the end of the test, after its Reset.
func startAsync(t *testing.T, p *vecenv.Pool, batch int) *vecenv.Async {
	t.Helper()
	a, err := vecenv.NewAsync(p, batch, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	if err := a.Reset(); err != nil {
		t.Fatal(err)
	}
	return a
}

// envActions returns the actions of env i's learner rows for its t-th
// step (t from 1): a fixed function of (i, t), so that an env gets the same
// actions whatever order it is stepped in.
func envActions(dst []int32, i, t, actions int) {
	rng := rand.New(rand.NewPCG(uint64(i), uint64(t)))
	for k := range dst {
		dst[k] = int32(rng.IntN(actions))
	}
}

// envDigest hashes env i's rows of out (rows row0 onwards): every output
// of a step but the row order.
func envDigest(out vecenv.Output, row0, L int) [32]byte {
	b := out.Buffers
	h := sha256.New()
	for r := row0; r < row0+L; r++ {
		for t, o := range b.Obs {
			n := b.Spec.Obs[t].Bytes()
			h.Write(o[r*n : (r+1)*n])
		}
		h.Write(b.RowMask(r))
		binary.Write(h, binary.LittleEndian, []any{b.Rewards[r], b.Terminated[r], b.Truncated[r], b.Env[r], b.Seat[r], b.Episode[r], out.Ended[r]})
		if out.Ended[r] && out.FinalObs != nil {
			for t, f := range out.FinalObs {
				n := b.Spec.Obs[t].Bytes()
				h.Write(f[r*n : (r+1)*n])
			}
		}
	}
	return [32]byte(h.Sum(nil))
}

// syncTrajectories steps a pool of cfg (serially) for steps steps, every
// env with envActions, and returns each env's digest after its reset
// (index 0) and each step, and the final stats.
func syncTrajectories(t *testing.T, cfg vecenv.Config, steps int) ([][][32]byte, vecenv.Stats) {
	t.Helper()
	cfg.Workers = 1
	p := testutil.NewPool(t, cfg)
	if err := p.Reset(); err != nil {
		t.Fatal(err)
	}
	L := len(p.LearnerSeats())
	out := vecenv.Output{Buffers: p.Buffers(), Ended: p.Ended(), FinalObs: p.FinalObs()}
	traj := make([][][32]byte, p.NumEnvs())
	record := func() {
		for i := range traj {
			traj[i] = append(traj[i], envDigest(out, i*L, L))
		}
	}
	record()
	acts := make([]int32, p.Rows())
	for s := 1; s <= steps; s++ {
		for i := range p.NumEnvs() {
			envActions(acts[i*L:(i+1)*L], i, s, p.Spec().Actions)
		}
		if err := p.Step(acts); err != nil {
			t.Fatal(err)
		}
		record()
	}
	return traj, p.Stats()
}

// asyncTrajectories drives an Async over a pool of cfg and checks every
// row it receives against want (the sync trajectories; rows past their end
// are not checked). After Reset it receives batches and sends their envs
// back with their next actions:
//
//   - in order (chaos false): every env is sent exactly steps steps, and
//     the stats after Wait are returned;
//   - shuffled, split over two Send calls and held back for a round now
//     and then (chaos true): until every env has received steps results;
//     some envs take extra steps, and the stats are not comparable.
//
// With release it releases each batch after reading it (ReleaseAndSend in
// order, Release when shuffled), so that envs sent back in order write
// their rows in place.
func asyncTrajectories(t *testing.T, cfg vecenv.Config, batch, steps int, want [][][32]byte, chaos, release bool) vecenv.Stats {
	t.Helper()
	p := testutil.NewPool(t, cfg)
	a := startAsync(t, p, batch)
	n, L := p.NumEnvs(), len(p.LearnerSeats())
	rng := rand.New(rand.NewPCG(uint64(batch), 3))
	sent := make([]int, n)     // steps sent to each env
	received := make([]int, n) // results received of each env (the reset's included)
	var ready, held []int32
	acts := make([]int32, 0, n*L)
	send := func(envs []int32, release bool) {
		t.Helper()
		acts = acts[:0]
		for _, e := range envs {
			sent[e]++
			acts = append(acts, make([]int32, L)...)
			envActions(acts[len(acts)-L:], int(e), sent[e], p.Spec().Actions)
		}
		send := a.Send
		if release {
			send = a.ReleaseAndSend
		}
		if err := send(envs, acts); err != nil {
			t.Fatal(err)
		}
	}
	done := func() bool {
		for i := range n {
			if received[i] <= steps {
				return false
			}
		}
		return true
	}
	for a.InFlight() >= batch && !(chaos && done()) {
		k, err := a.Recv()
		if err != nil {
			t.Fatal(err)
		}
		out := a.Batch(k)
		for j := range batch {
			e := out.Buffers.Env[j*L]
			if r := received[e]; r < len(want[e]) && envDigest(out, j*L, L) != want[e][r] {
				t.Fatalf("env %d, step %d: rows differ from the sync pool's", e, r)
			}
			received[e]++
			if chaos || sent[e] < steps {
				ready = append(ready, e)
			}
		}
		if !chaos {
			send(ready, release) // ReleaseAndSend
			ready = ready[:0]
			continue
		}
		rng.Shuffle(len(ready), func(i, j int) { ready[i], ready[j] = ready[j], ready[i] })
		next := append(append([]int32(nil), held...), ready...) // the held envs first
		if len(held) == 0 && a.InFlight() > 2*batch {
			cut := rng.IntN(len(next) + 1) // hold the rest back for a round
			held = append(held, next[cut:]...)
			next = next[:cut]
		} else {
			held = held[:0]
		}
		if release {
			a.Release()
		}
		half := len(next) / 2
		send(next[:half], false)
		send(next[half:], false)
		ready = ready[:0]
	}
	a.Wait()
	if !chaos {
		for i := range n {
			if sent[i] != steps {
				t.Fatalf("env %d: sent %d steps, want %d", i, sent[i], steps)
			}
		}
	} else if !done() {
		t.Fatalf("received %v results, want more than %d each", received, steps)
	}
	return p.Stats()
}

// asyncCases are the pools of the determinism test: Bomberman with a
// random and the reference opponent and two learner seats, BattleBots in
// self-play (both games update observations in place), and the toy game
// with batched random opponents.
func asyncCases(mode vecenv.AutoReset) []struct {
	name string
	cfg  func(workers int) vecenv.Config
} {
	return []struct {
		name string
		cfg  func(workers int) vecenv.Config
	}{
		{"bomberman", func(workers int) vecenv.Config { return mixedConfig(10, workers, 42, mode) }},
		{"battlebots", func(workers int) vecenv.Config {
			return vecenv.Config{Game: "battlebots", GameConfig: []byte(`{"max_rounds": 25}`), NumEnvs: 9, Seed: 6, Workers: workers, AutoReset: mode}
		}},
		{"toy_batched", func(workers int) vecenv.Config {
			b := &countingBatcher{}
			return vecenv.Config{
				Game: "toy", Registry: toyRegistry(), GameConfig: []byte(`{"seats": 3, "length": 6}`),
				NumEnvs: 13, Seed: 8, Workers: workers, AutoReset: mode, LearnerSeats: []int{1},
				Opponents: map[int]env.AgentFactory{0: randomFactory(b), 2: randomFactory(nil)},
			}
		}},
	}
}

// TestAsyncDeterminism: an env's rows from an Async are byte for byte
// those of the serial pool given the same actions, for any batch size,
// worker count and send order, with and without Release (rows updated in
// place or written in full), in both autoreset modes, and the stats after
// Wait are the serial pool's.
func TestAsyncDeterminism(t *testing.T) {
	const steps = 60
	for _, mode := range []vecenv.AutoReset{vecenv.NextStep, vecenv.SameStep} {
		for _, c := range asyncCases(mode) {
			t.Run(mode.String()+"/"+c.name, func(t *testing.T) {
				want, wantStats := syncTrajectories(t, c.cfg(1), steps)
				if wantStats.Episodes() == 0 {
					t.Fatal("no episode ended; the test needs some")
				}
				n := c.cfg(1).NumEnvs
				for _, tc := range []struct{ batch, workers int }{{1, 1}, {3, 2}, {4, 3}, {n, 2}, {n - 1, 1}} {
					t.Run(fmt.Sprintf("batch=%d/workers=%d", tc.batch, tc.workers), func(t *testing.T) {
						for _, release := range []bool{false, true} {
							got := asyncTrajectories(t, c.cfg(tc.workers), tc.batch, steps, want, false, release)
							if fmt.Sprint(got) != fmt.Sprint(wantStats) {
								t.Errorf("release %v: stats %+v, want %+v", release, got, wantStats)
							}
							asyncTrajectories(t, c.cfg(tc.workers), tc.batch, steps/2, want, true, release)
						}
					})
				}
			})
		}
	}
}

// TestAsyncAfterPoolReset: envs reset by Pool.Reset can be sent at once,
// and their first results continue the sync pool's trajectories.
func TestAsyncAfterPoolReset(t *testing.T) {
	cfg := mixedConfig(6, 2, 5, vecenv.NextStep)
	want, _ := syncTrajectories(t, cfg, 2)
	p := testutil.NewPool(t, cfg)
	if err := p.Reset(); err != nil {
		t.Fatal(err)
	}
	a, err := vecenv.NewAsync(p, 6, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	L := 2
	envs := []int32{5, 4, 3, 2, 1, 0}
	acts := make([]int32, 6*L)
	for j, e := range envs {
		envActions(acts[j*L:(j+1)*L], int(e), 1, p.Spec().Actions)
	}
	if err := a.Send(envs, acts); err != nil {
		t.Fatal(err)
	}
	k, err := a.Recv()
	if err != nil {
		t.Fatal(err)
	}
	out := a.Batch(k)
	for j := range 6 {
		e := out.Buffers.Env[j*L]
		if envDigest(out, j*L, L) != want[e][1] {
			t.Errorf("env %d: first async step differs from the sync pool's", e)
		}
	}
}

// TestAsyncErrors: bad arguments are refused with the documented errors,
// leaving nothing queued.
func TestAsyncErrors(t *testing.T) {
	newToy := func(t *testing.T, learners []int) *vecenv.Pool {
		return toyPool(t, vecenv.Config{NumEnvs: 4, Workers: 2, LearnerSeats: learners, Opponents: opponentsFor(learners)})
	}
	for _, tc := range []struct {
		name  string
		batch int
		outs  func(p *vecenv.Pool) []vecenv.Output
		seats []int
		want  string
	}{
		{"batch_zero", 0, nil, nil, "BatchSize"},
		{"batch_over_envs", 5, nil, nil, "BatchSize"},
		{"no_learners", 1, nil, []int{}, "LearnerSeats"},
		{"outs_count", 2, func(p *vecenv.Pool) []vecenv.Output { return []vecenv.Output{p.NewOutput(4)} }, nil, "1 batches, want"},
		{"outs_rows", 2, func(p *vecenv.Pool) []vecenv.Output {
			return []vecenv.Output{p.NewOutput(4), p.NewOutput(4), p.NewOutput(3)}
		}, nil, "batch 2: vecenv: invalid output: 3 rows, want 4"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := newToy(t, tc.seats)
			var outs []vecenv.Output
			if tc.outs != nil {
				outs = tc.outs(p)
			}
			_, err := vecenv.NewAsync(p, tc.batch, outs)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("NewAsync: %v, want an error containing %q", err, tc.want)
			}
		})
	}

	p := newToy(t, nil) // seats 0 and 1 learners: 2 rows per env
	a, err := vecenv.NewAsync(p, 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	if err := a.Send([]int32{0}, []int32{0, 0}); !errors.Is(err, vecenv.ErrNotReset) {
		t.Errorf("Send before a reset: %v, want ErrNotReset", err)
	}
	if err := a.Reset(); err != nil {
		t.Fatal(err)
	}
	wantRefused(t, a, []refusedSend{
		{"in_flight", []int32{1}, []int32{0, 0}, vecenv.ErrInFlight, "in flight"},
		{"out_of_range", []int32{4}, []int32{0, 0}, nil, "envs[0]"},
		{"negative", []int32{-1}, []int32{0, 0}, nil, "envs[0]"},
		{"action_count", []int32{0}, []int32{0}, vecenv.ErrActions, "got 1 actions for 1 envs, want 2"},
	})
	for range 2 {
		if _, err := a.Recv(); err != nil {
			t.Fatal(err)
		}
	}
	if a.InFlight() != 0 {
		t.Fatalf("%d in flight, want 0", a.InFlight())
	}
	wantRefused(t, a, []refusedSend{
		{"twice", []int32{2, 2}, []int32{0, 0, 0, 0}, vecenv.ErrInFlight, "named twice"},
		{"action_range", []int32{0, 1}, []int32{0, 0, 0, 3}, vecenv.ErrActions, "action 3 of env 1 (seat 1)"},
	})
	if err := a.Send([]int32{3}, []int32{1, 1}); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Recv(); !errors.Is(err, vecenv.ErrStarved) {
		t.Errorf("Recv with 1 env in flight, batches of 2: %v, want ErrStarved", err)
	}
	a.Close()
	if err := a.Send([]int32{0}, []int32{0, 0}); !errors.Is(err, vecenv.ErrClosed) {
		t.Errorf("Send after Close: %v", err)
	}
	if _, err := a.Recv(); !errors.Is(err, vecenv.ErrClosed) {
		t.Errorf("Recv after Close: %v", err)
	}
	// The pool steps synchronously again.
	if err := p.Step(make([]int32, p.Rows())); err != nil {
		t.Errorf("Step after the Async closed: %v", err)
	}
}

// refusedSend is a Send that a pool must refuse: an error matching is
// (when set) whose text contains want.
type refusedSend struct {
	name          string
	envs, actions []int32
	is            error
	want          string
}

// wantRefused checks that a refuses each Send of cases as it says, leaving
// the envs in flight as they were.
func wantRefused(t *testing.T, a *vecenv.Async, cases []refusedSend) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			before := a.InFlight()
			err := a.Send(tc.envs, tc.actions)
			if err == nil || (tc.is != nil && !errors.Is(err, tc.is)) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Send: %v, want %v containing %q", err, tc.is, tc.want)
			}
			if a.InFlight() != before {
				t.Errorf("a refused Send changed the envs in flight from %d to %d", before, a.InFlight())
			}
		})
	}
}

// opponentsFor returns fixed opponents for the toy game's seats (2) that
// are not in learners (nil: every seat learns).
func opponentsFor(learners []int) map[int]env.AgentFactory {
	if learners == nil {
		return nil
	}
	opps := map[int]env.AgentFactory{}
	for s := range 2 {
		opps[s] = fixed(1)
	}
	for _, s := range learners {
		delete(opps, s)
	}
	return opps
}

// TestAsyncPanicReachesCaller: a panic of an opponent on a worker is
// re-raised by Recv on the caller's goroutine.
func TestAsyncPanicReachesCaller(t *testing.T) {
	p := toyPool(t, vecenv.Config{
		NumEnvs: 4, Workers: 2, LearnerSeats: []int{0},
		Opponents: map[int]env.AgentFactory{1: func(*env.Spec) (env.Agent, error) { return &fixedOpponent{panicAt: 1}, nil }},
	})
	a := startAsync(t, p, 4)
	if _, err := a.Recv(); err != nil {
		t.Fatal(err)
	}
	if err := a.Send([]int32{0, 1, 2, 3}, []int32{0, 0, 0, 0}); err != nil {
		t.Fatal(err)
	}
	defer func() {
		r := recover()
		if r == nil || !strings.Contains(r.(error).Error(), "fixedOpponent: boom") {
			t.Fatalf("recovered %v, want the opponent's panic", r)
		}
	}()
	a.Recv()
}

// TestAsyncSetOpponents: after Wait, SetOpponents changes the opponents of
// the envs' next episodes, and their stats show it.
func TestAsyncSetOpponents(t *testing.T) {
	p := testutil.NewPool(t, mixConfig(2, vecenv.NextStep))
	a := startAsync(t, p, 4)
	b := &countingBatcher{}
	acts := []int32{0, 0, 0, 0}
	for s := range 60 {
		if s == 10 {
			a.Wait()
			if err := p.SetOpponents(0, []vecenv.OpponentChoice{{Name: "random", Factory: randomFactory(b), Weight: 1}}); err != nil {
				t.Fatal(err)
			}
		}
		k, err := a.Recv()
		if err != nil {
			t.Fatal(err)
		}
		if err := a.Send(a.Batch(k).Buffers.Env, acts); err != nil {
			t.Fatal(err)
		}
	}
	a.Wait()
	if got := p.Stats().Opponents; len(got) < 2 || got[1].Name != "random" || got[1].Episodes == 0 {
		t.Errorf("opponent stats %+v, want episodes against seat 0's random choice", got)
	}
	if b.calls.Load() == 0 {
		t.Error("the batched opponent never played")
	}
	if bad := b.bad.Load(); bad != nil {
		t.Error(bad)
	}
}

// TestAsyncCloseStopsWorkers: Close waits for the envs in flight and
// leaves no goroutine behind.
func TestAsyncCloseStopsWorkers(t *testing.T) {
	p := testutil.NewPool(t, mixedConfig(8, 2, 1, vecenv.NextStep))
	before := runtime.NumGoroutine()
	a, err := vecenv.NewAsync(p, 3, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Reset(); err != nil {
		t.Fatal(err)
	}
	a.Close()
	a.Close()
	// A goroutine that has signalled its end may still be returning when
	// Close does (and the runtime starts helpers of its own under load):
	// wait for the count to come back, failing only if it never does.
	after := runtime.NumGoroutine()
	for deadline := time.Now().Add(time.Minute); after > before && time.Now().Before(deadline); after = runtime.NumGoroutine() {
		time.Sleep(10 * time.Millisecond)
	}
	if after > before {
		t.Errorf("%d goroutines a minute after Close, %d before NewAsync", after, before)
	}
}

// TestAsyncDoesNotAllocate: after warm-up, a Send and Recv round
// allocates nothing.
func TestAsyncDoesNotAllocate(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	p := toyPool(t, vecenv.Config{NumEnvs: 64, Workers: 2, LearnerSeats: []int{1}, Opponents: map[int]env.AgentFactory{0: fixed(1)}})
	a := startAsync(t, p, 16)
	acts := make([]int32, 16)
	envs := make([]int32, 16)
	round := func() {
		k, err := a.Recv()
		if err != nil {
			t.Fatal(err)
		}
		copy(envs, a.Batch(k).Buffers.Env)
		if err := a.Send(envs, acts); err != nil {
			t.Fatal(err)
		}
	}
	for range 20 {
		round()
	}
	// Blocking on a sync.Cond or channel may take a waiter record from the
	// runtime's per-P cache now and then (see TestBombermanStepAllocations).
	if allocs := testing.AllocsPerRun(200, round); allocs > 0.1 {
		t.Errorf("%v allocations per round, want 0", allocs)
	}
}

// TestAsyncReleaseKeepsRows: envs sent back in the order Recv returned
// them after Release land in the rows they were in (where ObsUpdaters
// write only what changed), for a batch of every env and of half of them;
// without Release a batch never takes the Output of the batch before it
// (the caller's until the next Recv returns).
func TestAsyncReleaseKeepsRows(t *testing.T) {
	for _, tc := range []struct {
		batch   int
		release bool
	}{{8, true}, {4, true}, {8, false}, {4, false}} {
		t.Run(fmt.Sprintf("batch=%d/release=%v", tc.batch, tc.release), func(t *testing.T) {
			p := testutil.NewPool(t, vecenv.Config{Game: "battlebots", NumEnvs: 8, Seed: 3, Workers: 2})
			a := startAsync(t, p, tc.batch)
			L := len(p.LearnerSeats())
			acts := make([]int32, tc.batch*L)
			envs := make([]int32, tc.batch)
			type place struct{ k, j int }
			last := map[int32]place{}
			moved, prev := 0, -1
			const rounds = 40
			for round := range rounds {
				k, err := a.Recv()
				if err != nil {
					t.Fatal(err)
				}
				if !tc.release && k == prev {
					t.Fatalf("round %d: batch in Output %d, the caller's until this Recv", round, k)
				}
				prev = k
				ids := a.Batch(k).Buffers.Env
				for j := range envs {
					envs[j] = ids[j*L]
					// Once the first rounds after Reset have placed the
					// envs, they stay.
					if pl, ok := last[envs[j]]; ok && pl != (place{k, j}) && round >= rounds/2 {
						moved++
					}
					last[envs[j]] = place{k, j}
				}
				if tc.release {
					a.Release()
				}
				if err := a.Send(envs, acts); err != nil {
					t.Fatal(err)
				}
			}
			if tc.release && moved > 0 {
				t.Errorf("%d env steps of the last %d rounds moved to other rows", moved, rounds/2)
			}
		})
	}
}
