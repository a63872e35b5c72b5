package policy

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/botarena/botarena/agents"
	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/vecenv"
)

// Prefix starts the agent specs of policy files: "policy:PATH" plays the
// masked arg-max, "policy:PATH?sample" samples, "policy:PATH?temp=T"
// samples at temperature T.
const Prefix = "policy:"

// SampleSuffix ends a spec whose agent samples its action from the
// probabilities instead of playing the arg-max.
const SampleSuffix = "?sample"

// TempOption starts the option of a spec whose agent samples at a
// temperature: "policy:PATH?temp=0.3" draws from the probabilities raised
// to the power 1/0.3 and renormalised (see [SampleTemperature]).
const TempOption = "?temp="

// splitOption splits the rest of a spec after Prefix into the path and
// its option ("?sample", "?temp=T" or "").
func splitOption(rest string) (path, option string) {
	if p, ok := strings.CutSuffix(rest, SampleSuffix); ok {
		return p, SampleSuffix
	}
	if i := strings.LastIndex(rest, TempOption); i >= 0 && !strings.ContainsAny(rest[i+len(TempOption):], "?/") {
		return rest[:i], rest[i:]
	}
	return rest, ""
}

// parseTemp returns the temperature of an option: 0 (arg-max) for none, 1
// for ?sample, T for ?temp=T (finite, above 0).
func parseTemp(option string) (float64, error) {
	switch {
	case option == "":
		return 0, nil
	case option == SampleSuffix:
		return 1, nil
	}
	v := strings.TrimPrefix(option, TempOption)
	t, err := strconv.ParseFloat(v, 64)
	if err != nil || !(t > 0) || math.IsInf(t, 0) {
		return 0, fmt.Errorf("policy: temperature %q: want a number above 0, such as %s0.3", v, TempOption)
	}
	return t, nil
}

func init() {
	agents.RegisterScheme(agents.Scheme{
		Prefix:    Prefix,
		InProcess: true,
		Needs:     agents.CapFiles,
		Summary:   "a trained policy file (docs/policy-format.md): policy:PATH plays the arg-max, policy:PATH?sample samples, policy:PATH?temp=T samples at temperature T",
		New: func(game, spec string, envSpec *env.Spec) (env.Agent, error) {
			return NewAgentSpec(spec, envSpec)
		},
		Path: func(spec string) (path, suffix string) {
			return splitOption(strings.TrimPrefix(spec, Prefix))
		},
	})
}

// NewAgentSpec makes the agent a "policy:PATH[?sample|?temp=T]" spec names
// for envs of spec, loading the file through the cache ([Open]).
func NewAgentSpec(agentSpec string, spec *env.Spec) (*Agent, error) {
	rest, ok := strings.CutPrefix(agentSpec, Prefix)
	if !ok {
		return nil, fmt.Errorf("policy: spec %q does not start with %q", agentSpec, Prefix)
	}
	path, option := splitOption(rest)
	if path == "" {
		return nil, fmt.Errorf("policy: spec %q names no file (want policy:PATH, policy:PATH%s or policy:PATH%sT)", agentSpec, SampleSuffix, TempOption)
	}
	temp, err := parseTemp(option)
	if err != nil {
		return nil, err
	}
	m, err := Open(path)
	if err != nil {
		if i := strings.LastIndexByte(path, '?'); i >= 0 {
			err = fmt.Errorf("%w (the options after the path are %s and %sT, got %s)", err, SampleSuffix, TempOption, path[i:])
		}
		return nil, err
	}
	return NewAgentTemp(m, spec, temp)
}

// Agent plays one seat with a [Model]: the most likely legal action
// (lowest index on ties) or, sampling, an action drawn from its
// probabilities (at a temperature) with the agent's per-episode seed.
//
// An Agent implements [env.Agent] and [vecenv.BatchOpponent]: a pool
// computes all the seats that agents of one model play in a worker's env
// range in one forward pass. Like every agent it is not safe for
// concurrent use, and one instance plays one seat. Its first Act allocates
// its batch-of-one scratch; later calls do not allocate.
type Agent struct {
	m    *Model
	temp float64 // 0: arg-max; 1: sample; else sample at this temperature
	spec *env.Spec
	pcg  rand.PCG
	rng  *rand.Rand
	one  *scratch // for Act, made on first use
}

var (
	_ env.Agent            = (*Agent)(nil)
	_ vecenv.BatchOpponent = (*Agent)(nil)
	_ vecenv.Batcher       = (*Model)(nil)
)

// NewAgent returns an agent playing m in envs of spec, the arg-max or,
// with sample, sampling, or an error naming the policy and the game when m
// does not fit spec (see [Model.Check]).
func NewAgent(m *Model, spec *env.Spec, sample bool) (*Agent, error) {
	if sample {
		return NewAgentTemp(m, spec, 1)
	}
	return NewAgentTemp(m, spec, 0)
}

// NewAgentTemp is [NewAgent] with a temperature: 0 plays the arg-max, 1
// samples, any other positive value samples at that temperature
// ([SampleTemperature]). It returns an error for a negative or non-finite
// temperature.
func NewAgentTemp(m *Model, spec *env.Spec, temp float64) (*Agent, error) {
	if !(temp >= 0) || math.IsInf(temp, 0) {
		return nil, fmt.Errorf("policy: temperature %v, want 0 (arg-max) or above", temp)
	}
	if err := m.Check(spec); err != nil {
		return nil, err
	}
	a := &Agent{m: m, temp: temp, spec: spec}
	a.rng = rand.New(&a.pcg)
	return a, nil
}

// Model returns the agent's model.
func (a *Agent) Model() *Model { return a.m }

// Sampling reports whether the agent samples (policy:PATH?sample) rather
// than playing the arg-max.
func (a *Agent) Sampling() bool { return a.temp > 0 }

// Temperature returns the agent's sampling temperature: 0 for the arg-max,
// 1 for policy:PATH?sample.
func (a *Agent) Temperature() float64 { return a.temp }

// agentSalt separates the sampling stream from other uses of the seed.
const agentSalt = 0x706f6c6963793a00 // "policy:\x00"

// Reset starts a new game: it seeds the agent's sampling generator from
// seed. It panics if e's spec does not fit the model.
func (a *Agent) Reset(e env.Env, seat int, seed uint64) {
	if s := e.Spec(); s != a.spec {
		if err := a.m.Check(s); err != nil {
			panic(err)
		}
	}
	a.pcg.Seed(seed, agentSalt)
}

// Act returns the agent's action for seat of e: a forward pass over a batch
// of one. It panics if e does not fit the model.
func (a *Agent) Act(e env.Env, seat int) int32 {
	if a.one == nil {
		a.one = newScratch(a.m, e.Spec(), 1)
	}
	a.one.gather(0, e, seat)
	a.one.b.Forward(1)
	return a.one.choose(0, a)
}

// Batcher returns the agent's model, which batches the agents of every
// pool that plays it.
func (a *Agent) Batcher() vecenv.Batcher { return a.m }

// NewBatchWorker implements [vecenv.Batcher]: scratch for one pool worker
// computing up to maxSeats seats of envs of spec at once. It panics if
// spec does not fit m.
func (m *Model) NewBatchWorker(spec *env.Spec, maxSeats int) vecenv.BatchWorker {
	if err := m.Check(spec); err != nil {
		panic(err)
	}
	return newScratch(m, spec, min(maxSeats, maxBatch))
}

// maxBatch is the most seats a pool worker's scratch holds; larger batches
// are computed in several passes.
const maxBatch = 256

// scratch is a [Batch] with views of its rows in the order of a spec's
// observation tensors, for env.WriteObs: what one goroutine needs to
// choose actions for up to Cap seats at once.
type scratch struct {
	b   *Batch
	obs [][][]byte // [row][tensor of spec.Obs]
}

func newScratch(m *Model, spec *env.Spec, capacity int) *scratch {
	if err := m.Check(spec); err != nil {
		panic(err)
	}
	// Check passed: the spec's planes and scalars are the model's inputs
	// or longer, the model's their prefixes. A row holds the whole
	// observation, which WriteObs fills; Forward reads the prefixes in
	// place.
	planes, _ := spec.Tensor("planes")
	scalars, _ := spec.Tensor("scalars")
	s := &scratch{b: m.newBatch(capacity, planes.Bytes(), scalars.Bytes()), obs: make([][][]byte, capacity)}
	for k := range capacity {
		s.obs[k] = make([][]byte, len(spec.Obs))
		for t, ts := range spec.Obs {
			if ts.Name == "planes" {
				s.obs[k][t] = s.b.planesRow(k)
			} else {
				s.obs[k][t] = s.b.scalarsRow(k)
			}
		}
	}
	return s
}

// gather writes seat's observation and mask in e into row k.
func (s *scratch) gather(k int, e env.Env, seat int) {
	e.WriteObs(seat, s.obs[k])
	e.WriteMask(seat, s.b.Mask(k))
}

// choose returns a's action for row k of the last Forward.
func (s *scratch) choose(k int, a *Agent) int32 {
	switch {
	case a.temp == 1:
		return Sample(s.b.Probs(k), a.rng.Float64())
	case a.temp > 0:
		return SampleTemperature(s.b.Probs(k), a.temp, a.rng.Float64())
	case s.b.m.factored != nil:
		return mostLikely(s.b.Probs(k))
	}
	return ArgMax(s.b.Logits(k), s.b.Mask(k))
}

// ActBatch implements [vecenv.BatchWorker]. It panics if an opponent is not
// an *Agent of this model.
func (s *scratch) ActBatch(dst []int32, envs []env.Env, seats []int, opps []env.Agent) {
	if len(envs) != len(dst) || len(seats) != len(dst) || len(opps) != len(dst) {
		panic("policy: ActBatch: dst, envs, seats and opps must have equal lengths")
	}
	c := s.b.Cap()
	for lo := 0; lo < len(dst); lo += c {
		hi := min(len(dst), lo+c)
		for k := lo; k < hi; k++ {
			s.gather(k-lo, envs[k], seats[k])
		}
		s.b.Forward(hi - lo)
		for k := lo; k < hi; k++ {
			a, ok := opps[k].(*Agent)
			if !ok || a.m != s.b.m {
				panic(fmt.Sprintf("policy: ActBatch: opponent %d (%T) is not an agent of %s", k, opps[k], s.b.m.name))
			}
			dst[k] = s.choose(k-lo, a)
		}
	}
}
