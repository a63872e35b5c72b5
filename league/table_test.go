package league

import (
	"bytes"
	"strings"
	"testing"
)

// TestTableShowsHowEachAgentPlays: the standings carry each agent's mean
// actions per game by kind; nop does nothing every round, sniper only
// fires missiles, and the text table lists them under the ratings.
func TestTableShowsHowEachAgentPlays(t *testing.T) {
	l := newLeague(t, 5, "nop", "nop", "sniper", "sniper")
	mustRun(t, l, RunOptions{Games: 6, Workers: 1})
	rows := mustTable(t, l)
	var rounds float64
	for _, g := range results(t, l) {
		rounds += float64(g.Rounds)
	}
	rounds /= 6
	for _, r := range rows {
		busy := map[string]string{"nop": "nothing", "sniper": "missile"}[r.Agent]
		var total float64
		for _, n := range r.MeanActions.N {
			total += n
		}
		if r.MeanActions.Get(busy) != rounds || total != rounds {
			t.Errorf("%s: mean actions %s, want %s %v only", r.Agent, r.MeanActions, busy, rounds)
		}
	}
	var b bytes.Buffer
	if err := WriteTable(&b, rows); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "\nACTIONS PER GAME (last 1000 games)\n") || !strings.Contains(b.String(), "nop     nothing ") {
		t.Errorf("table:\n%s", b.String())
	}
}
