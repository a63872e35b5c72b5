package vecenv_test

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/botarena/botarena/vecenv"
)

// benchGame is a game BenchmarkPool measures: its registry name and the
// actions to draw, as weights (an action listed twice is drawn twice as
// often). Each game's package adds itself from a bench_<game>_test.go file
// of this package, so that games never edit this file.
type benchGame struct {
	name    string
	weights []int32
}

// benchGames are the games BenchmarkPool measures, in order.
var benchGames = []benchGame{
	// Bomberman: do nothing, up, left, right, down (twice each), place,
	// trigger, like its own BenchmarkStep, so the two figures compare.
	// Uniform actions plant a bomb every 7th step per seat and end games in
	// about 11 steps, and map generation then dominates.
	{name: "bomberman", weights: []int32{0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 6}},
}

// BenchmarkPool steps pools of each game in benchGames with every seat a
// learner, writing observations and masks of every row; autoresets
// (next-step) are part of the figure. Actions come from a precomputed table
// drawn from the game's weights. workers=auto is Config.Workers 0 (the pool
// chooses; its workers-used metric is the count of the last Step); 16384
// envs are left to bench/device-scaling.sh (about 1.3 GB for Bomberman).
func BenchmarkPool(b *testing.B) {
	for _, game := range benchGames {
		for _, numEnvs := range []int{1, 16, 256, 1024, 4096} {
			for _, workers := range []int{1, 2, 0} {
				b.Run(fmt.Sprintf("%s/envs=%d/workers=%s", game.name, numEnvs, workersName(workers)), func(b *testing.B) {
					benchmarkPool(b, game, numEnvs, workers)
				})
			}
		}
	}
}

// workersName names a Config.Workers value in a benchmark: the count, or
// "auto" for 0.
func workersName(workers int) string {
	if workers == 0 {
		return "auto"
	}
	return fmt.Sprint(workers)
}

// Flags of BenchmarkScaling: comma-separated lists.
var (
	scalingEnvs    = flag.String("scaling.envs", "", "BenchmarkScaling: envs per pool, comma-separated (none: the benchmark is skipped)")
	scalingWorkers = flag.String("scaling.workers", "1,2,0", "BenchmarkScaling: Config.Workers values, comma-separated (0: the pool chooses)")
)

// BenchmarkScaling is BenchmarkPool over the envs and worker counts given
// by -scaling.envs and -scaling.workers, for the scaling curve of a
// machine with more cores (bench/device-scaling.sh); without
// -scaling.envs it is skipped.
func BenchmarkScaling(b *testing.B) {
	if *scalingEnvs == "" {
		b.Skip("no -scaling.envs")
	}
	envs, workers := intsFlag(b, *scalingEnvs), intsFlag(b, *scalingWorkers)
	for _, game := range benchGames {
		for _, numEnvs := range envs {
			for _, w := range workers {
				b.Run(fmt.Sprintf("%s/envs=%d/workers=%s", game.name, numEnvs, workersName(w)), func(b *testing.B) {
					benchmarkPool(b, game, numEnvs, w)
				})
			}
		}
	}
}

// intsFlag parses a comma-separated list of non-negative integers.
func intsFlag(b *testing.B, s string) []int {
	var out []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 0 {
			b.Fatalf("want non-negative integers, got %q in %q", f, s)
		}
		out = append(out, n)
	}
	return out
}

func benchmarkPool(b *testing.B, game benchGame, numEnvs, workers int) {
	p, err := vecenv.New(vecenv.Config{Game: game.name, NumEnvs: numEnvs, Workers: workers, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	defer p.Close()
	if err := p.Reset(); err != nil {
		b.Fatal(err)
	}
	rows := p.Rows()
	rng := rand.New(rand.NewPCG(7, 7))
	const batches = 8
	table := make([]int32, batches*rows)
	for i := range table {
		table[i] = game.weights[rng.IntN(len(game.weights))]
	}
	k := 0
	b.ReportAllocs()
	cpu := processCPU()
	for b.Loop() {
		if err := p.Step(table[k*rows : (k+1)*rows]); err != nil {
			b.Fatal(err)
		}
		k = (k + 1) % batches
	}
	b.ReportMetric(float64(rows*b.N)/b.Elapsed().Seconds(), "agent-steps/s")
	b.ReportMetric(float64(p.StepWorkers()), "workers-used")
	reportCPU(b, cpu, rows)
}

// reportCPU reports the process's CPU time since cpu (a processCPU
// reading) per agent-step, rows agent-steps an op, as cpu-ns/agent-step:
// on a machine that other processes keep busy it counts the time the
// benchmark ran rather than the time it waited for a core, which
// agent-steps/s counts too. It includes every goroutine of the process
// (the pool's workers, the garbage collector).
func reportCPU(b *testing.B, cpu int64, rows int) {
	if now := processCPU(); cpu >= 0 && now >= 0 {
		b.ReportMetric(float64(now-cpu)/float64(rows*b.N), "cpu-ns/agent-step")
	}
}

// BenchmarkOverhead measures the pool's own cost per step with the toy game
// (a few nanoseconds of game work per env): action checks, dispatch to the
// workers, opponents, row writes and autoresets every third step.
func BenchmarkOverhead(b *testing.B) {
	for _, numEnvs := range []int{2, 64, 1024} {
		for _, workers := range []int{1, 2} {
			b.Run(fmt.Sprintf("toy/envs=%d/workers=%d", numEnvs, workers), func(b *testing.B) {
				p, err := vecenv.New(vecenv.Config{Game: "toy", Registry: toyRegistry(), NumEnvs: numEnvs, Workers: workers})
				if err != nil {
					b.Fatal(err)
				}
				defer p.Close()
				p.Reset()
				acts := make([]int32, p.Rows())
				b.ReportAllocs()
				for b.Loop() {
					if err := p.Step(acts); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(p.Rows()*b.N)/b.Elapsed().Seconds(), "agent-steps/s")
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*numEnvs), "ns/env-step")
			})
		}
	}
}

// BenchmarkObsCopy is the memory-bandwidth reference for BenchmarkPool:
// each op copies as many bytes as one step of the same pool produces in
// observations and masks (every row's tensors and mask: rows ×
// (Spec.ObsBytes + Spec.Actions)) from one buffer into another of the same
// size, split into contiguous shares over the same number of goroutines.
// Its agent-steps/s is rows per second at that rate, so BenchmarkPool's
// figure divided by this one is the pool's speed as a multiple of copying
// its output. Whether those bytes stay in a cache between ops decides the
// figure: 1024 Bomberman envs copy 21.9 MB, 4096 envs 87 MB. The envs are
// 256, 1,024 and 4,096, or those of -scaling.envs when it is given, so that
// BenchmarkScaling's pools have their copy beside them.
func BenchmarkObsCopy(b *testing.B) {
	sizes := []int{256, 1024, 4096}
	if *scalingEnvs != "" {
		sizes = intsFlag(b, *scalingEnvs)
	}
	for _, game := range benchGames {
		for _, numEnvs := range sizes {
			for _, workers := range []int{1, 2} {
				b.Run(fmt.Sprintf("%s/envs=%d/workers=%d", game.name, numEnvs, workers), func(b *testing.B) {
					p, err := vecenv.New(vecenv.Config{Game: game.name, NumEnvs: numEnvs, Workers: 1})
					if err != nil {
						b.Fatal(err)
					}
					rows, rowBytes := p.Rows(), p.Spec().ObsBytes()+p.Spec().Actions
					p.Close()
					benchmarkCopy(b, rows, rowBytes, workers)
				})
			}
		}
	}
}

func benchmarkCopy(b *testing.B, rows, rowBytes, workers int) {
	src, dst := make([]byte, rows*rowBytes), make([]byte, rows*rowBytes)
	for i := range src {
		src[i] = byte(i)
	}
	copy(dst, src) // fault the pages in
	share := func(w int) (lo, hi int) { return w * len(src) / workers, (w + 1) * len(src) / workers }
	start := make([]chan struct{}, workers)
	done := make(chan struct{}, workers)
	for w := 1; w < workers; w++ {
		start[w] = make(chan struct{}, 1)
		lo, hi := share(w)
		go func() {
			for range start[w] {
				copy(dst[lo:hi], src[lo:hi])
				done <- struct{}{}
			}
		}()
		defer close(start[w])
	}
	lo, hi := share(0)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	cpu := processCPU()
	for b.Loop() {
		for w := 1; w < workers; w++ {
			start[w] <- struct{}{}
		}
		copy(dst[lo:hi], src[lo:hi])
		for w := 1; w < workers; w++ {
			<-done
		}
	}
	b.ReportMetric(float64(rows*b.N)/b.Elapsed().Seconds(), "agent-steps/s")
	reportCPU(b, cpu, rows)
}

// BenchmarkAsync measures an Async over 1024 envs of each game in
// benchGames, every seat a learner, with a caller that receives a batch and
// sends its envs back at once (no policy time to overlap), each env with
// the actions BenchmarkPool gives it: the cost of
// async stepping against BenchmarkPool's (both report cpu-ns/agent-step,
// the process's CPU time). One op is one batch. With release the caller
// calls Release before sending a batch's envs back (as a server or a
// send-and-receive call does), so that they step into their own rows.
func BenchmarkAsync(b *testing.B) {
	for _, game := range benchGames {
		for _, batch := range []int{256, 512, 1024} {
			for _, workers := range []int{1, 2} {
				for _, release := range []bool{false, true} {
					b.Run(fmt.Sprintf("%s/envs=1024/batch=%d/workers=%d/release=%v", game.name, batch, workers, release), func(b *testing.B) {
						benchmarkAsync(b, game, batch, workers, release)
					})
				}
			}
		}
	}
}

func benchmarkAsync(b *testing.B, game benchGame, batch, workers int, release bool) {
	p, err := vecenv.New(vecenv.Config{Game: game.name, NumEnvs: 1024, Workers: workers, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	defer p.Close()
	a, err := vecenv.NewAsync(p, batch, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer a.Close()
	if err := a.Reset(); err != nil {
		b.Fatal(err)
	}
	// The actions of BenchmarkPool: env e's rows of table batch t at its
	// t-th step, t counting the env's steps modulo 8.
	L, rows := len(p.LearnerSeats()), p.Rows()
	rng := rand.New(rand.NewPCG(7, 7))
	const batches = 8
	table := make([]int32, batches*rows)
	for i := range table {
		table[i] = game.weights[rng.IntN(len(game.weights))]
	}
	steps := make([]int, p.NumEnvs())
	acts := make([]int32, batch*L)
	envs := make([]int32, batch)
	b.ReportAllocs()
	cpu := processCPU()
	for b.Loop() {
		k, err := a.Recv()
		if err != nil {
			b.Fatal(err)
		}
		ids := a.Batch(k).Buffers.Env
		for j := range envs {
			e := ids[j*L]
			envs[j] = e
			t := steps[e] % batches
			copy(acts[j*L:(j+1)*L], table[t*rows+int(e)*L:])
			steps[e]++
		}
		if release {
			a.Release()
		}
		if err := a.Send(envs, acts); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(batch*L*b.N)/b.Elapsed().Seconds(), "agent-steps/s")
	reportCPU(b, cpu, batch*L)
}
