package main

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/botarena/botarena/agents"
	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/internal/testgame"
	"github.com/botarena/botarena/internal/testutil"
	"github.com/botarena/botarena/league"
	"github.com/botarena/botarena/vecenv"
)

func init() {
	// forfeitgame is testgame with one more agent, which panics, for play's
	// failure policy (testgame's agents are pinned by other tests).
	entry, err := env.Default.Lookup("testgame")
	if err != nil {
		panic(err)
	}
	entry.Name, entry.Kit = "forfeitgame", forfeitKit{}
	env.Register(entry)
	// zz-test-panics is the same agent for BattleBots, the tournament's
	// game, as an agent scheme (a game's agents live in its kit).
	agents.RegisterScheme(agents.Scheme{Prefix: "zz-test-panics", Games: []string{"battlebots"}, Summary: "panics in round 2 (tournament tests)",
		InProcess: true,
		New:       func(string, string, *env.Spec) (env.Agent, error) { return panicsInRound2, nil }})
}

// forfeitKit is testgame's kit with one more agent, "panics".
type forfeitKit struct{ testgame.Kit }

func (k forfeitKit) Agents() []env.AgentInfo {
	return append(slices.Clone(k.Kit.Agents()), env.AgentInfo{Name: "panics", Summary: "plays 2, then panics in round 2 (play tests)",
		New: func(*env.Spec) (env.Agent, error) { return panicsInRound2, nil }})
}

// panicsInRound2 plays 2 in rounds 0 and 1 and panics from round 2 on.
var panicsInRound2 = testutil.Panicky{From: 2, Action: 2, Msg: "forfeitgame-panics"}

// TestPlayForfeit: play applies the match runner's failure policy: the
// agent that panics (leading 4 to 0) forfeits and drops to last place, and
// the result says so.
func TestPlayForfeit(t *testing.T) {
	stdout, stderr, code := runCLI(t, "", "play", "forfeitgame", "--agents", "panics,idle", "--seed", "3", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	want := `{"game":"forfeitgame","seed":3,"rounds":2,"winner":1,"draw":false,"leaderboard":[` +
		`{"rank":1,"seat":1,"agent":"idle","name":"Idle","score":0,"alive":true,"behind":4},` +
		`{"rank":2,"seat":0,"agent":"panics","name":"Panics","score":4,"alive":true,"behind":0}],` +
		`"forfeit":{"seat":0,"agent":"panics","round":2,"reason":"the agent panicked: forfeitgame-panics"}}` + "\n"
	if stdout != want {
		t.Errorf("play --json:\n%s\nwant\n%s", stdout, want)
	}
	stdout, _, code = runCLI(t, "", "play", "forfeitgame", "--agents", "panics,idle", "--seed", "3")
	for _, line := range []string{"winner seat 1, Idle (idle)", "seat 0 (panics) forfeits in round 2: the agent panicked: forfeitgame-panics"} {
		if code != 0 || !strings.Contains(stdout, line) {
			t.Errorf("play: exit %d, no %q in\n%s", code, line, stdout)
		}
	}
	// Without a forfeit the result has no forfeit field.
	stdout, _, _ = runCLI(t, "", "play", "forfeitgame", "--agents", "idle,idle", "--seed", "3", "--json")
	if strings.Contains(stdout, "forfeit\"") {
		t.Errorf("a game without forfeit: %s", stdout)
	}
}

// TestTournamentForfeit: a tournament bout applies the same policy.
func TestTournamentForfeit(t *testing.T) {
	stdout, stderr := runOKIn(t, "", "tournament", "battlebots", "--agents", "zz-test-panics,nop", "--bouts", "1", "--seed", "1", "--json")
	var res struct {
		Matches []tMatch `json:"matches"`
	}
	if err := json.Unmarshal([]byte(stdout), &res); err != nil || len(res.Matches) != 1 || len(res.Matches[0].Bouts) != 1 {
		t.Fatalf("%v: %s", err, stdout)
	}
	b := res.Matches[0].Bouts[0]
	if want := "zz-test-panics loses in round 2: forfeit: the agent panicked: forfeitgame-panics"; b.Rounds != 2 || b.Winner == nil || *b.Winner != "nop" || b.Forfeit != want {
		t.Errorf("bout %+v, want 2 rounds won by nop and forfeit %q", b, want)
	}
	if !strings.Contains(stderr, "bout 0: zz-test-panics loses in round 2") {
		t.Errorf("stderr: %s", stderr)
	}
}

// TestPlaySeedIsThePoolsAndTheLeaguesSeed: `play --seed S` plays the game
// of a pool episode reset with S, its agents as the pool's opponents, and
// the game of seed S of a league (league.LocalRunner, which the match
// service uses).
func TestPlaySeedIsThePoolsAndTheLeaguesSeed(t *testing.T) {
	const game, seed = "battlebots", 4242
	names := []string{"random", "huggy"}
	stdout := runOK(t, "play", game, "--agents", strings.Join(names, ","), "--seed", "4242", "--json")
	var lb struct {
		Rounds      int  `json:"rounds"`
		Winner      *int `json:"winner"`
		Leaderboard []struct {
			Seat  int     `json:"seat"`
			Score float64 `json:"score"`
			Alive bool    `json:"alive"`
		} `json:"leaderboard"`
	}
	if err := json.Unmarshal([]byte(stdout), &lb); err != nil || lb.Winner == nil {
		t.Fatalf("play --json: %v: %s", err, stdout)
	}
	same := func(what string, r env.Result) {
		t.Helper()
		if r.Rounds != lb.Rounds || r.Winner != *lb.Winner || len(r.Standings) != len(lb.Leaderboard) {
			t.Fatalf("%s: %d rounds, winner %d; play: %s", what, r.Rounds, r.Winner, stdout)
		}
		for i, s := range r.Standings {
			if l := lb.Leaderboard[i]; s.Seat != l.Seat || s.Score != l.Score || s.Alive != l.Alive {
				t.Errorf("%s: standing %d %+v; play: %+v", what, i, s, l)
			}
		}
	}

	opps := map[int]env.AgentFactory{}
	for seat, n := range names {
		opps[seat] = func(spec *env.Spec) (env.Agent, error) { return agents.New(game, n, spec) }
	}
	p, err := vecenv.New(vecenv.Config{Game: game, NumEnvs: 1, Seed: 1, LearnerSeats: []int{}, Opponents: opps})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if err := p.Plan(0, vecenv.EpisodePlan{Seed: seed}); err != nil {
		t.Fatal(err)
	}
	err = p.Reset()
	for err == nil && !p.EnvsEnded()[0] {
		err = p.Step(nil)
	}
	if err != nil {
		t.Fatal(err)
	}
	same("pool episode of seed 4242", p.Env(0).Result())

	var lr league.LocalRunner
	m := league.Match{Seed: seed, Game: game}
	for _, n := range names {
		m.Seats = append(m.Seats, league.Entrant{Name: n, Spec: n})
	}
	g, err := lr.Play(context.Background(), m)
	if err != nil {
		t.Fatal(err)
	}
	r := env.Result{Rounds: g.Rounds, Winner: int(g.Winner)}
	for _, s := range g.Leaderboard {
		r.Standings = append(r.Standings, env.Standing{Seat: s.Seat, Score: s.Score, Alive: s.Alive})
	}
	same("league game of seed 4242", r)
}
