package bomberman

import (
	"encoding/json"
	"fmt"
	"os"
	"testing"

	"github.com/botarena/botarena/internal/testutil"
)

// TestScenarioFromTheOfficialSample replays rounds from the official
// round-165 state through the shared scenario runner (native state in,
// move.txt commands, one state.json per round out) and checks each emitted
// state by loading it back.
func TestScenarioFromTheOfficialSample(t *testing.T) {
	state, err := os.ReadFile("testdata/sample-round165-state.json")
	if err != nil {
		t.Fatal(err)
	}
	file, _ := json.Marshal(map[string]any{
		"game":   "bomberman/2p",
		"state":  json.RawMessage(state),
		"rounds": [][]string{{"0", "7"}, {"4", "2"}, {"x", "3"}},
	})
	var rounds []*Game
	for _, out := range testutil.Scenario(t, file) {
		g, err := New(&Config{Players: 2})
		if err != nil {
			t.Fatal(err)
		}
		if err := g.LoadNative(out); err != nil {
			t.Fatalf("emitted state does not load: %v", err)
		}
		rounds = append(rounds, g)
	}
	if len(rounds) != 3 {
		t.Fatalf("got %d states, want 3", len(rounds))
	}
	tests := []struct {
		name  string
		round int
		check func(g *Game) error
	}{
		{"round_166_fuse_1_bomb_explodes", 0, func(g *Game) error {
			if _, ok := g.BombAt(12, 4); ok || !g.At(12, 4).Exploding() || !g.At(13, 4).Exploding() {
				return fmt.Errorf("the fuse-1 bomb at (12,4) did not explode")
			}
			if b, ok := g.BombAt(13, 2); !ok || b.Timer != 6 {
				return fmt.Errorf("A's other bomb: %+v, want timer 6", b)
			}
			if b, ok := g.BombAt(3, 18); !ok || b.Timer != 4 {
				return fmt.Errorf("B's bomb: %+v, want timer 4", b)
			}
			if g.Round() != 166 {
				return fmt.Errorf("round %d, want 166", g.Round())
			}
			return nil
		}},
		{"move_into_last_rounds_blast_and_into_a_wall", 1, func(g *Game) error {
			a, b := g.Player(0), g.Player(1)
			if a.X != 14 || a.Y != 4 {
				return fmt.Errorf("A at (%d,%d), want (14,4) (moved down)", a.X, a.Y)
			}
			if b.X != 3 || b.Y != 18 {
				return fmt.Errorf("B at (%d,%d), want (3,18) (left is a wall)", b.X, b.Y)
			}
			if g.At(12, 4).Exploding() {
				return fmt.Errorf("the explosion is still shown a round later")
			}
			return nil
		}},
		{"malformed_command_is_do_nothing", 2, func(g *Game) error {
			if a := g.Player(0); a.X != 14 || a.Y != 4 {
				return fmt.Errorf("A moved on a malformed command: (%d,%d)", a.X, a.Y)
			}
			if b := g.Player(1); b.X != 4 || b.Y != 18 {
				return fmt.Errorf("B at (%d,%d), want (4,18) (moved right off its bomb)", b.X, b.Y)
			}
			if g.At(3, 18).Entity != NoEntity || !g.At(3, 18).HasBomb() {
				return fmt.Errorf("B's bomb should stay behind on (3,18)")
			}
			return nil
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := tt.check(rounds[tt.round]); err != nil {
				t.Error(err)
			}
		})
	}
}
