package policy

import (
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/botarena/botarena/agents"
	"github.com/botarena/botarena/env"
	_ "github.com/botarena/botarena/env/battlebots"
	_ "github.com/botarena/botarena/env/battlecube"
	_ "github.com/botarena/botarena/env/battleships"
	_ "github.com/botarena/botarena/env/bomberman"
	"github.com/botarena/botarena/internal/testutil"
)

func TestProbabilitiesMaskRules(t *testing.T) {
	for _, tc := range []struct {
		name   string
		logits []float64
		mask   []uint8
		want   []float64
	}{
		{"all_legal_is_softmax", []float64{0, math.Log(3)}, []uint8{1, 1}, []float64{0.25, 0.75}},
		{"illegal_actions_get_zero", []float64{5, 0, math.Log(3)}, []uint8{0, 1, 1}, []float64{0, 0.25, 0.75}},
		{"nonzero_mask_values_are_legal", []float64{0, 0}, []uint8{2, 255}, []float64{0.5, 0.5}},
		{"no_legal_action_means_all_legal", []float64{0, math.Log(3)}, []uint8{0, 0}, []float64{0.25, 0.75}},
		{"large_logits_do_not_overflow", []float64{1000, 1000 + math.Log(3)}, []uint8{1, 1}, []float64{0.25, 0.75}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := make([]float64, len(tc.logits))
			Probabilities(got, tc.logits, tc.mask)
			for i := range got {
				if math.Abs(got[i]-tc.want[i]) > 1e-12 {
					t.Errorf("p = %v, want %v", got, tc.want)
					break
				}
			}
		})
	}
}

func TestArgMaxRules(t *testing.T) {
	for _, tc := range []struct {
		name   string
		logits []float64
		mask   []uint8
		want   int32
	}{
		{"highest_logit", []float64{0, 3, 1}, []uint8{1, 1, 1}, 1},
		{"tie_goes_to_lowest_index", []float64{0, 2, 1, 2, 2}, []uint8{1, 1, 1, 1, 1}, 1},
		{"tie_among_legal_actions_only", []float64{5, 2, 2, 2}, []uint8{0, 0, 1, 1}, 2},
		{"illegal_maximum_is_skipped", []float64{0, 9, 1, 1}, []uint8{1, 0, 1, 1}, 2},
		{"no_legal_action_means_all_legal", []float64{0, 9, 9}, []uint8{0, 0, 0}, 1},
		{"negative_logits", []float64{-5, -3, -3}, []uint8{1, 1, 1}, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := ArgMax(tc.logits, tc.mask); got != tc.want {
				t.Errorf("ArgMax(%v, %v) = %d, want %d", tc.logits, tc.mask, got, tc.want)
			}
		})
	}
}

func TestSampleTemperatureRules(t *testing.T) {
	p := []float64{0.25, 0, 0.5, 0.25}
	t.Run("temperature_one_is_sample", func(t *testing.T) {
		for u := 0.0; u < 1; u += 0.001 {
			if got, want := SampleTemperature(p, 1, u), Sample(p, u); got != want {
				t.Fatalf("u %v: %d, Sample gives %d", u, got, want)
			}
		}
	})
	t.Run("low_temperature_plays_the_arg_max", func(t *testing.T) {
		// At 0.05 the weights are 2^-20, 0, 1, 2^-20: action 2 unless u is within 2^-19 of an end.
		for u := 0.001; u < 0.999; u += 0.001 {
			if got := SampleTemperature(p, 0.05, u); got != 2 {
				t.Fatalf("u %v: %d, want 2", u, got)
			}
		}
	})
	t.Run("high_temperature_flattens", func(t *testing.T) {
		// At temperature 1e9 the three legal actions weigh the same (to 1e-9).
		for _, c := range []struct {
			u    float64
			want int32
		}{{0.3, 0}, {0.34, 2}, {0.65, 2}, {0.67, 3}, {1, 3}} {
			if got := SampleTemperature(p, 1e9, c.u); got != c.want {
				t.Errorf("u %v: %d, want %d", c.u, got, c.want)
			}
		}
	})
	t.Run("zero_probability_never_drawn", func(t *testing.T) {
		for _, temp := range []float64{0.1, 1, 10} {
			for u := 0.0; u < 1; u += 0.01 {
				if got := SampleTemperature(p, temp, u); got == 1 {
					t.Fatalf("temperature %v, u %v: drew the action of probability 0", temp, u)
				}
			}
		}
	})
	t.Run("bad_temperature_panics", func(t *testing.T) {
		testutil.WantPanic(t, "SampleTemperature(p, 0, 0.5)", "", func() { SampleTemperature(p, 0, 0.5) })
	})
}

// TestFactoredHeadPlaysBattleships: the committed factored fixture
// (make_fixtures.py writes Battleships' action factors out from the game's
// documentation) has exactly the factors of battleships/small's spec, so it
// plays that game; a spec that factors its actions differently refuses it.
func TestFactoredHeadPlaysBattleships(t *testing.T) {
	m, err := Load(filepath.Join("testdata", "battleships.policy.safetensors"))
	if err != nil {
		t.Fatal(err)
	}
	if !m.Factored() || m.Outputs() != 13+13*13 {
		t.Fatalf("Factored() %v, Outputs() %d; want a factored head of 13 commands and 169 cells", m.Factored(), m.Outputs())
	}
	spec := testutil.NewEnv(t, "battleships/small", 1).Spec()
	if err := m.Check(spec); err != nil {
		t.Fatal(err)
	}
	other := *spec
	f := *spec.Factors
	f.Cell = slices.Clone(f.Cell)
	f.Cell[1], f.Cell[2] = f.Cell[2], f.Cell[1]
	other.Factors = &f
	if err := m.Check(&other); err == nil || !strings.Contains(err.Error(), "factors its actions into commands and cells differently") {
		t.Errorf("a spec with other factors: error %v", err)
	}
}

func TestSampleRules(t *testing.T) {
	p := []float64{0.25, 0, 0.5, 0.25}
	for _, tc := range []struct {
		name string
		u    float64
		want int32
	}{
		{"first_bucket", 0, 0},
		{"bucket_boundary_goes_up", 0.25, 2},
		{"middle", 0.7, 2},
		{"last_bucket", 0.99, 3},
		{"rounding_past_total_gives_last_possible", 1, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Sample(p, tc.u); got != tc.want {
				t.Errorf("Sample(%v, %v) = %d, want %d", p, tc.u, got, tc.want)
			}
		})
	}
	t.Run("zero_probability_never_drawn", func(t *testing.T) {
		q := []float64{0, 1, 0}
		for u := 0.0; u < 1; u += 0.01 {
			if got := Sample(q, u); got != 1 {
				t.Fatalf("Sample(%v, %v) = %d", q, u, got)
			}
		}
	})
}

func TestSpecMismatchNamesBoth(t *testing.T) {
	for _, tc := range []struct {
		name, policy, game string
		want               []string
	}{
		{"2d_policy_on_3d_game", "battlebots", "battlecube", []string{"testdata/battlebots.policy.safetensors", "trained on battlebots", "does not fit battlecube", "planes uint8[3,8,8,8], policy wants uint8[19,10,10]", "519 actions, policy has 34"}},
		{"3d_policy_on_2d_game", "battlecube", "battlebots", []string{"trained on battlecube", "does not fit battlebots", "34 actions, policy has 519"}},
		{"other_shapes", "battlebots", "bomberman", []string{"does not fit bomberman", "scalars float32[8], policy wants float32[4]", "7 actions, policy has 34"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			spec := testutil.NewEnv(t, tc.game, 1).Spec()
			_, err := agents.New(tc.game, "policy:"+filepath.Join("testdata", tc.policy+".policy.safetensors"), spec)
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
		})
	}
	t.Run("config_of_the_policy_named", func(t *testing.T) {
		// A policy trained with a config field that shapes the
		// observations (bomberman's view_radius) names its config, so
		// that the caller knows which to play it with.
		n := bombermanNet
		n.planes = []int{12, 23, 23}
		arch, tensors := n.build(1)
		arch["config"] = map[string]any{"view_radius": 11}
		path := filepath.Join(t.TempDir(), "centred.policy.safetensors")
		if err := os.WriteFile(path, encodePolicy(arch, tensors), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := agents.New("bomberman/2p", "policy:"+path, testutil.NewEnv(t, "bomberman/2p", 1).Spec())
		if err == nil || !strings.Contains(err.Error(), `trained on bomberman with config {"view_radius":11}`) {
			t.Errorf("got %v, want the policy's config named", err)
		}
	})
	t.Run("same_shapes_other_preset", func(t *testing.T) {
		if _, err := agents.New("battlebots/10x10", "policy:"+fixturePath, testutil.NewEnv(t, "battlebots/10x10", 1).Spec()); err != nil {
			t.Errorf("a battlebots policy on battlebots/10x10 (same shapes): %v", err)
		}
	})
}

func TestSchemeSpecs(t *testing.T) {
	spec := testutil.NewEnv(t, "battlebots", 1).Spec()
	for _, tc := range []struct {
		name, spec string
		temp       float64
		err        string
	}{
		{"arg_max", "policy:" + fixturePath, 0, ""},
		{"sample_suffix", "policy:" + fixturePath + "?sample", 1, ""},
		{"temperature", "policy:" + fixturePath + "?temp=0.25", 0.25, ""},
		{"temperature_one", "policy:" + fixturePath + "?temp=1", 1, ""},
		{"no_path", "policy:", 0, "names no file"},
		{"no_path_sample", "policy:?sample", 0, "names no file"},
		{"no_path_temperature", "policy:?temp=2", 0, "names no file"},
		{"zero_temperature", "policy:" + fixturePath + "?temp=0", 0, `temperature "0": want a number above 0`},
		{"bad_temperature", "policy:" + fixturePath + "?temp=warm", 0, `temperature "warm"`},
		{"infinite_temperature", "policy:" + fixturePath + "?temp=inf", 0, `temperature "inf"`},
		{"unknown_option", "policy:" + fixturePath + "?greedy", 0, "the options after the path are ?sample and ?temp=T, got ?greedy"},
		{"missing_file", "policy:testdata/none.policy.safetensors", 0, "no such file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, err := agents.New("battlebots", tc.spec, spec)
			if testutil.WantErr(t, err, tc.err) {
				return
			}
			if got := a.(*Agent); got.Temperature() != tc.temp || got.Sampling() != (tc.temp > 0) {
				t.Errorf("Temperature() = %v, Sampling() = %v, want temperature %v", got.Temperature(), got.Sampling(), tc.temp)
			}
		})
	}
	if !agents.Known("bomberman", "policy:x") || !agents.Known("battlecube", "policy:x") {
		t.Error("policy: is not known for every game")
	}
}

func TestCacheLoadsAFileOnce(t *testing.T) {
	path := writePolicy(t, tiny, 7)
	before := cacheLoads()
	var wg sync.WaitGroup
	models := make([]*Model, 64)
	for i := range models {
		wg.Go(func() {
			m, err := Open(path)
			if err != nil {
				t.Error(err)
			}
			models[i] = m
		})
	}
	wg.Wait()
	// A relative path to the same file is the same key.
	wd, _ := os.Getwd()
	rel, err := filepath.Rel(wd, path)
	if err == nil {
		m, err := Open(rel)
		if err != nil {
			t.Fatal(err)
		}
		models = append(models, m)
	}
	if got := cacheLoads() - before; got != 1 {
		t.Errorf("64 concurrent opens read the file %d times, want 1", got)
	}
	for _, m := range models {
		if m != models[0] {
			t.Fatal("opens returned different models")
		}
	}

	t.Run("changed_file_is_read_again", func(t *testing.T) {
		arch, tensors := tiny.build(8)
		arch["trained"] = map[string]any{"steps": 12345}
		if err := os.WriteFile(path, encodePolicy(arch, tensors), 0o644); err != nil {
			t.Fatal(err)
		}
		later := time.Now().Add(time.Hour)
		os.Chtimes(path, later, later)
		m, err := Open(path)
		if err != nil {
			t.Fatal(err)
		}
		if m == models[0] || !strings.Contains(string(m.Architecture().Trained), "12345") {
			t.Error("a changed file gave the cached model")
		}
	})

	t.Run("errors_are_not_cached", func(t *testing.T) {
		bad := filepath.Join(t.TempDir(), "bad.policy.safetensors")
		os.WriteFile(bad, []byte("nonsense"), 0o644)
		if _, err := Open(bad); err == nil {
			t.Fatal("no error for a bad file")
		}
		os.WriteFile(bad, encodePolicy(tiny.build(1)), 0o644)
		later := time.Now().Add(-time.Hour)
		os.Chtimes(bad, later, later)
		if _, err := Open(bad); err != nil {
			t.Errorf("after fixing the file: %v", err)
		}
	})

	t.Run("agents_share_the_model", func(t *testing.T) {
		spec := testutil.NewEnv(t, "battlebots", 1).Spec()
		a1, err := agents.New("battlebots", "policy:"+fixturePath, spec)
		if err != nil {
			t.Fatal(err)
		}
		a2, err := agents.New("battlebots", "policy:"+fixturePath+"?sample", spec)
		if err != nil {
			t.Fatal(err)
		}
		if a1.(*Agent).Model() != a2.(*Agent).Model() {
			t.Error("two agents of one file have different models")
		}
	})
}

// play runs one game of battlebots between a (seat 0) and huggy and
// returns seat 0's actions.
func play(t *testing.T, a env.Agent, seed uint64) []int32 {
	t.Helper()
	e := testutil.NewEnv(t, "battlebots", seed)
	huggy, err := agents.New("battlebots", "huggy", e.Spec())
	if err != nil {
		t.Fatal(err)
	}
	a.Reset(e, 0, seed)
	huggy.Reset(e, 1, seed+1)
	var got []int32
	acts := make([]int32, 2)
	rew := make([]float32, 2)
	term, trunc := make([]bool, 2), make([]bool, 2)
	for !e.Done() && len(got) < 200 {
		acts[0] = a.Act(e, 0)
		acts[1] = huggy.Act(e, 1)
		got = append(got, acts[0])
		e.Step(acts, rew, term, trunc)
	}
	return got
}

func TestSamplingDependsOnlyOnTheSeed(t *testing.T) {
	spec := testutil.NewEnv(t, "battlebots", 1).Spec()
	newAgent := func(s string) env.Agent {
		a, err := agents.New("battlebots", s, spec)
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	sampler := "policy:" + fixturePath + "?sample"
	first := play(t, newAgent(sampler), 5)
	t.Run("same_seed_same_actions", func(t *testing.T) {
		if got := play(t, newAgent(sampler), 5); !slices.Equal(got, first) {
			t.Errorf("same seed: %v, want %v", got, first)
		}
	})
	t.Run("reset_restarts_the_stream", func(t *testing.T) {
		a := newAgent(sampler)
		play(t, a, 9)
		if got := play(t, a, 5); !slices.Equal(got, first) {
			t.Errorf("after another game: %v, want %v", got, first)
		}
	})
	t.Run("other_seed_other_actions", func(t *testing.T) {
		differ := false
		for seed := uint64(100); seed < 104 && !differ; seed++ {
			e := testutil.NewEnv(t, "battlebots", 5)
			a1, a2 := newAgent(sampler), newAgent(sampler)
			a1.Reset(e, 0, 5)
			a2.Reset(e, 0, seed)
			for range 20 {
				differ = differ || a1.Act(e, 0) != a2.Act(e, 0)
			}
		}
		if !differ {
			t.Error("sampling with other seeds gave the same 20 actions on one state")
		}
	})
	t.Run("arg_max_ignores_the_seed", func(t *testing.T) {
		e := testutil.NewEnv(t, "battlebots", 5)
		a := newAgent("policy:" + fixturePath)
		a.Reset(e, 0, 1)
		want := a.Act(e, 0)
		for seed := range uint64(5) {
			a.Reset(e, 0, seed)
			if got := a.Act(e, 0); got != want {
				t.Fatalf("seed %d: %d, want %d", seed, got, want)
			}
		}
	})
}

func TestActIsLegalAndAllocationFree(t *testing.T) {
	for _, tc := range []struct{ game, fixture string }{{"battlebots", "battlebots"}, {"battlecube", "battlecube"}, {"battleships/small", "battleships"}} {
		game := tc.game
		t.Run(tc.fixture, func(t *testing.T) {
			e := testutil.NewEnv(t, game, 3)
			spec := e.Spec()
			for _, suffix := range []string{"", "?sample", "?temp=0.5"} {
				a, err := agents.New(game, "policy:"+filepath.Join("testdata", tc.fixture+".policy.safetensors")+suffix, spec)
				if err != nil {
					t.Fatal(err)
				}
				a.Reset(e, 0, 1)
				mask := make([]uint8, spec.Actions)
				e.WriteMask(0, mask)
				act := a.Act(e, 0)
				if act < 0 || int(act) >= spec.Actions || mask[act] == 0 {
					t.Errorf("%s: action %d is not legal", suffix, act)
				}
				if raceEnabled {
					continue
				}
				if n := testing.AllocsPerRun(20, func() { a.Act(e, 0) }); n != 0 {
					t.Errorf("%s: Act allocates %v times", suffix, n)
				}
			}
		})
	}
}

// TestForwardTilesAndInvariance: with layers wide enough that a single
// gonum Dgemm would run on goroutines (5 blocks of 64 columns and more),
// Forward allocates nothing, and each sample's logits are the same, bit
// for bit, in a batch of 50 as alone.
func TestForwardTilesAndInvariance(t *testing.T) {
	wide := netSpec{game: "wide", planes: []int{3, 6, 6}, scalars: 2, actions: 200, channels: []int{70}, hidden: 300}
	m, err := Load(writePolicy(t, wide, 3))
	if err != nil {
		t.Fatal(err)
	}
	const n = 50
	big, one := m.NewBatch(n), m.NewBatch(1)
	for k := range n {
		for i := range big.Planes(k) {
			big.Planes(k)[i] = uint8((i*7 + k*13) % 5)
		}
		big.Mask(k)[k%200] = 1
	}
	big.Forward(n)
	for _, k := range []int{0, 17, n - 1} {
		copy(one.Planes(0), big.Planes(k))
		copy(one.Scalars(0), big.Scalars(k))
		copy(one.Mask(0), big.Mask(k))
		one.Forward(1)
		for i, z := range one.Logits(0) {
			if big.Logits(k)[i] != z {
				t.Fatalf("sample %d, logit %d: %v in a batch, %v alone", k, i, big.Logits(k)[i], z)
			}
		}
	}
	if raceEnabled {
		return
	}
	if a := testing.AllocsPerRun(2, func() { big.Forward(n) }); a != 0 {
		t.Errorf("Forward of %d samples allocates %v times", n, a)
	}
}
