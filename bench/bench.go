// Package bench measures end-to-end throughput: a [vecenv.Pool] stepping with
// observations and masks written, optionally followed by the Arrow encoding
// of every step's batch. `botarena bench` prints its figures; the committed
// baselines in this directory record them with the machine and date.
package bench

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"time"

	"github.com/botarena/botarena/observations"
	"github.com/botarena/botarena/vecenv"
)

// Config is one measurement.
type Config struct {
	// Game is the registry name ("bomberman"). GameConfig is its JSON
	// config (optional).
	Game       string
	GameConfig []byte
	// Envs and Workers size the pool; Workers 0 means GOMAXPROCS.
	Envs    int
	Workers int
	// Duration is how long to step after a warm-up of Duration/10 (at least
	// one step).
	Duration time.Duration
	// Seed is the pool seed and seeds the action table.
	Seed uint64
	// Encode also encodes every step's batch as an Arrow record-batch
	// message (appended to a reused buffer, as a unary RPC reply would be).
	Encode bool
	// Zstd compresses the encoded bodies (implies Encode).
	Zstd bool
}

// Result is the outcome of one measurement. Every learner seat of every env
// acts each step: agent steps = env steps × seats.
type Result struct {
	Game    string `json:"game"`
	Envs    int    `json:"envs"`
	Workers int    `json:"workers"`
	// WorkersUsed is how many workers the last step woke (see
	// [vecenv.Pool.StepWorkers]); with Workers 0 asked for, the pool chose.
	WorkersUsed      int     `json:"workers_used"`
	AutoWorkers      bool    `json:"auto_workers,omitempty"`
	Seats            int     `json:"seats"`
	Steps            int64   `json:"steps"`
	Seconds          float64 `json:"seconds"`
	AgentStepsPerSec float64 `json:"agent_steps_per_sec"`
	EnvStepsPerSec   float64 `json:"env_steps_per_sec"`
	ObsBytesPerAgent int     `json:"obs_bytes_per_agent"`
	AllocsPerStep    float64 `json:"allocs_per_step"`
	// StepMillis is the mean wall time of one pool step (all envs).
	StepMillis float64 `json:"step_ms"`
	// EncodeMillis and BatchBytes are the mean time and size of one
	// batch's Arrow message; zero without Encode.
	EncodeMillis float64 `json:"encode_ms,omitempty"`
	BatchBytes   int     `json:"batch_bytes,omitempty"`
	Zstd         bool    `json:"zstd,omitempty"`
}

// actionTableRows is how many rows of precomputed actions are cycled
// through, so that drawing actions costs nothing during the measurement.
const actionTableRows = 64

// Run makes the pool, warms it up, and measures for cfg.Duration. Actions
// are uniformly random in range (legal or not: illegal ones do what the
// original does, usually nothing), drawn once before timing.
func Run(cfg Config) (Result, error) {
	if cfg.Envs < 1 {
		return Result{}, fmt.Errorf("bench: envs: want at least 1, got %d", cfg.Envs)
	}
	if cfg.Workers < 0 {
		return Result{}, fmt.Errorf("bench: workers: want 0 (GOMAXPROCS) or more, got %d", cfg.Workers)
	}
	if cfg.Duration <= 0 {
		return Result{}, fmt.Errorf("bench: duration: want more than 0, got %v", cfg.Duration)
	}
	pool, err := vecenv.New(vecenv.Config{Game: cfg.Game, GameConfig: cfg.GameConfig, NumEnvs: cfg.Envs, Workers: cfg.Workers, Seed: cfg.Seed})
	if err != nil {
		return Result{}, err
	}
	defer pool.Close()
	spec := pool.Spec()
	rows := pool.Rows()

	var enc *observations.Encoder
	if cfg.Encode || cfg.Zstd {
		var opts []observations.Option
		if cfg.Zstd {
			opts = append(opts, observations.WithZstd())
		}
		if enc, err = observations.NewEncoder(spec, rows, opts...); err != nil {
			return Result{}, err
		}
		defer enc.Close()
	}

	rng := rand.New(rand.NewPCG(cfg.Seed, 0x62656e6368)) // "bench"
	table := make([]int32, rows+actionTableRows)
	for i := range table {
		table[i] = int32(rng.IntN(spec.Actions))
	}
	if err := pool.Reset(); err != nil {
		return Result{}, err
	}
	var msg []byte
	var encodeTime time.Duration
	step := func(i int64) error {
		off := int(i % actionTableRows)
		if err := pool.Step(table[off : off+rows]); err != nil {
			return err
		}
		if enc != nil {
			t0 := time.Now()
			msg, err = enc.AppendBatchMessage(msg[:0], pool.Buffers())
			encodeTime += time.Since(t0)
			return err
		}
		return nil
	}

	// Warm up: fill caches, grow every buffer, end a few episodes.
	warm := time.Now().Add(cfg.Duration / 10)
	for i := int64(0); i == 0 || time.Now().Before(warm); i++ {
		if err := step(i); err != nil {
			return Result{}, err
		}
	}
	encodeTime = 0

	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	start := time.Now()
	deadline := start.Add(cfg.Duration)
	var steps int64
	for ; steps == 0 || time.Now().Before(deadline); steps++ {
		if err := step(steps); err != nil {
			return Result{}, err
		}
	}
	elapsed := time.Since(start)
	runtime.ReadMemStats(&after)

	seconds := elapsed.Seconds()
	res := Result{
		Game:             cfg.Game,
		Envs:             cfg.Envs,
		Workers:          pool.Workers(),
		WorkersUsed:      pool.StepWorkers(),
		AutoWorkers:      cfg.Workers == 0,
		Seats:            rows / cfg.Envs,
		Steps:            steps,
		Seconds:          seconds,
		AgentStepsPerSec: float64(steps) * float64(rows) / seconds,
		EnvStepsPerSec:   float64(steps) * float64(cfg.Envs) / seconds,
		ObsBytesPerAgent: spec.ObsBytes() + spec.Actions,
		AllocsPerStep:    float64(after.Mallocs-before.Mallocs) / float64(steps),
		StepMillis:       (elapsed - encodeTime).Seconds() * 1000 / float64(steps),
		Zstd:             cfg.Zstd,
	}
	if enc != nil {
		res.EncodeMillis = encodeTime.Seconds() * 1000 / float64(steps)
		res.BatchBytes = len(msg)
	}
	return res, nil
}
