package bomberman_test

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/botarena/botarena/agents"
	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/env/bomberman"
	"github.com/botarena/botarena/internal/testutil"
)

// TestGoldenTrajectory plays a fixed-seed 4-player game, two reference bots
// against two random ones, and compares map.txt every 10 rounds and the
// result with a golden file. Run go test -run TestGoldenTrajectory -update to
// rewrite it after an intended change to the rules or the agents.
func TestGoldenTrajectory(t *testing.T) {
	g, err := bomberman.New(&bomberman.Config{Players: 4})
	if err != nil {
		t.Fatal(err)
	}
	g.Reset(7)
	names := []string{"reference", "random", "reference", "random"}
	players := make([]env.Agent, len(names))
	for seat, name := range names {
		if players[seat], err = agents.New("bomberman", name, g.Spec()); err != nil {
			t.Fatal(err)
		}
		players[seat].Reset(g, seat, uint64(100+seat))
	}
	acts := make([]int32, 4)
	rewards := make([]float32, 4)
	term, trunc := make([]bool, 4), make([]bool, 4)
	var out bytes.Buffer
	for !g.Done() {
		if g.Round()%10 == 0 {
			b, err := g.AppendNative(nil, bomberman.FormatMapTxt, 0)
			if err != nil {
				t.Fatal(err)
			}
			out.Write(b)
		}
		for seat, a := range players {
			acts[seat] = a.Act(g, seat)
		}
		g.Step(acts, rewards, term, trunc)
	}
	res := g.Result()
	fmt.Fprintf(&out, "result: rounds %d winner %d draw %v\n", res.Rounds, res.Winner, res.Draw)
	for _, s := range res.Standings {
		fmt.Fprintf(&out, "  %d. seat %d %s score %g alive %v\n", s.Rank, s.Seat, s.Name, s.Score, s.Alive)
	}
	testutil.Golden(t, "golden/trajectory-4p-seed7.txt", out.Bytes())
}
