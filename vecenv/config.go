package vecenv

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"runtime"
	"slices"
	"strings"

	"github.com/botarena/botarena/env"
)

// AutoReset selects what a pool does when an env's episode ends. The zero
// value is [NextStep].
type AutoReset uint8

const (
	// NextStep is the Gymnasium 1.x and EnvPool default. When an env's
	// episode ends in step t, step t writes the final observation with the
	// final rewards and flags and sets Ended. In step t+1 the env is reset
	// instead of stepped: the actions of its rows are ignored, and its rows
	// get the first observation and mask of the new episode, reward 0,
	// Terminated and Truncated false, Ended false and the new Episode id.
	NextStep AutoReset = iota
	// SameStep resets the env within step t: its rows get the final
	// rewards and flags of the ended episode with Ended set, but the first
	// observation and mask of the new episode and the new Episode id. The
	// final observation of the ended episode is in [Pool.FinalObs].
	SameStep
)

// String returns "next_step" or "same_step".
func (m AutoReset) String() string {
	switch m {
	case NextStep:
		return "next_step"
	case SameStep:
		return "same_step"
	}
	return fmt.Sprintf("AutoReset(%d)", m)
}

// ParseAutoReset returns the mode named s ("next_step" or "same_step"; ""
// means the default, [NextStep]).
func ParseAutoReset(s string) (AutoReset, error) {
	switch s {
	case "", "next_step":
		return NextStep, nil
	case "same_step":
		return SameStep, nil
	}
	return 0, &ConfigError{Field: "AutoReset", Value: fmt.Sprintf("%q", s), Reason: `must be "next_step" or "same_step"`}
}

// Config configures a [Pool]. The zero value of each optional field is its
// default.
type Config struct {
	// Game is the registry name of the game ("bomberman", "bomberman/2p").
	// Required.
	Game string
	// GameConfig is the game's JSON config applied over its defaults (see
	// [env.Registry.Make]). Default: the game's defaults.
	GameConfig []byte
	// Registry is where Game is looked up. Default: [env.Default].
	Registry *env.Registry
	// NumEnvs is the number of envs, at least 1. Required.
	NumEnvs int
	// Seed is the pool seed every env, episode and opponent seed derives
	// from (see [EpisodeSeed] and [OpponentSeed]).
	Seed uint64
	// Workers is the number of goroutines that step envs, the goroutine
	// calling Step included; they take the chunks of each batch (contiguous
	// ranges of envs, several per worker) as each is free. It is capped at
	// NumEnvs. With 1 worker the pool is a plain loop on the caller's
	// goroutine (the serial reference).
	//
	// Default (0): runtime.GOMAXPROCS(0) goroutines, of which each Step wakes
	// as many as pay, measured while the pool runs: the caller alone for a
	// pool whose step costs less than waking a worker (a few dozen cheap
	// envs), more as the step grows, fewer again when other processes leave
	// the workers no core (see [Pool.StepWorkers]). A fixed count wakes
	// every worker for every batch, except that after a short batch (under
	// 1 ms) in which none of them took a chunk the caller steps the next 63
	// alone.
	Workers int
	// LearnerSeats lists the seats of each env whose actions the caller
	// supplies, in row order: row = env*len(LearnerSeats) + k holds seat
	// LearnerSeats[k]. Seats must be valid and unique. Default (nil): every
	// seat, in order. An empty, non-nil slice means no learner seat: every
	// seat is played by an opponent, the pool has no rows, Step takes no
	// actions, and the caller follows the games with [Pool.EnvsEnded],
	// [Pool.Env] and an [Observer], scheduling them with [Pool.Plan] and
	// [Pool.Hold] (how a league plays its games).
	LearnerSeats []int
	// Opponents maps every seat that is not a learner seat to the factory
	// of its opponent; each env gets its own instances. Required for each
	// non-learner seat; a learner seat or an invalid seat here is an error.
	Opponents map[int]env.AgentFactory
	// OpponentNames names the opponent of each seat of Opponents in the
	// per-opponent [Stats] and [Pool.Opponent] (the Name of the seat's
	// first [OpponentChoice]; see [Pool.SetOpponents]). Default: "".
	OpponentNames map[int]string
	// AutoReset is the autoreset mode. Default: [NextStep].
	AutoReset AutoReset
	// MaxEpisodeSteps, when positive, ends every episode after that many
	// steps: the seats still in play get Truncated, and the episode counts
	// in [Stats] with the game's standings at that point, as when a game's
	// own round cap ends it. Default (0): episodes end as the game does.
	MaxEpisodeSteps int
	// Observer, when not nil, sees every env start its episodes and take
	// its steps, with every seat's action (see [Observer]). Default: none.
	Observer Observer
}

// Observer watches the envs of a pool: every episode start and every step,
// with the actions of all seats, learners and opponents alike (what a
// match recorder needs).
//
// The pool calls it from the worker goroutine that owns env i, inside Reset
// and Step: calls for different envs run concurrently, calls for one env
// come in order. It must not modify e, nor keep e or the slices after the
// call; the pool's Step allocates nothing only if the Observer does not.
type Observer interface {
	// EpisodeStarted is called when env i has started an episode: after
	// e.Reset and the opponents' Reset, before its first step.
	EpisodeStarted(i int, e env.Env)
	// Stepped is called after env i took a step: actions holds every
	// seat's action, and rewards, terminated and truncated are what
	// e.Step wrote (before the pool truncates the seats still in play at
	// an episode end). e is the state after the step. The slices are the
	// pool's (scratch, or the rows' own when every seat is a learner):
	// valid only during the call, and not to be modified.
	Stepped(i int, e env.Env, actions []int32, rewards []float32, terminated, truncated []bool)
}

// ConfigError reports an invalid [Config] field.
type ConfigError struct {
	Field  string // the Config field, such as "NumEnvs" or "Opponents[2]"
	Value  any    // the offending value
	Reason string // what was expected
}

func (e *ConfigError) Error() string {
	return fmt.Sprintf("vecenv: config %s: %s, got %v", e.Field, e.Reason, e.Value)
}

// validated is a checked config with the defaults filled in.
type validated struct {
	Config
	spec     *env.Spec
	envs     []env.Env
	learners []int
	oppSeats []int
	opps     []env.Agent // env-major: opps[env*len(oppSeats)+j] plays oppSeats[j]
	auto     bool        // Workers was 0: the pool tunes how many it wakes
}

// validate checks cfg, makes the envs and opponents, and fills defaults.
func validate(cfg Config) (*validated, error) {
	v := &validated{Config: cfg}
	if v.Registry == nil {
		v.Registry = env.Default
	}
	if v.NumEnvs < 1 {
		return nil, &ConfigError{Field: "NumEnvs", Value: v.NumEnvs, Reason: "must be at least 1"}
	}
	if v.Workers < 0 {
		return nil, &ConfigError{Field: "Workers", Value: v.Workers, Reason: "must be 0 (GOMAXPROCS) or more"}
	}
	if v.Workers == 0 {
		v.Workers, v.auto = runtime.GOMAXPROCS(0), true
	}
	v.Workers = min(v.Workers, v.NumEnvs)
	if v.MaxEpisodeSteps < 0 {
		return nil, &ConfigError{Field: "MaxEpisodeSteps", Value: v.MaxEpisodeSteps, Reason: "must be 0 (no cap) or more"}
	}
	if v.AutoReset > SameStep {
		return nil, &ConfigError{Field: "AutoReset", Value: v.AutoReset, Reason: "must be NextStep or SameStep"}
	}
	if v.Game == "" {
		return nil, &ConfigError{Field: "Game", Value: `""`, Reason: "is required"}
	}
	first, err := v.Registry.Make(v.Game, v.GameConfig)
	if err != nil {
		return nil, fmt.Errorf("vecenv: config Game %q: %w", v.Game, err)
	}
	v.spec = first.Spec()
	seats := v.spec.Seats

	if v.LearnerSeats == nil {
		v.learners = make([]int, seats)
		for s := range seats {
			v.learners[s] = s
		}
	} else {
		seen := make([]bool, seats)
		for k, s := range v.LearnerSeats {
			if s < 0 || s >= seats {
				return nil, &ConfigError{Field: fmt.Sprintf("LearnerSeats[%d]", k), Value: s, Reason: fmt.Sprintf("must be a seat in 0..%d of %s", seats-1, v.Game)}
			}
			if seen[s] {
				return nil, &ConfigError{Field: fmt.Sprintf("LearnerSeats[%d]", k), Value: s, Reason: "must not repeat a seat"}
			}
			seen[s] = true
		}
		v.learners = append([]int{}, v.LearnerSeats...)
	}
	if rows := int64(v.NumEnvs) * int64(len(v.learners)); rows > math.MaxInt32 {
		return nil, &ConfigError{Field: "NumEnvs", Value: v.NumEnvs, Reason: fmt.Sprintf("must give at most %d rows (%d learner seats per env)", math.MaxInt32, len(v.learners))}
	}

	isLearner := make([]bool, seats)
	for _, s := range v.learners {
		isLearner[s] = true
	}
	keys := slices.Sorted(maps.Keys(v.Opponents))
	for _, s := range keys {
		f := v.Opponents[s]
		switch {
		case s < 0 || s >= seats:
			return nil, &ConfigError{Field: fmt.Sprintf("Opponents[%d]", s), Value: s, Reason: fmt.Sprintf("must be a seat in 0..%d of %s", seats-1, v.Game)}
		case isLearner[s]:
			return nil, &ConfigError{Field: fmt.Sprintf("Opponents[%d]", s), Value: s, Reason: "must not be a learner seat"}
		case f == nil:
			return nil, &ConfigError{Field: fmt.Sprintf("Opponents[%d]", s), Value: "nil", Reason: "must be a factory"}
		}
	}
	var missing []string
	for s := range seats {
		if !isLearner[s] {
			if _, ok := v.Opponents[s]; !ok {
				missing = append(missing, fmt.Sprint(s))
			}
			v.oppSeats = append(v.oppSeats, s)
		}
	}
	if len(missing) > 0 {
		return nil, &ConfigError{Field: "Opponents", Value: "no factory for seat " + strings.Join(missing, ", "), Reason: "must have a factory for every seat that is not a learner seat"}
	}

	v.envs = make([]env.Env, v.NumEnvs)
	v.envs[0] = first
	for i := 1; i < v.NumEnvs; i++ {
		if v.envs[i], err = v.Registry.Make(v.Game, v.GameConfig); err != nil {
			return nil, fmt.Errorf("vecenv: config Game %q: env %d: %w", v.Game, i, err)
		}
		if v.envs[i].Spec().Seats != seats {
			return nil, fmt.Errorf("vecenv: config Game %q: env %d has %d seats, env 0 has %d", v.Game, i, v.envs[i].Spec().Seats, seats)
		}
	}
	v.opps = make([]env.Agent, v.NumEnvs*len(v.oppSeats))
	for i := range v.NumEnvs {
		for j, s := range v.oppSeats {
			o, err := v.Opponents[s](v.spec)
			if err == nil && o == nil {
				err = errors.New("factory returned a nil env.Agent")
			}
			if err != nil {
				return nil, fmt.Errorf("vecenv: config Opponents[%d]: %w", s, err)
			}
			v.opps[i*len(v.oppSeats)+j] = o
		}
	}
	return v, nil
}
