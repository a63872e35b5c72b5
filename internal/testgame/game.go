package testgame

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"image"
	"slices"
	"strings"

	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/env/picture"
)

// Rounds is the length of a game without max_rounds.
const Rounds = 5

// Config is the game's configuration.
type Config struct {
	Players   int      `json:"players" doc:"number of seats" allowed:"2..4"`
	MaxRounds int      `json:"max_rounds" doc:"stop after this many rounds (0: 5)" allowed:">= 0"`
	Names     []string `json:"names" doc:"the players' names, by seat"`
}

// Validate reports the first invalid field.
func (c *Config) Validate() error {
	if c.Players < 2 || c.Players > 4 {
		return &env.ConfigError{Game: "testgame", Field: "players", Value: c.Players, Reason: "want 2–4"}
	}
	if c.MaxRounds < 0 {
		return &env.ConfigError{Game: "testgame", Field: "max_rounds", Value: c.MaxRounds, Reason: "want 0 or more"}
	}
	return nil
}

// Game is one game in progress. It is not safe for concurrent use.
type Game struct {
	cfg    Config
	spec   *env.Spec
	Round  int   `json:"round"`
	Scores []int `json:"scores"`

	invalid []int // actions outside 0..2, per seat, this episode
}

var (
	_ env.Env         = (*Game)(nil)
	_ picture.Painter = (*Game)(nil)
)

// New makes a game from a valid config.
func New(cfg *Config) (*Game, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	rounds := Rounds
	if cfg.MaxRounds > 0 && cfg.MaxRounds < rounds {
		rounds = cfg.MaxRounds
	}
	spec := &env.Spec{
		Game: "testgame", Seats: cfg.Players, Actions: 3, ActionNames: []string{"zero", "one", "two"},
		MaxSteps: rounds, Reward: "none",
		Obs: []env.Tensor{{Name: "scores", DType: env.Int32, Shape: []int{cfg.Players}, Layout: "[seats]: index = seat"}},
	}
	return &Game{cfg: *cfg, spec: spec, Scores: make([]int, cfg.Players), invalid: make([]int, cfg.Players)}, nil
}

// Spec describes the game.
func (g *Game) Spec() *env.Spec { return g.spec }

// Reset starts every score at seed mod 3.
func (g *Game) Reset(seed uint64) {
	g.Round = 0
	clear(g.invalid)
	for i := range g.Scores {
		g.Scores[i] = int(seed % 3)
	}
}

// Step adds each seat's action (0–2; others count 0) to its score.
func (g *Game) Step(actions []int32, rewards []float32, terminated, truncated []bool) {
	g.spec.CheckStep(actions, rewards, terminated, truncated)
	if !g.Done() {
		for i, a := range actions {
			if a >= 0 && a < 3 {
				g.Scores[i] += int(a)
			} else {
				g.invalid[i]++
			}
		}
		g.Round++
	}
	for i := range rewards {
		rewards[i], terminated[i], truncated[i] = 0, g.Done(), false
	}
}

// Done reports whether the last round has been played.
func (g *Game) Done() bool { return g.Round >= g.spec.MaxSteps }

// Steps returns the rounds played.
func (g *Game) Steps() int { return g.Round }

// Invalid returns how many of seat's actions this episode were outside
// 0..2 (they add nothing).
func (g *Game) Invalid(seat int) int { return g.invalid[seat] }

// WriteObs writes the scores.
func (g *Game) WriteObs(_ int, dst [][]byte) {
	g.spec.CheckObs(dst)
	for i, s := range g.Scores {
		binary.LittleEndian.PutUint32(dst[0][4*i:], uint32(int32(s)))
	}
}

// WriteMask allows every action.
func (g *Game) WriteMask(_ int, dst []uint8) { copy(dst, []uint8{1, 1, 1}) }

// Outcome returns Result's winner and draw.
func (g *Game) Outcome() (int, bool) {
	r := g.Result()
	return r.Winner, r.Draw
}

// Result ranks the seats by score ([ScoreResult]), each named by its
// config name, else P and its seat number.
func (g *Game) Result() env.Result {
	return ScoreResult(g.Round, g.Scores, func(s int) string {
		if s < len(g.cfg.Names) {
			return g.cfg.Names[s]
		}
		return fmt.Sprintf("P%d", s)
	})
}

// ScoreResult returns the result of a game of rounds rounds whose seats
// rank by score, highest first, ties in seat order, every seat alive: the
// highest score alone wins, a tie at the top (or a lone seat) is a draw.
// name names a seat in the standings; nil leaves the names empty. Test
// games of other packages rank their seats with it too.
func ScoreResult(rounds int, scores []int, name func(seat int) string) env.Result {
	res := env.Result{Rounds: rounds, Winner: -1}
	seats := make([]int, len(scores))
	for i := range seats {
		seats[i] = i
	}
	slices.SortStableFunc(seats, func(a, b int) int { return scores[b] - scores[a] })
	for r, s := range seats {
		st := env.Standing{Seat: s, Rank: r + 1, Score: float64(scores[s]), Alive: true}
		if name != nil {
			st.Name = name(s)
		}
		res.Standings = append(res.Standings, st)
	}
	if len(seats) > 1 && scores[seats[0]] > scores[seats[1]] {
		res.Winner = seats[0]
	} else {
		res.Draw = true
	}
	return res
}

// NativeFormats lists state.json (canonical) and board.txt.
func (g *Game) NativeFormats() []string { return []string{"state.json", "board.txt"} }

// AppendNative appends the state in format; every seat sees everything.
func (g *Game) AppendNative(dst []byte, format string, _ int) ([]byte, error) {
	switch format {
	case "state.json":
		b, _ := json.Marshal(g)
		return append(dst, b...), nil
	case "board.txt":
		return fmt.Appendf(dst, "round %d: %v\n", g.Round, g.Scores), nil
	}
	return dst, fmt.Errorf("testgame: unknown format %q", format)
}

// LoadNative reads a state.json.
func (g *Game) LoadNative(data []byte) error {
	var s Game
	if err := json.Unmarshal(data, &s); err != nil {
		return fmt.Errorf("testgame: %w", err)
	}
	if len(s.Scores) != len(g.Scores) {
		return fmt.Errorf("testgame: got %d scores, want %d", len(s.Scores), len(g.Scores))
	}
	g.Round, g.Scores = s.Round, s.Scores
	return nil
}

// ParseCommand reads one digit, 0 to 2.
func (g *Game) ParseCommand(_ int, text []byte) (int32, bool) {
	s := strings.TrimSpace(string(text))
	if len(s) == 1 && s[0] >= '0' && s[0] <= '2' {
		return int32(s[0] - '0'), true
	}
	return 0, false
}

// AppendCommand appends the action's digit.
func (g *Game) AppendCommand(dst []byte, _ int, a int32) []byte { return fmt.Appendf(dst, "%d", a) }

// Paint draws one bar of cells per seat, as long as its score.
func (g *Game) Paint(int) *image.RGBA {
	c := picture.NewCanvas(2*g.spec.MaxSteps+2, len(g.Scores), 8, 2)
	for seat, s := range g.Scores {
		for x := range min(s, 2*g.spec.MaxSteps+2) {
			c.Fill(x, seat, picture.SeatColor(seat))
		}
	}
	return c.Img
}
