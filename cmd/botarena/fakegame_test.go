package main

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/internal/testutil"
)

// testgame is a tiny deterministic game for the command-line tests: every
// seat adds its action (0–2) to its score each round; the game lasts 5
// rounds (or max_rounds); the highest score wins. Its native formats are
// "state.json" (canonical) and "board.txt". plaingame is the same game
// without a native codec (the [env.Env] contract only).
type testConfig struct {
	Players   int      `json:"players"`
	MaxRounds int      `json:"max_rounds"`
	Names     []string `json:"names"`
}

func (c *testConfig) Validate() error {
	if c.Players < 2 || c.Players > 4 {
		return &env.ConfigError{Game: "testgame", Field: "players", Value: c.Players, Reason: "want 2–4"}
	}
	if c.MaxRounds < 0 {
		return &env.ConfigError{Game: "testgame", Field: "max_rounds", Value: c.MaxRounds, Reason: "want 0 or more"}
	}
	return nil
}

type testGame struct {
	cfg    testConfig
	spec   *env.Spec
	Round  int    `json:"round"`
	Scores []int  `json:"scores"`
	bad    [4]int // Invalid: actions out of range
}

func init() {
	// A game-specific play flag: --seats sets testgame's players.
	registerGameFlag(gameFlag{Game: "testgame", Name: "seats", Field: "players", Usage: "number of seats", Int: true})
	env.Register(testEntry("testgame"))
	env.Register(testutil.WithoutCodec(testEntry("testgame"), "plaingame"))
}

// testEntry is the registry entry of testgame under name.
func testEntry(name string) env.Entry {
	return env.Entry{
		Name:    name,
		Summary: "a test game",
		Rules: func(c env.Config) string {
			return fmt.Sprintf("# %s\n\n%d players add up their actions.", name, c.(*testConfig).Players)
		},
		NewConfig: func() env.Config { return &testConfig{Players: 2} },
		New: func(c env.Config) (env.Env, error) {
			cfg := *c.(*testConfig)
			max := 5
			if cfg.MaxRounds > 0 && cfg.MaxRounds < max {
				max = cfg.MaxRounds
			}
			spec := &env.Spec{
				Game: name, Seats: cfg.Players, Actions: 3, ActionNames: []string{"zero", "one", "two"},
				MaxSteps: max, Reward: "none",
				Obs: []env.Tensor{{Name: "scores", DType: env.Int32, Shape: []int{cfg.Players}, Layout: "[seats]"}},
			}
			return &testGame{cfg: cfg, spec: spec, Scores: make([]int, cfg.Players)}, nil
		},
	}
}

func (g *testGame) Spec() *env.Spec { return g.spec }
func (g *testGame) Reset(seed uint64) {
	g.Round, g.bad = 0, [4]int{}
	for i := range g.Scores {
		g.Scores[i] = int(seed % 3)
	}
}
func (g *testGame) Step(actions []int32, rewards []float32, terminated, truncated []bool) {
	g.spec.CheckStep(actions, rewards, terminated, truncated)
	if g.Done() {
		return
	}
	for i, a := range actions {
		if a >= 0 && a < 3 {
			g.Scores[i] += int(a)
		} else {
			g.bad[i]++
		}
	}
	g.Round++
}
func (g *testGame) Done() bool                 { return g.Round >= g.spec.MaxSteps }
func (g *testGame) Steps() int                 { return g.Round }
func (g *testGame) WriteObs(int, [][]byte)     {}
func (g *testGame) WriteMask(_ int, m []uint8) { copy(m, []uint8{1, 1, 1}) }
func (g *testGame) Invalid(seat int) int       { return g.bad[seat] }
func (g *testGame) Outcome() (int, bool) {
	r := g.Result()
	return r.Winner, r.Draw
}

func (g *testGame) Result() env.Result {
	res := env.Result{Rounds: g.Round, Winner: -1}
	seats := make([]int, len(g.Scores))
	for i := range seats {
		seats[i] = i
	}
	slices.SortStableFunc(seats, func(a, b int) int { return g.Scores[b] - g.Scores[a] })
	for r, s := range seats {
		name := fmt.Sprintf("P%d", s)
		if s < len(g.cfg.Names) {
			name = g.cfg.Names[s]
		}
		res.Standings = append(res.Standings, env.Standing{Seat: s, Rank: r + 1, Name: name, Score: float64(g.Scores[s]), Alive: true})
	}
	if len(seats) > 1 && g.Scores[seats[0]] > g.Scores[seats[1]] {
		res.Winner = seats[0]
	} else {
		res.Draw = true
	}
	return res
}
func (g *testGame) NativeFormats() []string { return []string{"state.json", "board.txt"} }
func (g *testGame) AppendNative(dst []byte, format string, seat int) ([]byte, error) {
	switch format {
	case "state.json":
		b, _ := json.Marshal(g)
		return append(dst, b...), nil
	case "board.txt":
		return fmt.Appendf(dst, "round %d: %v\n", g.Round, g.Scores), nil
	}
	return dst, fmt.Errorf("testgame: unknown format %q", format)
}
func (g *testGame) LoadNative(data []byte) error {
	var s testGame
	if err := json.Unmarshal(data, &s); err != nil {
		return fmt.Errorf("testgame: %w", err)
	}
	if len(s.Scores) != len(g.Scores) {
		return fmt.Errorf("testgame: got %d scores, want %d", len(s.Scores), len(g.Scores))
	}
	g.Round, g.Scores = s.Round, s.Scores
	return nil
}
func (g *testGame) ParseCommand(_ int, text []byte) (int32, bool) {
	s := strings.TrimSpace(string(text))
	if len(s) == 1 && s[0] >= '0' && s[0] <= '2' {
		return int32(s[0] - '0'), true
	}
	return 0, false
}
func (g *testGame) AppendCommand(dst []byte, _ int, a int32) []byte { return fmt.Appendf(dst, "%d", a) }
