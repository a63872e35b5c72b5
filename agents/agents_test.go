package agents

import (
	"errors"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/internal/testutil"
)

// fakeGame is a tiny test-only game: two seats, four actions, and a mask
// that changes with the step, so that agents have something to read.
type fakeGame struct {
	spec  *env.Spec
	steps int
}

var fakeSpec = &env.Spec{
	Game:        "testgame",
	Seats:       2,
	Obs:         []env.Tensor{{Name: "step", DType: env.Int32, Shape: []int{1}, Layout: "[1]: the step"}},
	Actions:     4,
	ActionNames: []string{"nothing", "a", "b", "c"},
	MaxSteps:    20,
	Reward:      "none",
}

func (g *fakeGame) Spec() *env.Spec                         { return g.spec }
func (g *fakeGame) Reset(uint64)                            { g.steps = 0 }
func (g *fakeGame) Step([]int32, []float32, []bool, []bool) { g.steps++ }
func (g *fakeGame) Done() bool                              { return g.steps >= g.spec.MaxSteps }
func (g *fakeGame) Steps() int                              { return g.steps }
func (g *fakeGame) WriteObs(int, [][]byte)                  {}
func (g *fakeGame) Result() env.Result                      { return env.Result{Rounds: g.steps, Winner: -1} }
func (g *fakeGame) Outcome() (int, bool)                    { return -1, false }
func (g *fakeGame) Invalid(int) int                         { return 0 }

// WriteMask allows action 0 and the actions k with (step+seat+k) even.
func (g *fakeGame) WriteMask(seat int, dst []uint8) {
	for k := range dst {
		dst[k] = 0
		if k == 0 || (g.steps+seat+k)%2 == 0 {
			dst[k] = 1
		}
	}
}

func TestNames(t *testing.T) {
	for _, tc := range []struct {
		game string
		want []string
	}{
		{"testgame", []string{"console", "idle", "random"}},
		{"bomberman", []string{"console", "harvester", "hunter", "idle", "planner", "random", "reference"}},
		{"bomberman/12p", []string{"console", "harvester", "hunter", "idle", "planner", "random", "reference"}},
	} {
		if got := Names(tc.game); !slices.Equal(got, tc.want) {
			t.Errorf("Names(%q) = %v, want %v", tc.game, got, tc.want)
		}
	}
}

// TestNewErrors: an unknown name lists the valid names and the schemes
// of the game (dir:, which agents/entelect registers: capabilities_test.go
// links it into this test binary).
func TestNewErrors(t *testing.T) {
	_, err := New("bomberman/2p", "x", fakeSpec)
	if !errors.Is(err, ErrUnknownAgent) {
		t.Fatalf("New(unknown): err = %v, want ErrUnknownAgent", err)
	}
	if want := `unknown agent "x" for bomberman (valid: console, harvester, hunter, idle, planner, random, reference, dagger:..., dir:...)`; err.Error() != want {
		t.Errorf("New(unknown): err = %q, want %q", err, want)
	}
	if _, err := New("testgame", "reference", fakeSpec); err == nil || !strings.Contains(err.Error(), "valid: console, idle, random") {
		t.Errorf("New(testgame, reference): err = %v, want unknown agent", err)
	}
	// A game-specific factory refuses another game's spec.
	other := *fakeSpec
	other.Game = "testgame"
	if _, factory, _ := lookup("bomberman", "reference"); factory == nil {
		t.Error("no reference for bomberman")
	} else if _, err := factory(&other); err == nil {
		t.Error("reference factory accepted a testgame spec")
	}
}

func TestRegisterPanics(t *testing.T) {
	for name, f := range map[string]func(){
		"duplicate":   func() { Register("random", "", func(*env.Spec) (env.Agent, error) { return Idle{}, nil }) },
		"nil_factory": func() { Register("x", "", nil) },
	} {
		t.Run(name, func(t *testing.T) { testutil.WantPanic(t, "Register", "", f) })
	}
}

func TestIdle(t *testing.T) {
	a, err := New("testgame", "idle", fakeSpec)
	if err != nil {
		t.Fatal(err)
	}
	g := &fakeGame{spec: fakeSpec}
	a.Reset(g, 0, 1)
	for range 5 {
		if got := a.Act(g, 0); got != 0 {
			t.Fatalf("idle Act = %d, want 0", got)
		}
		g.steps++
	}
}

func TestRandomLegalAndDeterministic(t *testing.T) {
	play := func(seed uint64) []int32 {
		a, err := New("testgame", "random", fakeSpec)
		if err != nil {
			t.Fatal(err)
		}
		g := &fakeGame{spec: fakeSpec}
		a.Reset(g, 1, seed)
		mask := make([]uint8, fakeSpec.Actions)
		var got []int32
		for !g.Done() {
			act := a.Act(g, 1)
			g.WriteMask(1, mask)
			if act < 0 || int(act) >= len(mask) || mask[act] == 0 {
				t.Fatalf("step %d: illegal action %d (mask %v)", g.steps, act, mask)
			}
			got = append(got, act)
			g.steps++
		}
		return got
	}
	a, b, c := play(7), play(7), play(8)
	if !slices.Equal(a, b) {
		t.Errorf("same seed, different actions:\n%v\n%v", a, b)
	}
	if slices.Equal(a, c) {
		t.Errorf("seeds 7 and 8 gave the same actions %v", a)
	}
	seen := map[int32]bool{}
	for _, x := range a {
		seen[x] = true
	}
	if len(seen) < 3 {
		t.Errorf("random used only actions %v in 20 steps", seen)
	}
}

func TestRandomNoAllocs(t *testing.T) {
	a := NewRandom(fakeSpec)
	g := &fakeGame{spec: fakeSpec}
	a.Reset(g, 0, 3)
	if n := testing.AllocsPerRun(100, func() { a.Act(g, 0); g.steps = (g.steps + 1) % 10 }); n != 0 {
		t.Errorf("Random.Act allocates %v times per call", n)
	}
}

// TestGameAgentsResolve checks every linked game's built-in agents
// ([Builtins]): names well-formed and distinct, none a generic agent's,
// each with a summary and an agent New makes. (The env service's tests
// check that the training defaults name agents New makes.)
func TestGameAgentsResolve(t *testing.T) {
	nameRE := regexp.MustCompile(`^[a-z][a-z0-9-]*$`)
	for _, game := range env.Default.Names() {
		e, err := env.Make(game, nil)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, a := range builtins(game) {
			switch _, generic := generics[a.Name]; {
			case !nameRE.MatchString(a.Name) || slices.Contains(names, a.Name):
				t.Errorf("%s: agent %q: malformed or listed twice", game, a.Name)
			case generic:
				t.Errorf("%s: agent %q takes the name of a generic agent", game, a.Name)
			case strings.TrimSpace(a.Summary) == "" || a.New == nil:
				t.Errorf("%s: agent %q has no summary or no New", game, a.Name)
			}
			names = append(names, a.Name)
		}
		for _, name := range names {
			if _, err := New(game, name, e.Spec()); err != nil {
				t.Errorf("%s: %v", game, err)
			}
		}
	}
}

func TestSchemesMakeAgentsFromSpecs(t *testing.T) {
	RegisterScheme(Scheme{
		Prefix:  "fake:",
		Games:   []string{"fakegame"},
		Summary: "a test scheme",
		New: func(game, spec string, envSpec *env.Spec) (env.Agent, error) {
			if spec == "fake:bad" {
				return nil, errors.New("no such bot")
			}
			return Idle{}, nil
		},
	})
	if !Known("fakegame", "fake:bot") || Known("othergame", "fake:bot") || Known("fakegame", "nothing:x") {
		t.Error("Known does not follow the scheme's prefix and games")
	}
	if _, err := New("fakegame/preset", "fake:bot", nil); err != nil {
		t.Errorf("New: %v", err)
	}
	if _, err := New("fakegame", "fake:bad", nil); err == nil || !strings.Contains(err.Error(), `agent "fake:bad": no such bot`) {
		t.Errorf("a failing scheme: %v", err)
	}
	if _, err := New("othergame", "fake:bot", nil); !errors.Is(err, ErrUnknownAgent) || !strings.Contains(err.Error(), "fake: agents play fakegame, not othergame") {
		t.Errorf("a scheme of another game: %v", err)
	}
	if _, err := New("fakegame", "nope", nil); err == nil || !strings.Contains(err.Error(), "fake:...") {
		t.Errorf("unknown agents should list the schemes: %v", err)
	}
}

// TestCodecUsersNeedACodec: the built-in agents play a game without a
// native codec (fakeGame); the console, which speaks native formats, says
// that the game has none (agents/cmdbot's TestBotNeedsACodec checks a
// command-line bot).
func TestCodecUsersNeedACodec(t *testing.T) {
	g := &fakeGame{spec: fakeSpec}
	const want = "game testgame has no native codec"
	var out strings.Builder
	c := &Console{In: strings.NewReader("1\n"), Out: &out}
	c.Reset(g, 1, 0)
	if a := c.Act(g, 1); a != 0 || !strings.Contains(out.String(), want) || !strings.Contains(out.String(), "seat 1 does nothing") {
		t.Errorf("console: action %d, output %q; want 0 and %q", a, out.String(), want)
	}
	for _, name := range []string{"idle", "random"} {
		a, err := New("testgame", name, fakeSpec)
		if err != nil {
			t.Fatal(err)
		}
		a.Reset(g, 0, 1)
		if act := a.Act(g, 0); act < 0 || int(act) >= fakeSpec.Actions {
			t.Errorf("%s: action %d", name, act)
		}
	}
}
