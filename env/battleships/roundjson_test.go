package battleships

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/botarena/botarena/internal/testutil"
)

// rjFleet is a legal small-map fleet: every ship at x = k, y = 0, North.
var rjFleet = [NumShips]Ship{{X: 0, Dir: North}, {X: 1, Dir: North}, {X: 2, Dir: North}, {X: 3, Dir: North}, {X: 4, Dir: North}}

type rjGame struct {
	t  *testing.T
	g  *Game
	r  []float32
	te []bool
	tr []bool
}

func newRJGame(t *testing.T) *rjGame {
	g, err := New(&Config{Size: SizeSmall, Placement: PlacementLearn, Names: []string{"Alice", "Bob"}})
	if err != nil {
		t.Fatal(err)
	}
	return &rjGame{t: t, g: g, r: make([]float32, 2), te: make([]bool, 2), tr: make([]bool, 2)}
}

func (h *rjGame) step(a, b int32) { h.g.Step([]int32{a, b}, h.r, h.te, h.tr) }

// place plays a learn-mode placement round in which both seats place
// rjFleet.
func (h *rjGame) place() {
	for k := range NumShips {
		a := PlaceAction(h.g.n, int(rjFleet[k].X), int(rjFleet[k].Y), rjFleet[k].Dir)
		h.step(a, a)
	}
}

func (h *rjGame) native(format string) string {
	b, err := h.g.AppendNative(nil, format, -1)
	if err != nil {
		h.t.Fatal(err)
	}
	if !json.Valid(b) {
		h.t.Fatalf("%s is not valid JSON: %s", format, b)
	}
	return string(b)
}

// moves returns roundCommand.json's two moves as raw JSON objects.
func (h *rjGame) moves() [2]string {
	s := h.native(FormatRoundCommand)
	i := strings.Index(s, `,"Player2Move":`)
	return [2]string{s[len(`{"Player1Move":`):i], s[i+len(`,"Player2Move":`) : len(s)-1]}
}

const rjPlace = `"Submarine 0 0 North,Destroyer 1 0 North,Battleship 2 0 North,Carrier 3 0 North,Cruiser 4 0 North"`

func TestRoundCommandJSON(t *testing.T) {
	h := newRJGame(t)
	n := h.g.n
	if got, want := h.native(FormatRoundCommand), `{"Player1Move":{"SuccessfulMove":false,"CommandIssued":null,"CenterPoint":"0, 0","ShieldRadius":0,"PlaceShipString":null,"Energy":2,"RemainingShieldTurns":0},"Player2Move":{"SuccessfulMove":false,"CommandIssued":null,"CenterPoint":"0, 0","ShieldRadius":0,"PlaceShipString":null,"Energy":2,"RemainingShieldTurns":0}}`; got != want {
		t.Errorf("round 0:\n got %s\nwant %s", got, want)
	}

	// Round 0: A does nothing, which fails phase 1 and stops processing:
	// B's command is never examined, so B keeps no record.
	h.step(0, CommandAction(n, CodeSingle, 1, 1))
	if h.g.Round() != 1 || h.g.Phase() != 1 {
		t.Fatalf("round %d phase %d", h.g.Round(), h.g.Phase())
	}
	m := h.moves()
	if want := `{"SuccessfulMove":false,"CommandIssued":"DoNothing","CenterPoint":"0, 0","ShieldRadius":0,"PlaceShipString":null,"Energy":2,"RemainingShieldTurns":0}`; m[0] != want {
		t.Errorf("A after a failed DoNothing:\n got %s\nwant %s", m[0], want)
	}
	if !strings.Contains(m[1], `"SuccessfulMove":false,"CommandIssued":null`) {
		t.Errorf("B's unprocessed command recorded: %s", m[1])
	}

	// Round 1: both place.
	h.place()
	if h.g.Phase() != 2 || h.g.Round() != 2 {
		t.Fatalf("round %d phase %d", h.g.Round(), h.g.Phase())
	}
	m = h.moves()
	for s := range Seats {
		if want := `{"SuccessfulMove":true,"CommandIssued":"PlaceShip","CenterPoint":"0, 0","ShieldRadius":0,"PlaceShipString":` + rjPlace + `,"Energy":2,"RemainingShieldTurns":0}`; m[s] != want {
			t.Errorf("seat %d after placing:\n got %s\nwant %s", s, m[s], want)
		}
	}

	// Round 2: A fires a single shot; B does nothing (a successful move in
	// phase 2). The energy is the players' now: after the round's grant.
	h.step(CommandAction(n, CodeSingle, 3, 4), 0)
	m = h.moves()
	if want := `{"SuccessfulMove":true,"CommandIssued":"FireSingleShot","CenterPoint":"3, 4","ShieldRadius":0,"PlaceShipString":` + rjPlace + `,"Energy":3,"RemainingShieldTurns":0}`; m[0] != want {
		t.Errorf("A after a single shot:\n got %s\nwant %s", m[0], want)
	}
	if want := `{"SuccessfulMove":true,"CommandIssued":"DoNothing","CenterPoint":"0, 0","ShieldRadius":0,"PlaceShipString":` + rjPlace + `,"Energy":4,"RemainingShieldTurns":0}`; m[1] != want {
		t.Errorf("B after DoNothing:\n got %s\nwant %s", m[1], want)
	}

	// Round 3: A does nothing (its centre stays); B fires a corner shot it
	// cannot pay for: a failed move, still recorded with its centre.
	h.step(0, CommandAction(n, CodeCorner, 5, 6))
	m = h.moves()
	if !strings.HasPrefix(m[0], `{"SuccessfulMove":true,"CommandIssued":"DoNothing","CenterPoint":"3, 4",`) {
		t.Errorf("A's centre not kept across DoNothing: %s", m[0])
	}
	if !strings.HasPrefix(m[1], `{"SuccessfulMove":false,"CommandIssued":"FireCornerShot","CenterPoint":"5, 6",`) {
		t.Errorf("B's failed corner shot: %s", m[1])
	}
}

// rjShieldGame plays the golden game: a failed placement round, a
// placement, shots, a failed corner shot and A's shield at round 8.
func rjShieldGame(t *testing.T) *rjGame {
	h := newRJGame(t)
	n := h.g.n
	// Round 0: A places; B's command is not a placement and fails the round.
	for k := range NumShips {
		h.step(PlaceAction(n, int(rjFleet[k].X), 0, North), CommandAction(n, CodeSingle, 1, 1))
	}
	h.place()
	for r := 2; r < 8; r++ {
		h.step(CommandAction(n, CodeSingle, r-2, 0), CommandAction(n, CodeDoubleVertical, 6, r-2))
	}
	h.step(CommandAction(n, CodeShield, 2, 2), CommandAction(n, CodeCross, 5, 5))
	if h.g.Round() != 9 || !h.g.players[0].Shield.Active || h.g.Phase() != 2 {
		t.Fatalf("round %d, shield %+v", h.g.Round(), h.g.players[0].Shield)
	}
	return h
}

func TestRoundJSONGolden(t *testing.T) {
	h := rjShieldGame(t)
	for _, f := range []string{FormatRoundInfo, FormatRoundCommand} {
		testutil.Golden(t, "golden_"+f, []byte(h.native(f)))
	}
}

func TestRoundInfoJSON(t *testing.T) {
	h := newRJGame(t)
	const alice = `{"Author":"Alice","NickName":"Alice","Email":"Alice","BotType":"Unkown"}`
	const bob = `{"Author":"Bob","NickName":"Bob","Email":"Bob","BotType":"Unkown"}`
	if got, want := h.native(FormatRoundInfo), `{"MapSize":7,"Round":0,"Winner":`+alice+`,"LeaderBoard":[`+alice+`,`+bob+`],"Players":[`+alice+`,`+bob+`]}`; got != want {
		t.Errorf("round 0:\n got %s\nwant %s", got, want)
	}
	// B ahead on points leads the leaderboard; Players keeps seat order.
	h.g.players[1].Points = 10
	if got, want := h.native(FormatRoundInfo), `{"MapSize":7,"Round":0,"Winner":`+bob+`,"LeaderBoard":[`+bob+`,`+alice+`],"Players":[`+alice+`,`+bob+`]}`; got != want {
		t.Errorf("B ahead:\n got %s\nwant %s", got, want)
	}
	for _, f := range []string{FormatRoundInfo, FormatRoundCommand} {
		if _, err := h.g.AppendNative(nil, f, 0); err == nil {
			t.Errorf("%s for seat 0 accepted", f)
		}
	}
}

// TestRoundJSONKeyOrder checks the top-level and move key order against
// the original's classes (RoundInfo, RoundCommands, Player1Move).
func TestRoundJSONKeyOrder(t *testing.T) {
	h := rjShieldGame(t)
	info := h.native(FormatRoundInfo)
	last := -1
	for _, k := range []string{`{"MapSize":`, `,"Round":`, `,"Winner":{"Author":`, `,"LeaderBoard":[{"Author":`, `],"Players":[{"Author":`} {
		j := strings.Index(info, k)
		if j <= last {
			t.Errorf("roundInfo key %s missing or out of order: %s", k, info)
		}
		last = j
	}
	for _, k := range []string{`"Author":`, `,"NickName":`, `,"Email":`, `,"BotType":`} {
		if strings.Count(info, k) != 5 {
			t.Errorf("roundInfo: %s not in each of the 5 PlayerInfo objects: %s", k, info)
		}
	}
	m := h.moves()
	order := []string{"SuccessfulMove", "CommandIssued", "CenterPoint", "ShieldRadius", "PlaceShipString", "Energy", "RemainingShieldTurns"}
	for s := range Seats {
		var got []string
		d := json.NewDecoder(strings.NewReader(m[s]))
		d.Token() // {
		for d.More() {
			k, _ := d.Token()
			got = append(got, k.(string))
			var v json.RawMessage
			if err := d.Decode(&v); err != nil {
				t.Fatal(err)
			}
		}
		if strings.Join(got, ",") != strings.Join(order, ",") {
			t.Errorf("seat %d keys %v, want %v", s, got, order)
		}
	}
}

// TestRoundCommandFailedPlacement: in learn mode an illegal ship ends the
// seat's placement; the record shows the ships tried, the illegal one last.
func TestRoundCommandFailedPlacement(t *testing.T) {
	h := newRJGame(t)
	n := h.g.n
	h.step(PlaceAction(n, 0, 0, North), PlaceAction(n, 0, 0, North))
	h.step(PlaceAction(n, 0, 1, North), PlaceAction(n, 0, 1, North)) // overlaps the submarine
	m := h.moves()
	if want := `{"SuccessfulMove":false,"CommandIssued":"PlaceShip","CenterPoint":"0, 0","ShieldRadius":0,"PlaceShipString":"Submarine 0 0 North,Destroyer 0 1 North","Energy":2,"RemainingShieldTurns":0}`; m[0] != want {
		t.Errorf("A:\n got %s\nwant %s", m[0], want)
	}
	if !strings.HasPrefix(m[1], `{"SuccessfulMove":false,"CommandIssued":null,`) {
		t.Errorf("B (never examined): %s", m[1])
	}
}
