package agents

import (
	"testing"

	"github.com/botarena/botarena/env"
	_ "github.com/botarena/botarena/env/battleships"
)

func TestBattleshipsReference(t *testing.T) {
	for _, cfg := range []string{`{}`, `{"placement":"learn","size":"small"}`} {
		wins := [2]int{}
		for seed := range uint64(6) {
			e, err := env.Make("battleships", []byte(cfg))
			if err != nil {
				t.Fatal(err)
			}
			e.Reset(seed)
			var ags [2]env.Agent
			for s, name := range []string{"reference", "random"} {
				if ags[s], err = New("battleships", name, e.Spec()); err != nil {
					t.Fatal(err)
				}
				ags[s].Reset(e, s, seed+uint64(s))
			}
			acts := make([]int32, 2)
			r := make([]float32, 2)
			te, tr := make([]bool, 2), make([]bool, 2)
			for !e.Done() {
				for s := range 2 {
					acts[s] = ags[s].Act(e, s)
				}
				e.Step(acts, r, te, tr)
			}
			w, _ := e.Outcome()
			wins[w]++
			if n := testing.AllocsPerRun(5, func() { ags[0].Act(e, 0) }); n != 0 {
				t.Errorf("Act allocates %v", n)
			}
		}
		if wins[0] < 4 {
			t.Errorf("%s: reference won %d of 6 against random", cfg, wins[0])
		}
	}
}
