package vecenv_test

import (
	"slices"
	"testing"

	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/vecenv"
)

// orderProbe is the toy game logging, in a list the test shares, the reset
// seed of each env it steps, in the order the pool steps them.
type orderProbe struct {
	env.Env
	seed uint64
	log  *[]uint64
}

func (g *orderProbe) Reset(seed uint64) { g.seed = seed; g.Env.Reset(seed) }

func (g *orderProbe) Step(actions []int32, rewards []float32, terminated, truncated []bool) {
	*g.log = append(*g.log, g.seed)
	g.Env.Step(actions, rewards, terminated, truncated)
}

// TestBatchesAlternateDirection: a serial pool steps its envs last first
// in every other batch, so that a batch starts with the envs the previous
// one ended with (see the dispatcher's doc).
func TestBatchesAlternateDirection(t *testing.T) {
	var log []uint64
	toys := toyRegistry()
	r := &env.Registry{}
	entry, err := toys.Lookup("toy")
	if err != nil {
		t.Fatal(err)
	}
	inner := entry.New
	entry.Name = "order"
	entry.New = func(c env.Config) (env.Env, error) {
		e, err := inner(c)
		return &orderProbe{Env: e, log: &log}, err
	}
	r.Register(entry)
	const envs = 7
	p, err := vecenv.New(vecenv.Config{Game: "order", Registry: r, GameConfig: []byte(`{"seats": 1, "length": 100}`), NumEnvs: envs, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if err := p.Reset(); err != nil {
		t.Fatal(err)
	}
	acts := make([]int32, p.Rows())
	var batches [][]uint64
	for range 4 {
		log = log[:0]
		if err := p.Step(acts); err != nil {
			t.Fatal(err)
		}
		batches = append(batches, slices.Clone(log))
	}
	for k := range batches {
		if len(batches[k]) != envs {
			t.Fatalf("batch %d stepped %d envs, want %d", k, len(batches[k]), envs)
		}
		if k > 0 {
			back := slices.Clone(batches[k-1])
			slices.Reverse(back)
			if !slices.Equal(batches[k], back) {
				t.Errorf("batch %d stepped the envs in the order %v after %v, want the reverse", k, batches[k], batches[k-1])
			}
		}
	}
}
