package battleships

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/internal/testutil"
)

// playRandom plays a game with uniformly random legal actions and returns
// the concatenated seat-0 state.json of every step.
func playRandom(t testing.TB, cfg *Config, seed uint64) (*Game, []byte) {
	g, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	g.Reset(seed)
	rng := rand.New(rand.NewPCG(seed, 3))
	mask := make([]uint8, g.spec.Actions)
	var out []byte
	acts := make([]int32, 2)
	var r [2]float32
	var te, tr [2]bool
	for !g.done {
		for s := range 2 {
			g.WriteMask(s, mask)
			acts[s] = testutil.RandomLegal(rng, mask)
		}
		g.Step(acts, r[:], te[:], tr[:])
		out, _ = g.AppendNative(out, FormatStateJSON, 0)
	}
	return g, out
}

func TestDeterminism(t *testing.T) {
	for _, cfg := range []*Config{{Size: SizeSmall}, {Size: SizeSmall, Placement: PlacementLearn}, {Size: SizeLarge, Placement: PlacementReference}} {
		_, a := playRandom(t, cfg, 5)
		_, b := playRandom(t, cfg, 5)
		_, c := playRandom(t, cfg, 6)
		if !bytes.Equal(a, b) {
			t.Errorf("%+v: same seed, different trajectory", cfg)
		}
		if bytes.Equal(a, c) {
			t.Errorf("%+v: different seeds, same trajectory", cfg)
		}
	}
}

func TestRandomGamesEndAndValidate(t *testing.T) {
	for seed := range uint64(10) {
		g, _ := playRandom(t, &Config{Size: SizeSmall, Placement: PlacementLearn}, seed)
		if g.round > g.maxRound+1 || !g.done {
			t.Fatalf("seed %d: round %d", seed, g.round)
		}
		full, _ := g.AppendNative(nil, FormatStateJSON, -1)
		h, _ := New(&Config{Size: SizeSmall, Placement: PlacementLearn})
		if err := h.LoadNative(full); err != nil {
			t.Fatalf("seed %d: final state does not load: %v", seed, err)
		}
		again, _ := h.AppendNative(nil, FormatStateJSON, -1)
		if !bytes.Equal(full, again) {
			t.Fatalf("seed %d: state.json does not round-trip", seed)
		}
		if !json.Valid(full) {
			t.Fatal("invalid JSON")
		}
	}
}

// TestHiddenInformation: seat 0's observation, mask and native files do
// not depend on where the opponent's unhit ships are, with and without the
// shot mask, the shield mask and the density plane.
func TestHiddenInformation(t *testing.T) {
	for _, cfg := range []*Config{{}, {ShotMask: true, DensityPlane: true}, {ShotMask: true, ShieldMask: true, DensityPlane: true}} {
		checkHiddenInformation(t, cfg)
	}
}

func checkHiddenInformation(t *testing.T, cfg *Config) {
	a := phase2(t, cfg)
	b := phase2(t, cfg)
	setFleet(b, 1, placed{Submarine, 9, 9, South}, placed{Destroyer, 7, 7, West}, placed{Battleship, 0, 9, East}, placed{Carrier, 5, 3, North}, placed{Cruiser, 1, 5, East})
	// The same visible history: a miss at (9,0) on both.
	for _, g := range []*Game{a, b} {
		step(g, CommandAction(10, 1, 9, 0), CommandAction(10, 1, 3, 3))
	}
	ob, oa := a.spec.NewObsBuffers(), a.spec.NewObsBuffers()
	a.WriteObs(0, oa)
	b.WriteObs(0, ob)
	for i := range oa {
		if !bytes.Equal(oa[i], ob[i]) {
			t.Errorf("tensor %s differs with the opponent's unseen fleet", a.spec.Obs[i].Name)
		}
	}
	ma, mb := make([]uint8, a.spec.Actions), make([]uint8, a.spec.Actions)
	a.WriteMask(0, ma)
	b.WriteMask(0, mb)
	if !bytes.Equal(ma, mb) {
		t.Error("mask differs")
	}
	for _, f := range nativeFormats {
		na, _ := a.AppendNative(nil, f, 0)
		nb, _ := b.AppendNative(nil, f, 0)
		if !bytes.Equal(na, nb) {
			t.Errorf("%s differs", f)
		}
	}
}

func TestZeroAllocs(t *testing.T) {
	g, _ := New(&Config{Placement: PlacementLearn})
	obs := g.spec.NewObsBuffers()
	mask := make([]uint8, g.spec.Actions)
	acts := []int32{0, 0}
	r := make([]float32, 2)
	te, tr := make([]bool, 2), make([]bool, 2)
	row := g.spec.NewObsBuffers()
	ver := g.UpdateObs(1, row, 0) // makes the record
	seed := uint64(0)
	n := testing.AllocsPerRun(200, func() {
		acts[0] = CommandAction(10, 1, int(seed%10), 3)
		acts[1] = PlaceAction(10, int(seed%10), 2, North)
		g.Step(acts, r, te, tr)
		g.WriteObs(0, obs)
		ver = g.UpdateObs(1, row, ver)
		g.WriteMask(1, mask)
		g.Outcome()
		if seed++; seed%7 == 0 {
			g.Reset(seed)
		}
	})
	if n != 0 {
		t.Errorf("%v allocations per step", n)
	}
	rg, _ := New(&Config{})
	if n := testing.AllocsPerRun(50, func() { seed++; rg.Reset(seed) }); n != 0 {
		t.Errorf("Reset with the random placer: %v allocations", n)
	}
}

func TestSampleStateFiles(t *testing.T) {
	// The v1.1 samples are player views (they hide B's fleet), so they do
	// not load as a full state; check that our v1.1 writer reproduces A's
	// own map byte for byte from a state rebuilt from the file.
	data, err := os.ReadFile(filepath.Join("testdata", "sample", "Phase 2 - Round 20", "A", "state.json"))
	if err != nil {
		t.Fatal(err)
	}
	var view struct {
		PlayerMap json.RawMessage
	}
	if err := json.Unmarshal(data, &view); err != nil {
		t.Fatal(err)
	}
	// Build a full state with A's map twice (B's name and key patched).
	pm := string(view.PlayerMap)
	bm := strings.Replace(strings.Replace(pm, `"Key":"A"`, `"Key":"B"`, 1), "RaezorDroidV1 A", "RaezorDroidV2 B", 1)
	full := `{"PlayerMap":null,"OpponentMap":null,"GameVersion":"1.0.0","GameLevel":1,"Round":20,"MapDimension":14,"Phase":2,"Player1Map":` + pm + `,"Player2Map":` + bm + `}`
	g, _ := New(&Config{Size: SizeLarge})
	if err := g.LoadNative([]byte(full)); err != nil {
		t.Fatal(err)
	}
	out, _ := g.AppendNative(nil, FormatStateJSON, -1)
	if string(out) != full {
		t.Errorf("v1.1 full state does not round-trip:\n%s\n%s", out, full)
	}
	own, _ := g.AppendNative(nil, FormatStateJSON, 0)
	if !bytes.HasPrefix(own, []byte(`{"PlayerMap":`+pm+`,"OpponentMap":`)) {
		t.Error("A's view does not start with the sample's PlayerMap")
	}
	m, _ := os.ReadFile(filepath.Join("testdata", "sample", "Phase 2 - Round 20", "A", "map.txt"))
	mt, _ := g.AppendNative(nil, FormatMapTxt, 0)
	head := string(m[:bytes.Index(m, []byte("Opponent"))])
	if !strings.HasPrefix(string(mt), head) {
		t.Errorf("map.txt's own part differs:\n%s\nwant\n%s", mt, head)
	}
}

func TestLoadNativeErrors(t *testing.T) {
	g, _ := New(&Config{})
	good, _ := g.AppendNative(nil, FormatStateJSON, -1)
	own, _ := g.AppendNative(nil, FormatStateJSON, 0)
	before, _ := g.AppendNative(nil, FormatStateJSON, -1)
	for name, data := range map[string]string{
		"player_view":  string(own),
		"bad_json":     "{",
		"wrong_size":   strings.Replace(string(good), `"MapDimension":10`, `"MapDimension":7`, 1),
		"unknown_key":  strings.Replace(string(good), `"GameLevel":1`, `"GameLevel":1,"Extra":2`, 1),
		"bad_occupied": strings.Replace(string(good), `{"Occupied":false`, `{"Occupied":true`, 1),
	} {
		if err := g.LoadNative([]byte(data)); err == nil {
			t.Errorf("%s: loaded", name)
		} else {
			t.Logf("%s: %v", name, err)
		}
	}
	after, _ := g.AppendNative(nil, FormatStateJSON, -1)
	if !bytes.Equal(before, after) {
		t.Error("a failed load changed the game")
	}
}

func TestScenario(t *testing.T) {
	states := testutil.ScenarioFile(t, filepath.Join("testdata", "scenario_cross_shot_kill.json"))
	if len(states) != 2 {
		t.Fatalf("%d states", len(states))
	}
	var st struct {
		PlayerMap struct {
			Owner struct{ Points, ShotsHit, Energy int }
		}
		OpponentMap struct {
			Ships []struct{ Destroyed bool }
		}
	}
	json.Unmarshal(states[1], &st)
	if o := st.PlayerMap.Owner; o.Points != 50 || o.ShotsHit != 2 || !st.OpponentMap.Ships[Destroyer].Destroyed {
		t.Errorf("after the double shot: %+v %+v", o, st.OpponentMap.Ships)
	}
}

func TestRegistryAndRules(t *testing.T) {
	for _, name := range []string{"battleships", "battleships/small", "battleships/large"} {
		e, err := env.Make(name, []byte(`{"placement":"learn"}`))
		if err != nil {
			t.Fatal(err)
		}
		if e.Spec().Actions != len(e.Spec().ActionNames) {
			t.Error("action names")
		}
	}
	if _, err := env.Make("battleships", []byte(`{"size":"huge"}`)); err == nil {
		t.Error("bad size accepted")
	}
	if r := Rules(DefaultConfig()); !strings.Contains(r, "seeker") {
		t.Error("rules")
	}
}

// TestActionFactors checks the factored action space on every map size:
// each action's (command, cell) pair is unique and names what the action
// does (its command code or placement direction, and its centre).
func TestActionFactors(t *testing.T) {
	for _, size := range []string{"small", "medium", "large"} {
		t.Run(size, func(t *testing.T) {
			g, err := New(&Config{Size: size})
			if err != nil {
				t.Fatal(err)
			}
			spec := g.Spec()
			n := g.cfg.MapSize()
			f := spec.Factors
			if f == nil {
				t.Fatal("no action factors")
			}
			if err := f.Check(spec.Actions); err != nil {
				t.Fatal(err)
			}
			G := n + 2*Margin
			if len(f.Commands) != 13 || f.Cells != G*G {
				t.Fatalf("%d commands, %d cells; want 13 and %d", len(f.Commands), f.Cells, G*G)
			}
			cell := func(x, y int) int32 { return int32((x+Margin)*G + y + Margin) }
			if f.Command[0] != 0 || f.Cell[0] != 0 {
				t.Errorf("do nothing is (%d, %d), want (0, 0)", f.Command[0], f.Cell[0])
			}
			for _, c := range []struct{ code, x, y int }{{CodeSingle, 0, 0}, {CodeSeeker, n - 1, 2}, {CodeShield, -3, n + 2}, {CodeCross, 4, -1}} {
				a := CommandAction(n, c.code, c.x, c.y)
				if f.Command[a] != int32(c.code) || f.Cell[a] != cell(c.x, c.y) {
					t.Errorf("code %d at (%d, %d): (%d, %d), want (%d, %d)", c.code, c.x, c.y, f.Command[a], f.Cell[a], c.code, cell(c.x, c.y))
				}
			}
			for d := range Direction(4) {
				a := PlaceAction(n, n-1, 1, d)
				if f.Command[a] != int32(NumCodes)+int32(d) || f.Cell[a] != cell(n-1, 1) || f.Commands[f.Command[a]] != "place "+d.String() {
					t.Errorf("place (%d, 1) %s: (%d, %d) %q", n-1, d, f.Command[a], f.Cell[a], f.Commands[f.Command[a]])
				}
			}
		})
	}
}
