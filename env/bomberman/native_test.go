package bomberman

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
	"unicode"

	"github.com/botarena/botarena/internal/testutil"
)

const (
	sampleState = "testdata/sample-round165-state.json"
	sampleMap   = "testdata/sample-round165-map.txt"
)

// readFile returns a file's bytes or fails the test.
func readFile(t testing.TB, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// mustNew returns a game for cfg or fails the test.
func mustNew(t testing.TB, cfg *Config) *Game {
	t.Helper()
	return testutil.MustNew(t, New, cfg)
}

// native returns the state in format or fails the test.
func native(t testing.TB, g *Game, format string) []byte {
	t.Helper()
	out, err := g.AppendNative(nil, format, -1)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// loadSample returns a 2-player game loaded from the official sample.
func loadSample(t testing.TB) *Game {
	t.Helper()
	g := mustNew(t, &Config{Players: 2})
	if err := g.LoadNative(readFile(t, sampleState)); err != nil {
		t.Fatal(err)
	}
	return g
}

// fixture returns the engine tests' fixture (spec §9): a w×h map with no
// walls, A at (1,1) and B at (w,h), bag 1, radius 1, PlayerBounty 100.
func fixture(t testing.TB, w, h int) *Game {
	t.Helper()
	g := mustNew(t, &Config{Players: 2})
	g.width, g.height = w, h
	clear(g.cells[:])
	clear(g.bombs[:])
	g.players[0] = Player{Name: "Player 1", Key: 'A', BombBag: 1, BombRadius: 1}
	g.players[1] = Player{Name: "Player 2", Key: 'B', BombBag: 1, BombRadius: 1}
	g.placePlayer(0, 1, 1)
	g.placePlayer(1, w, h)
	g.usable = w * h
	g.bounty = 100
	g.setMaxRound()
	return g
}

// movePlayer moves seat's player to (x, y) directly.
func movePlayer(g *Game, seat, x, y int) {
	p := &g.players[seat]
	c := &g.cells[g.index(p.X, p.Y)]
	c.Entity = NoEntity
	g.placePlayer(seat, x, y)
}

func TestSampleRoundTrip(t *testing.T) {
	g := loadSample(t)
	if got, want := native(t, g, FormatStateJSON), readFile(t, sampleState); !bytes.Equal(got, want) {
		t.Errorf("state.json differs from the sample at byte %d", firstDiff(got, want))
	}
	if got, want := native(t, g, FormatMapTxt), readFile(t, sampleMap); !bytes.Equal(got, want) {
		t.Errorf("map.txt differs from the sample:\n%s\nwant:\n%s", got, want)
	}

	// What the loader derived.
	if g.Round() != 165 || g.MapSeed() != 203279916 || g.PlayerBounty() != 100 || !g.noBounty {
		t.Errorf("round %d, seed %d, bounty %d (noBounty %t); want 165, 203279916, 100 (true)",
			g.Round(), g.MapSeed(), g.PlayerBounty(), g.noBounty)
	}
	if g.Done() {
		t.Error("the sample game is Done")
	}
	a, b := g.Player(0), g.Player(1)
	if a.Name != "Player 1" || a.Points() != 346 || a.BombBag != 3 || a.BombRadius != 4 || a.X != 14 || a.Y != 3 || a.Touched != 1 {
		t.Errorf("player A = %+v", a)
	}
	if b.Name != "John" || b.Points() != 395 || b.BombBag != 4 || !g.At(3, 18).Touched(1) {
		t.Errorf("player B = %+v", b)
	}
	if bomb, ok := g.BombAt(3, 18); !ok || bomb.Owner != 1 || bomb.Timer != 5 || bomb.Radius != 2 {
		t.Errorf("bomb at (3,18) = %+v, %t", bomb, ok)
	}
	if got := g.bombsOnMap(0); got != 2 {
		t.Errorf("A has %d bombs on the map, want 2", got)
	}
	if g.maxRound != 21*21 {
		t.Errorf("maxRound %d, want %d", g.maxRound, 21*21)
	}
}

// firstDiff returns the first offset where a and b differ.
func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

func TestGeneratedRoundTrip(t *testing.T) {
	for _, players := range []int{2, 3, 4, 5, 8, 12} {
		for _, seed := range []uint64{0, 1, 7, 203279916} {
			cfg := &Config{Players: players}
			g := mustNew(t, cfg)
			g.Reset(seed)
			state := native(t, g, FormatStateJSON)
			mapTxt := native(t, g, FormatMapTxt)

			h := mustNew(t, cfg)
			if err := h.LoadNative(state); err != nil {
				t.Fatalf("players %d seed %d: %v", players, seed, err)
			}
			if got := native(t, h, FormatStateJSON); !bytes.Equal(got, state) {
				t.Errorf("players %d seed %d: state.json differs after a round trip at byte %d", players, seed, firstDiff(got, state))
			}
			if got := native(t, h, FormatMapTxt); !bytes.Equal(got, mapTxt) {
				t.Errorf("players %d seed %d: map.txt differs after a round trip:\n%s\nwant:\n%s", players, seed, got, mapTxt)
			}
			if h.noBounty || h.PlayerBounty() != g.PlayerBounty() || h.usable != g.usable || h.maxRound != g.maxRound {
				t.Errorf("players %d seed %d: bounty %d/%t usable %d maxRound %d; want %d/false %d %d", players, seed,
					h.PlayerBounty(), h.noBounty, h.usable, h.maxRound, g.PlayerBounty(), g.usable, g.maxRound)
			}
			for seat := range players {
				if h.Player(seat).Points() != g.Player(seat).Points() {
					t.Errorf("players %d seed %d: seat %d points %d, want %d", players, seed, seat, h.Player(seat).Points(), g.Player(seat).Points())
				}
			}
		}
	}
}

// TestGolden compares a generated game's three files with testdata/golden;
// go test -run TestGolden -update rewrites them.
func TestGolden(t *testing.T) {
	g := mustNew(t, &Config{Players: 4})
	g.Reset(1)
	// A few things the generated start lacks: a bomb, a dead player, an
	// exploding cell holding a power-up, a bot's PlayerInfo.
	addBomb(t, g, 0, g.players[0].X, g.players[0].Y, 1, 4)
	movePlayer(g, 0, g.players[0].X+1, g.players[0].Y)
	c := &g.cells[g.index(g.players[3].X, g.players[3].Y)]
	c.Entity = NoEntity
	g.players[3].Killed = true
	g.players[3].Counter = -g.bounty
	g.cells[g.index(11, 11)].reached = 1
	g.round = 7
	g.SetPlayerInfo(1, PlayerInfo{Author: "Jane", NickName: "John", Email: "j@example.com", BotType: "CSharp"})
	for _, f := range []struct{ format, file string }{
		{FormatStateJSON, "4p-seed1-round7.state.json"},
		{FormatMapTxt, "4p-seed1-round7.map.txt"},
		{FormatRoundInfo, "4p-seed1-round7.roundInfo.json"},
	} {
		testutil.Golden(t, "golden/"+f.file, native(t, g, f.format))
	}
}

func TestNativeFormats(t *testing.T) {
	g := mustNew(t, &Config{Players: 2})
	if got := strings.Join(g.NativeFormats(), ","); got != "state.json,map.txt,roundInfo.json" {
		t.Errorf("NativeFormats = %s", got)
	}
	var first []byte
	for seat := -1; seat < 2; seat++ {
		out, err := g.AppendNative([]byte("x"), FormatStateJSON, seat)
		if err != nil || out[0] != 'x' {
			t.Fatalf("seat %d: %v", seat, err)
		}
		if first == nil {
			first = out
		} else if !bytes.Equal(out, first) {
			t.Errorf("seat %d sees a different state.json", seat)
		}
	}
	for _, seat := range []int{-2, 2, 12} {
		if _, err := g.AppendNative(nil, FormatMapTxt, seat); err == nil || !strings.Contains(err.Error(), "seat") {
			t.Errorf("seat %d: err = %v, want a seat error", seat, err)
		}
	}
	_, err := g.AppendNative(nil, "map.json", 0)
	if err == nil || !strings.Contains(err.Error(), `"map.json"`) || !strings.Contains(err.Error(), `"roundInfo.json"`) {
		t.Errorf("unknown format: err = %v, want one naming the format and the valid ones", err)
	}
}

func TestAppendJSONString(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Player 1", `"Player 1"`},
		{`a"b\c`, `"a\"b\\c"`},
		{"\b\t\n\f\r", `"\b\t\n\f\r"`},
		{"\x00\x01\x1f\x0b", `"\u0000\u0001\u001f\u000b"`},
		{"<>&'/\x7f", `"<>&'/` + "\x7f" + `"`},
		{"é世界😀", `"é世界😀"`},
		{"\u0085\u2028\u2029", `"\u0085\u2028\u2029"`},
		{"a\xffb", "\"a\uFFFDb\""},
		{"", `""`},
	}
	for _, tt := range tests {
		if got := string(appendJSONString(nil, tt.in)); got != tt.want {
			t.Errorf("appendJSONString(%q) = %s, want %s", tt.in, got, tt.want)
		}
		// Whatever it writes is JSON for the same text (valid input).
		var back string
		if err := json.Unmarshal(appendJSONString(nil, tt.in), &back); err != nil {
			t.Errorf("%q: %v", tt.in, err)
		} else if back != strings.ToValidUTF8(tt.in, "\uFFFD") {
			t.Errorf("%q reads back as %q", tt.in, back)
		}
	}
}

func TestConformanceMapSymbols(t *testing.T) {
	// Spec §9 row 10, GameBlockTest.TestPowerUpMapSymbols.
	t.Run("TestPowerUpMapSymbols", func(t *testing.T) {
		g := fixture(t, 5, 5)
		sym := func(x, y int) byte { return g.mapSymbol(x, y) }
		check := func(what string, x, y int, want byte) {
			t.Helper()
			if got := sym(x, y); got != want {
				t.Errorf("%s: symbol %q, want %q", what, got, want)
			}
		}
		check("empty cell", 3, 3, ' ')
		for p, want := range map[PowerUp]byte{BombBagPowerUp: '&', BombRadiusPowerUp: '!', SuperPowerUp: '$'} {
			g.cells[g.index(3, 3)].PowerUp = p
			check("power-up "+p.String(), 3, 3, want)
		}
		c := &g.cells[g.index(3, 3)]
		c.Entity = DestructibleWall
		check("wall over a power-up", 3, 3, '+')
		c.Entity = IndestructibleWall
		check("pillar over a power-up", 3, 3, '#')
		c.Entity = NoEntity
		movePlayer(g, 0, 3, 3)
		check("player over a power-up", 3, 3, 'A')
		addBomb(t, g, 0, 3, 3, 1, 3)
		check("bomb with its owner on it", 3, 3, 'a')
		movePlayer(g, 0, 3, 2)
		check("bomb after its owner left", 3, 3, '3')
		movePlayer(g, 1, 3, 3)
		check("bomb under another player", 3, 3, '3')
		g.bombs[0].Timer = 10
		check("timer 10, owner elsewhere (the original crashes)", 3, 3, '9')
		movePlayer(g, 0, 4, 4)
		movePlayer(g, 1, 5, 5)
		g.players[0].X, g.players[0].Y = 3, 3 // a dead owner keeps its last location
		check("bomb at its owner's recorded location", 3, 3, 'a')
		c.reached = 1
		check("exploding over a bomb", 3, 3, '*')
		c.bomb = 0
		check("exploding over a power-up", 3, 3, '*')
		c.Entity = DestructibleWall
		check("exploding over a wall", 3, 3, '*')
		c.reached, c.Entity, c.PowerUp = 0, NoEntity, NoPowerUp
		check("cleared", 3, 3, ' ')
	})

	t.Run("map_txt_rows", func(t *testing.T) {
		g := fixture(t, 5, 5)
		g.cells[g.index(2, 1)].Entity = IndestructibleWall
		g.cells[g.index(3, 1)].Entity = DestructibleWall
		g.cells[g.index(4, 1)].PowerUp = SuperPowerUp
		addBomb(t, g, 1, 5, 5, 2, 4)
		addBomb(t, g, 1, 1, 3, 2, 2)
		g.cells[g.index(2, 3)].reached = 1
		want := "Map Width: 5, Map Height: 5, Current Round: 0, Seed: 0, PlayerBounty: 100\n" +
			"A#+$ \n" +
			"     \n" +
			"2*   \n" +
			"     \n" +
			"    b\n" +
			"---------------------------\nPlayer Name: Player 1\nKey: A\nPoints: 0\nStatus: Alive\nBombs: \nBombBag: 1\nBlastRadius: 1\n---------------------------\n" +
			"---------------------------\nPlayer Name: Player 2\nKey: B\nPoints: 0\nStatus: Alive\nBombs: {x:1,y:3,fuse:2,radius:2},{x:5,y:5,fuse:4,radius:2}\nBombBag: -1\nBlastRadius: 1\n---------------------------\n"
		g.mapSeed = 0
		if got := string(native(t, g, FormatMapTxt)); got != want {
			t.Errorf("map.txt:\n%s\nwant:\n%s", got, want)
		}
	})
}

func TestMapCRLF(t *testing.T) {
	lf := mustNew(t, &Config{Players: 4})
	crlf := mustNew(t, &Config{Players: 4, MapCRLF: true})
	lf.Reset(5)
	crlf.Reset(5)
	a, b := native(t, lf, FormatMapTxt), native(t, crlf, FormatMapTxt)
	if bytes.Contains(a, []byte("\r")) {
		t.Error("LF map.txt has a CR")
	}
	if !bytes.HasSuffix(b, []byte("---\r\n")) || bytes.Count(b, []byte("\r\n")) != bytes.Count(a, []byte("\n")) || bytes.Count(b, []byte("\n")) != bytes.Count(a, []byte("\n")) {
		t.Error("CRLF map.txt does not end every line with CRLF")
	}
	if !bytes.Equal(bytes.ReplaceAll(b, []byte("\r\n"), []byte("\n")), a) {
		t.Error("CRLF and LF map.txt differ beyond line endings")
	}
	if lines := bytes.Count(a, []byte("\n")); lines != 1+21+4*9 {
		t.Errorf("map.txt has %d lines, want %d", lines, 1+21+4*9)
	}
	// state.json is unaffected.
	if !bytes.Equal(native(t, lf, FormatStateJSON), native(t, crlf, FormatStateJSON)) {
		t.Error("MapCRLF changed state.json")
	}
}

func TestParseCommand(t *testing.T) {
	tests := []struct {
		name   string
		in     string
		action Action
		ok     bool
	}{
		{"empty", "", DoNothing, false},
		{"zero", "0", DoNothing, true},
		{"up", "1", MoveUp, true},
		{"left", "2", MoveLeft, true},
		{"right", "3", MoveRight, true},
		{"down", "4", MoveDown, true},
		{"bomb", "5", PlaceBomb, true},
		{"trigger", "6", TriggerBomb, true},
		{"reference_bot_do_nothing", "7", DoNothing, true},
		{"eight", "8", DoNothing, true},
		{"nine", "9", DoNothing, true},
		{"ten_is_up", "10", MoveUp, true},
		{"trailing_newline", "3\r\n", MoveRight, true},
		{"minus_one", "-1", DoNothing, false},
		{"leading_space", " 1", DoNothing, false},
		{"leading_newline", "\n1", DoNothing, false},
		{"letter", "a", DoNothing, false},
		{"utf8_bom", "\xef\xbb\xbf4", MoveDown, true},
		{"utf8_bom_only", "\xef\xbb\xbf", DoNothing, false},
		{"utf16le_bom", "\xff\xfe5\x00", PlaceBomb, true},
		{"utf16be_bom", "\xfe\xff\x006", TriggerBomb, true},
		{"utf32le_bom", "\xff\xfe\x00\x002\x00\x00\x00", MoveLeft, true},
		{"utf32be_bom", "\x00\x00\xfe\xff\x00\x00\x002", MoveLeft, true},
		{"utf16_no_bom", "1\x00", MoveUp, true},
		{"invalid_utf8", "\xff1", DoNothing, false},
		{"arabic_indic_three", "٣", MoveRight, true},
		{"fullwidth_four", "４", MoveDown, true},
		{"devanagari_six", "६", TriggerBomb, true},
		{"superscript_two", "²", MoveLeft, true},
		{"circled_five", "⑤", PlaceBomb, true},
		{"roman_six", "Ⅵ", TriggerBomb, true},
		{"vulgar_half", "½", DoNothing, true},
		{"roman_twelve", "Ⅻ", DoNothing, true},
		{"math_bold_three_is_a_surrogate", "𝟑", DoNothing, false},
		// Char.IsNumber is any of Nd, Nl, No; these numerals (No, Nl) were
		// read as nothing before issue 18.
		{"khmer_lek_attak_bei", "\u17f3", MoveRight, true},
		{"khmer_lek_attak_pram_muoy", "\u17f6", TriggerBomb, true},
		{"telugu_fraction_digit_three", "\u0c7b", MoveRight, true},
		{"new_tai_lue_tham_digit_one", "\u19da", MoveUp, true},
		{"fraction_numerator_one", "\u215f", MoveUp, true},
		{"roman_six_late_form", "\u2185", TriggerBomb, true},
		{"ideographic_annotation_four", "\u3195", MoveDown, true},
		{"cjk_one_is_a_letter", "一", DoNothing, false},
	}
	g := mustNew(t, &Config{Players: 2})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for seat := range 2 {
				a, ok := g.ParseCommand(seat, []byte(tt.in))
				if Action(a) != tt.action || ok != tt.ok {
					t.Errorf("ParseCommand(%d, %q) = %v, %t; want %v, %t", seat, tt.in, Action(a), ok, tt.action, tt.ok)
				}
			}
		})
	}
}

// TestParseCommandUnicodeNumerals checks every BMP numeral: the harness
// (TestHarness/TestHarnesses/Bot/BotRunner.cs, GetBotCommandFromFile)
// reads the first char of move.txt and returns Char.IsNumber(code) ?
// (int)Char.GetNumericValue(code) : 0, so each character of category Nd,
// Nl or No is the move its numeric value, truncated, names (1–6), or
// DoNothing. testdata/unicode_numerals.txt lists them from the Unicode
// Character Database.
func TestParseCommandUnicodeNumerals(t *testing.T) {
	data, err := os.ReadFile("testdata/unicode_numerals.txt")
	if err != nil {
		t.Fatal(err)
	}
	g := mustNew(t, &Config{Players: 2})
	n := 0
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		if strings.HasPrefix(line, "#") {
			continue
		}
		var code rune
		var cat string
		var value int
		if _, err := fmt.Sscanf(line, "%x %s %d", &code, &cat, &value); err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		want := DoNothing
		if value >= int(MoveUp) && value <= int(TriggerBomb) {
			want = Action(value)
		}
		if a, ok := g.ParseCommand(0, []byte(string(code)+"\r\n")); Action(a) != want || !ok {
			t.Errorf("U+%04X (%s, value %d): %v, %t; want %v, true", code, cat, value, Action(a), ok, want)
		}
		n++
	}
	if n != 735 {
		t.Errorf("%d numerals, want 735", n)
	}
}

func TestAppendCommand(t *testing.T) {
	g := mustNew(t, &Config{Players: 2})
	for a := range int32(NumActions) {
		out := g.AppendCommand([]byte("x"), 0, a)
		if string(out) != "x"+string(rune('0'+a)) {
			t.Errorf("AppendCommand(%d) = %q", a, out)
		}
		if back, ok := g.ParseCommand(0, out[1:]); back != a || !ok {
			t.Errorf("ParseCommand(AppendCommand(%d)) = %d, %t", a, back, ok)
		}
	}
	for _, a := range []int32{-1, NumActions, 99} {
		if out := g.AppendCommand(nil, 1, a); string(out) != "0" {
			t.Errorf("AppendCommand(%d) = %q, want \"0\"", a, out)
		}
	}
}

// TestNumericTables checks the assumptions numericValue makes about the
// Unicode tables.
func TestNumericTables(t *testing.T) {
	for _, rg := range unicode.Nd.R16 {
		if rg.Stride != 1 || (rg.Hi-rg.Lo+1)%10 != 0 {
			t.Errorf("Nd range %#x–%#x (stride %d) is not whole runs of 10", rg.Lo, rg.Hi, rg.Stride)
		}
	}
	for _, n := range numerals {
		for i := range n.values {
			r := n.lo + rune(i)
			if !unicode.IsNumber(r) || unicode.Is(unicode.Nd, r) {
				t.Errorf("%U (%c) in numerals is not a non-decimal numeral", r, r)
			}
		}
	}
}
