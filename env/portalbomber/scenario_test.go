package portalbomber

import (
	"path/filepath"
	"testing"

	"github.com/botarena/botarena/internal/testutil"
)

// TestScenarioFiles replays testdata/*.json (spec §11 rows as scenario
// files; each "round" of a file is one env step, one move by the seat to
// move) through the shared runner and checks the last state emitted.
func TestScenarioFiles(t *testing.T) {
	tests := []struct {
		file  string
		check func(g *Game) string
	}{
		{"s1_suicide.json", func(g *Game) string {
			if p := g.Player(0); p.Alive || p.Coins != 6 || g.MoveNumber() != 10 || g.state != stateComplete || g.winner != 1 {
				return "want player 0 dead with 6 coins, moveNumber 10, winner 1"
			}
			return ""
		}},
		{"s2_opening.json", func(g *Game) string {
			if p := g.Player(0); !p.Alive || p.X != 1 || p.Y != 2 || p.Coins != 3 || p.BombCount != 1 || g.HasTrail(2, 1) {
				return "want player 0 safe at (1,2) with 3 coins, one bomb, trails gone after round 7"
			}
			return ""
		}},
		{"s3_portals.json", func(g *Game) string {
			if p := g.Player(0); p.X != 1 || p.Y != 2 || p.Orientation != Up {
				return "want player 0 at (1,2) facing up, through the portals"
			}
			return ""
		}},
		{"s9_tie.json", func(g *Game) string {
			if g.state != stateComplete || g.winner != -1 || g.Player(0).Alive || g.Player(1).Alive {
				return "want both dead, a tie"
			}
			return ""
		}},
		{"s12_invalid_and_out_of_turn.json", func(g *Game) string {
			if p := g.Player(1); p.X != 9 || p.Y != 8 || g.MoveNumber() != 2 {
				return "want player 1's out-of-turn ml refused and its mu carried out"
			}
			return ""
		}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			states := testutil.ScenarioFile(t, filepath.Join("testdata", tt.file))
			if len(states) == 0 {
				t.Fatal("no states")
			}
			last := states[len(states)-1]
			g := bare(t)
			if err := g.LoadNative(last); err != nil {
				t.Fatalf("last state does not load: %v", err)
			}
			if msg := tt.check(g); msg != "" {
				t.Errorf("%s; got\n%s", msg, last)
			}
		})
	}
}
