package battlebots

import (
	"bytes"
	"strings"
	"testing"
)

// specExample is the render of spec §5: bot1 (1,1) sends "B SE" and bot2
// (8,8) "M W" in round 0; bot1 sends "L E" in round 1; bot1's view at
// round 2. The mine at (2,1) is invisible.
const specExample = `..........
.Y........
..........
..........
..........
..........
..........
.......B..
....M...X.
..........
Y hp=10
X hp=10
B x=7 y=7 dir=SE
M x=4 y=8 dir=W
`

func playCommands(t testing.TB, g *Game, rounds [][2]string) {
	t.Helper()
	acts := make([]int32, 2)
	rewards := make([]float32, 2)
	term, trunc := make([]bool, 2), make([]bool, 2)
	for _, r := range rounds {
		acts[0], _ = g.ParseCommand(0, []byte(r[0]))
		acts[1], _ = g.ParseCommand(1, []byte(r[1]))
		g.Step(acts, rewards, term, trunc)
	}
}

func TestArenaSpecExample(t *testing.T) {
	g, _ := New(DefaultConfig())
	playCommands(t, g, [][2]string{{"B SE", "M W"}, {"L E", "NO"}})
	got, err := g.AppendNative(nil, FormatArena, 0)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != specExample {
		t.Errorf("bot1's view:\n%s\nwant:\n%s", got, specExample)
	}
	// bot2 sees the same grid with Y and X swapped and its own HP first.
	want2 := strings.NewReplacer(".Y.", ".X.", "X.\n", "Y.\n").Replace(specExample)
	if got, _ := g.AppendNative(nil, FormatArena, 1); string(got) != want2 {
		t.Errorf("bot2's view:\n%s\nwant:\n%s", got, want2)
	}
	ref, _ := g.AppendNative(nil, FormatArena, -1)
	wantRef := strings.Replace(specExample, ".Y........", ".YL.......", 1) + "L x=2 y=1 by=Y\nP paralysed=0\nR round=2\n"
	if string(ref) != wantRef {
		t.Errorf("referee view:\n%s\nwant:\n%s", ref, wantRef)
	}
	if _, err := g.AppendNative(nil, "state.json", 0); err == nil {
		t.Error("unknown format accepted")
	}
	if _, err := g.AppendNative(nil, FormatArena, 2); err == nil {
		t.Error("seat 2 accepted")
	}
}

func TestArenaBotOnProjectile(t *testing.T) {
	// A bot standing on a bullet's cell hides it on the grid; the stats
	// line still lists it.
	g := newBout(t, pos{1, 3}, pos{5, 4})
	playCommands(t, g, [][2]string{{"B E", "NO"}, {"NO", "NW"}, {"NO", "W"}})
	out, _ := g.AppendNative(nil, FormatArena, 1)
	if !bytes.Contains(out, []byte("\nB x=")) && g.NumBullets() > 0 {
		t.Errorf("bullet line missing:\n%s", out)
	}
	g = newBout(t, pos{3, 3}, far)
	g.bullets[0] = Projectile{X: 3, Y: 3, Dir: E}
	g.nBullets = 1
	out, _ = g.AppendNative(nil, FormatArena, 0)
	if !strings.HasPrefix(string(out[3*11:]), "...Y......\n") || !bytes.Contains(out, []byte("B x=3 y=3 dir=E\n")) {
		t.Errorf("bot over a bullet:\n%s", out)
	}
}

func TestParseCommand(t *testing.T) {
	g, _ := New(DefaultConfig())
	tests := []struct {
		name string
		text string
		want Action
		ok   bool
	}{
		{"move", "NE", Move(NE), true},
		{"move_trimmed", " \t SW\r\n", Move(SW), true},
		{"move_unicode_space_trimmed", "\u00a0W\u2003", Move(W), true},
		{"emp", "P\n", EMP, true},
		{"nothing", "NO", Nothing, true},
		{"bullet", "B E", Bullet(E), true},
		{"bullet_two_spaces", "B  E", Bullet(E), true},
		{"bullet_tab", "B\tNW", Bullet(NW), true},
		{"missile", "M SE", Missile(SE), true},
		{"landmine", "L N", Landmine(N), true},
		{"lower_case", "b e", Nothing, false},
		{"lower_case_move", "n", Nothing, false},
		{"weapon_alone", "B", Nothing, false},
		{"landmine_alone", "L", Nothing, false},
		{"bad_direction", "M X", Nothing, false},
		{"three_fields", "B E E", Nothing, false},
		{"unknown_weapon", "X E", Nothing, false},
		{"long_weapon", "BB E", Nothing, false},
		{"empty", "", Nothing, false},
		{"emp_with_direction", "P E", Nothing, false},
		{"move_with_trailing_text", "N please", Nothing, false},
		{"invalid_utf8", "\xff", Nothing, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, ok := g.ParseCommand(0, []byte(tt.text))
			if Action(a) != tt.want || ok != tt.ok {
				t.Errorf("ParseCommand(%q) = %v, %v; want %v, %v", tt.text, Action(a), ok, tt.want, tt.ok)
			}
		})
	}
	for a := range int32(NumActions) {
		cmd := g.AppendCommand(nil, 0, a)
		if back, ok := g.ParseCommand(0, cmd); back != a || !ok {
			t.Errorf("action %d: %q parses as %d, %v", a, cmd, back, ok)
		}
	}
	if cmd := g.AppendCommand(nil, 0, 99); string(cmd) != "NO" {
		t.Errorf("out-of-range action writes %q", cmd)
	}
}

func TestLoadNativeRoundTrip(t *testing.T) {
	g := newBout(t, pos{3, 3}, pos{5, 3})
	playCommands(t, g, [][2]string{{"L E", "L W"}, {"M S", "P"}, {"B SE", "L S"}})
	ref, _ := g.AppendNative(nil, FormatArena, -1)
	h, _ := New(DefaultConfig())
	if err := h.LoadNative(ref); err != nil {
		t.Fatalf("%v\n%s", err, ref)
	}
	back, _ := h.AppendNative(nil, FormatArena, -1)
	if !bytes.Equal(ref, back) {
		t.Errorf("round trip:\n%s\nwant:\n%s", back, ref)
	}
	if h.bots != g.bots || h.mines != g.mines || h.nMines != g.nMines || h.nDead != g.nDead ||
		h.paralysed != g.paralysed || h.round != g.round || h.nBullets != g.nBullets || h.nMissiles != g.nMissiles {
		t.Errorf("loaded state differs")
	}
	// Both continue identically.
	playCommands(t, g, [][2]string{{"E", "W"}, {"NO", "NO"}})
	playCommands(t, h, [][2]string{{"E", "W"}, {"NO", "NO"}})
	a, _ := g.AppendNative(nil, FormatArena, -1)
	b, _ := h.AppendNative(nil, FormatArena, -1)
	if !bytes.Equal(a, b) {
		t.Errorf("after loading:\n%s\nwant:\n%s", b, a)
	}
}

func TestLoadNativeBotView(t *testing.T) {
	g, _ := New(DefaultConfig())
	if err := g.LoadNative([]byte(specExample + "L x=2 y=1")); err != nil {
		t.Fatal(err)
	}
	if b := g.Bot(0); b.X != 1 || b.Y != 1 || b.HP != 10 {
		t.Errorf("bot1 %+v", b)
	}
	if b := g.Bot(1); b.X != 8 || b.Y != 8 {
		t.Errorf("bot2 %+v", b)
	}
	if g.NumBullets() != 1 || g.NumMissiles() != 1 || len(g.Mines(nil)) != 1 || g.Round() != 0 {
		t.Errorf("loaded %d bullets, %d missiles, mines %v, round %d", g.NumBullets(), g.NumMissiles(), g.Mines(nil), g.Round())
	}
	out, _ := g.AppendNative(nil, FormatArena, 0)
	if string(out) != specExample {
		t.Errorf("bot1's view after loading:\n%s", out)
	}
}

func TestLoadNativeErrors(t *testing.T) {
	grid := func(rows ...string) string { return strings.Join(rows, "\n") + "\n" }
	empty := ".........."
	base := grid(empty, ".Y........", empty, empty, empty, empty, empty, empty, "........X.", empty)
	tests := []struct {
		name, text, want string
	}{
		{"too_short", "..........\n", "lines"},
		{"short_row", strings.Replace(base, ".Y........", ".Y.......", 1) + "Y hp=1\nX hp=1\n", "line 2"},
		{"bad_char", strings.Replace(base, ".Y........", ".Y...Q....", 1) + "Y hp=1\nX hp=1\n", "grid character"},
		{"two_y", strings.Replace(base, "........X.", "Y.......X.", 1) + "Y hp=1\nX hp=1\n", "second Y"},
		{"no_x", strings.Replace(base, "........X.", "..........", 1) + "Y hp=1\nX hp=1\n", "one Y"},
		{"bot_outside", strings.Replace(base, ".Y........", "Y.........", 1) + "Y hp=1\nX hp=1\n", "outside"},
		{"missing_hp", base + "Y hp=1\n", "lines"},
		{"hp_order", base + "X hp=1\nY hp=1\n", "line 11"},
		{"hp_not_int", base + "Y hp=a\nX hp=1\n", "hp=a"},
		{"bullet_fields", base + "Y hp=1\nX hp=1\nB x=1 y=2\n", "line 13"},
		{"bullet_dir", base + "Y hp=1\nX hp=1\nB x=1 y=2 dir=Q\n", "dir="},
		{"bullet_outside", base + "Y hp=1\nX hp=1\nB x=0 y=2 dir=N\n", "x=0"},
		{"mine_twice", base + "Y hp=1\nX hp=1\nL x=2 y=2\nL x=2 y=2 by=X\n", "second landmine"},
		{"mine_field", base + "Y hp=1\nX hp=1\nL x=2 y=2 by=Z\n", "unknown landmine field"},
		{"paralysed_range", base + "Y hp=1\nX hp=1\nP paralysed=3\n", "paralysed=3"},
		{"round_twice", base + "Y hp=1\nX hp=1\nR round=1\nR round=2\n", "one \"R"},
		{"round_range", base + "Y hp=1\nX hp=1\nR round=1001\n", "round=1001"},
		{"unknown_line", base + "Y hp=1\nX hp=1\nQ 1\n", "unknown line"},
		{"blank_line", base + "Y hp=1\nX hp=1\n\nB x=1 y=1 dir=N\n", "empty line"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := newBout(t, pos{4, 4}, pos{6, 6})
			before, _ := g.AppendNative(nil, FormatArena, -1)
			err := g.LoadNative([]byte(tt.text))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v, want one containing %q", err, tt.want)
			}
			if after, _ := g.AppendNative(nil, FormatArena, -1); !bytes.Equal(after, before) {
				t.Error("a failed load changed the game")
			}
		})
	}
	t.Run("finished_bout", func(t *testing.T) {
		g, _ := New(DefaultConfig())
		if err := g.LoadNative([]byte(base + "Y hp=0\nX hp=3\n")); err != nil {
			t.Fatal(err)
		}
		if !g.Done() {
			t.Error("a bot at 0 HP should load a finished bout")
		}
		if w, draw := g.Outcome(); w != 1 || draw {
			t.Errorf("outcome %d %v", w, draw)
		}
	})
	t.Run("ten_by_ten_arena", func(t *testing.T) {
		g, _ := New(&Config{Arena: Arena10x10})
		text := strings.Replace(base, ".Y........", "Y.........", 1) + "Y hp=1\r\nX hp=1\r\nB x=0 y=0 dir=N\r\n"
		if err := g.LoadNative([]byte(text)); err != nil {
			t.Fatal(err)
		}
	})
}
