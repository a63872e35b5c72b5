package portalbomber

import (
	"strings"
	"testing"
)

// TimeOut gives the UPE server's outcome: aborted before the third move,
// else the player to move loses with both alive.
func TestTimeOut(t *testing.T) {
	g, _ := New(DefaultConfig())
	acts := make([]int32, Seats)
	rew := make([]float32, Seats)
	term, trunc := make([]bool, Seats), make([]bool, Seats)
	g.Reset(1)
	g.Step(acts, rew, term, trunc)
	if w := g.TimeOut(); w != -1 || !g.Done() {
		t.Fatalf("early timeout: winner %d", w)
	}
	if js, _ := g.AppendNative(nil, FormatStateJSON, 1); !strings.Contains(string(js), `"state":"aborted"`) {
		t.Fatalf("aborted state: %s", js)
	}
	g.Step(acts, rew, term, trunc)
	if !term[0] || !term[1] || rew[0] != 0 {
		t.Fatalf("flags after abort: %v %v", term, rew)
	}
	g.Reset(1)
	for range 3 {
		g.Step(acts, rew, term, trunc)
	}
	toMove := g.ToMove()
	if w := g.TimeOut(); w != 1-toMove || !g.Player(0).Alive || !g.Player(1).Alive {
		t.Fatalf("timeout after 3 moves: winner %d, to move %d", w, toMove)
	}
	if w, draw := g.Outcome(); w != 1-toMove || draw {
		t.Fatalf("outcome %d %v", w, draw)
	}
	if len(g.GameID()) != 24 || len(g.PlayerID(0)) != 24 || g.PlayerID(0) == g.PlayerID(1) {
		t.Fatalf("ids %q %q %q", g.GameID(), g.PlayerID(0), g.PlayerID(1))
	}
	g.Reset(1)
	g.Abort()
	if w, draw := g.Outcome(); w != -1 || !draw || !g.Done() {
		t.Fatal("abort")
	}
}
