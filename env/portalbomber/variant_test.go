package portalbomber

import (
	"strings"
	"testing"

	"github.com/botarena/botarena/env"
)

func TestVariant(t *testing.T) {
	e, err := env.Make("portalbomber/variant", nil)
	if err != nil {
		t.Fatal(err)
	}
	g := e.(*Game)
	if g.Size() != 17 || g.Player(1).X != 15 || BlockValue(17, 8, 8) != 10 || BlockValue(17, 1, 1) != 1 {
		t.Fatalf("size %d, player 1 at %d, values %d %d", g.Size(), g.Player(1).X, BlockValue(17, 8, 8), BlockValue(17, 1, 1))
	}
	for _, c := range []struct {
		cmd  string
		want Action
	}{{"buy 00", BuyRange}, {"buy 01", BuyCount}, {"buy 02", BuyPierce}, {"buy 03", BuyBlock}, {"u", MoveUp}, {"mr", MoveRight}, {"buy 05", InvalidMove}} {
		if a, _ := g.ParseCommand(0, []byte(c.cmd)); Action(a) != c.want {
			t.Errorf("variant ParseCommand(%q) = %v, want %v", c.cmd, Action(a), c.want)
		}
	}
	d, _ := New(DefaultConfig())
	if a, ok := d.ParseCommand(0, []byte("buy 00")); Action(a) != InvalidMove || ok {
		t.Errorf("the original reads %q as %v %v, want an invalid move", "buy 00", Action(a), ok)
	}
	t.Run("both_move_in_one_step", func(t *testing.T) {
		g.Reset(1)
		r := make([]float32, 2)
		te, tr := make([]bool, 2), make([]bool, 2)
		g.Step([]int32{int32(MoveRight), int32(MoveLeft)}, r, te, tr)
		if g.Player(0).X != 2 || g.Player(1).X != 14 || g.MoveNumber() != 2 || g.Rounds() != 1 || g.Steps() != 1 {
			t.Errorf("players %+v %+v, moveNumber %d", g.Player(0), g.Player(1), g.MoveNumber())
		}
	})
	t.Run("same_target_both_bump", func(t *testing.T) {
		h := bare(t)
		cfg := h.Config()
		cfg.Simultaneous = true
		h.setConfig(&cfg)
		h.placeAt(0, 3, 3)
		h.placeAt(1, 5, 3)
		r := make([]float32, 2)
		te, tr := make([]bool, 2), make([]bool, 2)
		h.Step([]int32{int32(MoveRight), int32(MoveLeft)}, r, te, tr)
		if h.Player(0).X != 3 || h.Player(1).X != 5 || h.Player(0).Orientation != Right || h.Player(1).Orientation != Left {
			t.Errorf("players %+v %+v", h.Player(0), h.Player(1))
		}
		// Swapping cells: both stay.
		h.placeAt(1, 4, 3)
		h.Step([]int32{int32(MoveRight), int32(MoveLeft)}, r, te, tr)
		if h.Player(0).X != 3 || h.Player(1).X != 4 {
			t.Errorf("swap: players %+v %+v", h.Player(0), h.Player(1))
		}
		// Following: player 1 moves away, player 0 moves into its cell.
		h.Step([]int32{int32(MoveRight), int32(MoveRight)}, r, te, tr)
		if h.Player(0).X != 4 || h.Player(1).X != 5 {
			t.Errorf("follow: players %+v %+v", h.Player(0), h.Player(1))
		}
	})
	mask := make([]uint8, NumActions)
	g.WriteMask(1, mask)
	if mask[MoveLeft] != 1 {
		t.Error("with simultaneous moves both seats may move")
	}
	if !strings.Contains(Rules(VariantConfig()), "simultaneous") {
		t.Error("rules do not mention simultaneous moves")
	}
}

func TestLoadErrors(t *testing.T) {
	g := bare(t)
	good, _ := g.AppendNative(nil, FormatStateJSON, 0)
	for _, c := range []struct{ old, new, want string }{
		{`"boardSize":11`, `"boardSize":13`, "boardSize: want 11"},
		{`"x":1,"y":1`, `"x":0,"y":1`, "player: at (0,1), on a block"},
		{`"moveIterator":0`, `"moveIterator":1`, "moveIterator: want moveNumber mod 2 = 0"},
		{`"bombMap":{}`, `"bombMap":{"5,5":{"owner":0,"tick":9}}`, `bombMap["5,5"].tick: want 1–5, got 9`},
		{`"trailMap":{}`, `"trailMap":{"5,5":{"undefined":{"tick":2,"type":"h"}}}`, `trailMap["5,5"]["undefined"]: owner "undefined"`},
		{`"portalMap":{}`, `"portalMap":{"3,1":{"0":{"owner":0,"portalColor":"orange"}}}`, `does not match player 0's orangePortal`},
		{`"coins":0`, `"coins":0,"extra":1`, `unknown field "extra"`},
	} {
		bad := strings.Replace(string(good), c.old, c.new, 1)
		err := g.LoadNative([]byte(bad))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s → %v, want an error containing %q", c.new, err, c.want)
		}
	}
	after, _ := g.AppendNative(nil, FormatStateJSON, 0)
	if string(after) != string(good) {
		t.Error("failed loads changed the game")
	}
}
