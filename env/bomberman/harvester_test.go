package bomberman

import "testing"

// harvesterAct resets a harvester for seat on g and returns its action.
func harvesterAct(g *Game, seat int) Action { return agentAct(NewHarvester(), g, seat) }

// TestHarvesterRules checks what sets the harvester apart from hunter (the
// rules they share are TestHunterRules, run on both).
func TestHarvesterRules(t *testing.T) {
	tests := []struct {
		name              string
		rows              []string
		touched           bool // seat 0 has visited every cell: no coverage left to take
		harvester, hunter Action
	}{
		// A bomb spot next to the wall at (2,2) is worth 10 (11 with its
		// untouched cell) two steps away; (8,4), in line with B, is worth
		// hunter's 25 five steps away and nothing to the harvester.
		{"does_not_stalk_an_opponent", []string{
			"#########",
			"#+..A...#",
			"#.#.#.#.#",
			"#.......#",
			"#######B#",
		}, false, MoveLeft, MoveRight},
		// With no wall, power-up or unvisited cell left, both close in
		// on the opponent.
		{"closes_in_when_nothing_is_left", []string{
			"#########",
			"#...A...#",
			"#.#.#.#.#",
			"#.......#",
			"#######B#",
		}, true, MoveRight, MoveRight},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := board(t, tt.rows...)
			if tt.touched {
				for i := range g.width * g.height {
					g.cells[i].touched |= 1
				}
			}
			g.stateChanged()
			if a := harvesterAct(g, 0); a != tt.harvester {
				t.Errorf("harvester: action %v, want %v", a, tt.harvester)
			}
			if a := hunterAct(g, 0); a != tt.hunter {
				t.Errorf("hunter: action %v, want %v (the scene is not the one meant)", a, tt.hunter)
			}
		})
	}
}

func TestHarvesterBeatsHunterOnPoints(t *testing.T) {
	if testing.Short() {
		t.Skip("plays 20 games")
	}
	wins, points, hunterPoints := 0, 0, 0
	const games = 20
	for i := range games {
		hs := i % 2
		g := playBots(t, NewHarvester(), NewHunter(), hs, uint64(2000+i))
		if w, draw := g.Outcome(); !draw && w == hs {
			wins++
		}
		points += g.Player(hs).Points()
		hunterPoints += g.Player(1 - hs).Points()
	}
	if wins < games*11/20 || points <= hunterPoints {
		t.Errorf("harvester won %d of %d games against hunter with %d points to its %d, want ≥ 55%% and more points", wins, games, points, hunterPoints)
	}
}

func TestHarvesterIsDeterministic(t *testing.T) {
	for seed := range uint64(3) {
		a := playBots(t, NewHarvester(), NewHunter(), 0, seed)
		b := playBots(t, NewHarvester(), NewHunter(), 0, seed)
		if a.Round() != b.Round() || a.Player(0) != b.Player(0) || a.Player(1) != b.Player(1) {
			t.Errorf("seed %d: two games ended %d %+v %+v and %d %+v %+v", seed, a.Round(), a.Player(0), a.Player(1), b.Round(), b.Player(0), b.Player(1))
		}
	}
}
