package match_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/botarena/botarena/env"
	_ "github.com/botarena/botarena/env/battlebots"
	"github.com/botarena/botarena/env/battlecube"
	"github.com/botarena/botarena/env/battleships"
	"github.com/botarena/botarena/env/bomberman"
	"github.com/botarena/botarena/env/portalbomber"
	"github.com/botarena/botarena/internal/testutil"
	"github.com/botarena/botarena/match"
)

// always plays one action every round.
type always struct{ action int32 }

func (a *always) Reset(env.Env, int, uint64) {}
func (a *always) Act(env.Env, int) int32     { return a.action }

// TestRunCountsEverySeatsActionsByKind: a bot that always plays one action
// has every round of its game counted as that action's kind, and the idle
// bot beside it every round as the do-nothing kind, in every game.
func TestRunCountsEverySeatsActionsByKind(t *testing.T) {
	for _, tc := range []struct {
		name, game string
		action     int32
		kind       string
	}{
		{"bomberman_always_bombs", "bomberman/2p", int32(bomberman.PlaceBomb), "bomb"},
		{"bomberman_always_triggers", "bomberman/2p", int32(bomberman.TriggerBomb), "trigger"},
		{"bomberman_always_moves", "bomberman/2p", int32(bomberman.MoveDown), "move"},
		{"battleships_places", "battleships/small", battleships.PlaceAction(7, 1, 1, battleships.East), "place"},
		{"battleships_fires_seekers", "battleships/small", battleships.CommandAction(7, battleships.CodeSeeker, 3, 3), "seeker"},
		{"battleships_fires_doubles", "battleships/small", battleships.CommandAction(7, battleships.CodeDoubleHorizontal, 3, 3), "double"},
		{"battlecube_always_moves", "battlecube/2p", int32(battlecube.MovePlusZ), "move"},
		{"battlecube_always_bombs", "battlecube/2p", int32(battlecube.NumFixedActions) + 5, "bomb"},
		{"battlebots_lays_mines", "battlebots", 25, "mine"},
		{"battlebots_fires_the_emp", "battlebots", 33, "emp"},
		{"portalbomber_shoots_portals", "portalbomber", int32(portalbomber.BluePortal), "portal"},
		{"portalbomber_buys", "portalbomber", int32(portalbomber.BuyRange), "buy"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e, err := env.Make(tc.game, nil)
			if err != nil {
				t.Fatal(err)
			}
			kinds := e.(match.ActionKinder).ActionKinds()
			ags := []env.Agent{&always{tc.action}}
			for len(ags) < e.Spec().Seats {
				ags = append(ags, &always{0})
			}
			m := &match.Match{Env: e, Agents: ags, Seed: 3, MaxRounds: 12}
			res, err := m.Run(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			rounds := float64(e.Steps())
			if rounds == 0 {
				t.Fatal("no round was played")
			}
			for _, s := range res.Leaderboard {
				want := map[string]float64{tc.kind: rounds}
				if s.Seat != 0 {
					want = map[string]float64{kinds[0]: rounds}
				}
				for i, k := range s.Actions.Kinds {
					if s.Actions.N[i] != want[k] {
						t.Errorf("seat %d: %s %v, want %v (%s)", s.Seat, k, s.Actions.N[i], want[k], s.Actions)
					}
				}
				if len(s.Actions.Kinds) != len(kinds) {
					t.Errorf("seat %d: kinds %v, want %v", s.Seat, s.Actions.Kinds, kinds)
				}
			}
		})
	}
}

// TestEveryGamesFiguresAreInRange: every game that sorts its actions into
// kinds gives every action of every registry name (and actions out of
// range) a kind in range, action 0 the first; every game that says how its
// players end names "alive" first and has every seat alive at the start.
func TestEveryGamesFiguresAreInRange(t *testing.T) {
	for _, name := range env.Default.Names() {
		e, err := env.Make(name, nil)
		if err != nil {
			t.Fatal(err)
		}
		if k, ok := e.(match.ActionKinder); ok {
			n := len(k.ActionKinds())
			if k.ActionKind(0) != 0 {
				t.Errorf("%s: action 0 has kind %d, want 0 (do nothing)", name, k.ActionKind(0))
			}
			for a := int32(-1); a <= int32(e.Spec().Actions); a++ {
				if kind := k.ActionKind(a); kind < 0 || kind >= n {
					t.Errorf("%s: action %d has kind %d of %d", name, a, kind, n)
				}
			}
		}
		if d, ok := e.(match.DeathCauser); ok {
			if c := d.DeathCauses(); len(c) < 2 || c[0] != "alive" {
				t.Errorf("%s: causes %q, want \"alive\" first and a cause of death", name, c)
			}
			for seat := range e.Spec().Seats {
				if c := d.DeathCause(seat); c != 0 {
					t.Errorf("%s: seat %d starts with cause %d, want 0 (alive)", name, seat, c)
				}
			}
		}
	}
}

// TestActionsJSONKeepsTheKindsInOrder: Actions is an object from kind to
// number in the game's order, read back the same.
func TestActionsJSONKeepsTheKindsInOrder(t *testing.T) {
	a := match.Actions{Kinds: []string{"nothing", "move", "bomb"}, N: []float64{3, 40.5, 0}}
	data, err := json.Marshal(a)
	if err != nil || string(data) != `{"nothing":3,"move":40.5,"bomb":0}` {
		t.Fatalf("Marshal = %s, %v", data, err)
	}
	var back match.Actions
	if err := json.Unmarshal(data, &back); err != nil || back.String() != "nothing 3, move 40.5, bomb 0" {
		t.Errorf("Unmarshal = %s, %v", back, err)
	}
	if sum := a.Add(back).Scale(0.5); sum.Get("move") != 40.5 || sum.Get("nothing") != 3 {
		t.Errorf("(a+a)/2 = %s, want a", sum)
	}
}

// TestCounterCountsWithoutAllocating: counting a round allocates nothing
// (it runs every step of every pooled league game).
func TestCounterCountsWithoutAllocating(t *testing.T) {
	e, err := env.Make("bomberman", nil)
	if err != nil {
		t.Fatal(err)
	}
	c := match.NewCounter(e)
	actions := make([]int32, e.Spec().Seats)
	for i := range actions {
		actions[i] = int32(i % int(bomberman.NumActions))
	}
	if n := testing.AllocsPerRun(100, func() { c.Count(actions) }); n != 0 {
		t.Errorf("Count allocates %v times a round", n)
	}
	if got := c.Seat(1).Get("move"); got != 101 {
		t.Errorf("seat 1 moved %v times, want 101 (100 runs and the warm-up)", got)
	}
}

// dying is a game that says how its players ended: seat s by causes[cause[s]].
type dying struct {
	env.Env
	causes []string
	cause  []int
}

func (d *dying) DeathCauses() []string   { return d.causes }
func (d *dying) DeathCause(seat int) int { return d.cause[seat] }

// TestRunAndResultOfSayHowEachSeatEnded: a game that says how its players
// ended has each seat's cause in its standing, from Run and from ResultOf
// alike; a game that does not leaves it empty; a cause out of range is
// the game's bug and panics.
func TestRunAndResultOfSayHowEachSeatEnded(t *testing.T) {
	causes := []string{"alive", "own bomb", "opponent's bomb"}
	for _, tc := range []struct {
		name  string
		cause []int // nil: the game does not say
		want  []string
	}{
		{"game_that_does_not_say", nil, []string{"", ""}},
		{"both_alive", []int{0, 0}, []string{"alive", "alive"}},
		{"seat_0_own_bomb", []int{1, 0}, []string{"own bomb", "alive"}},
		{"seat_1_opponents_bomb", []int{0, 2}, []string{"alive", "opponent's bomb"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e, err := env.Make("battlebots", nil)
			if err != nil {
				t.Fatal(err)
			}
			if tc.cause != nil {
				e = &dying{Env: e, causes: causes, cause: tc.cause}
			}
			m := &match.Match{Env: e, Agents: []env.Agent{&always{0}, &always{0}}, Seed: 3, MaxRounds: 2}
			res, err := m.Run(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			for name, r := range map[string]match.Result{"Run": res, "ResultOf": match.ResultOf(e, 3, nil, nil)} {
				for _, s := range r.Leaderboard {
					if s.Death != tc.want[s.Seat] {
						t.Errorf("%s: seat %d died by %q, want %q", name, s.Seat, s.Death, tc.want[s.Seat])
					}
				}
			}
		})
	}
	t.Run("cause_out_of_range_panics", func(t *testing.T) {
		e, err := env.Make("battlebots", nil)
		if err != nil {
			t.Fatal(err)
		}
		testutil.WantPanic(t, "ResultOf with cause 3 of 3 causes", "", func() {
			match.ResultOf(&dying{Env: e, causes: causes, cause: []int{3, 0}}, 1, nil, nil)
		})
	})
}

// TestDeathsCountByCauseInTheGamesOrder: Deaths counts every cause but
// "alive" (and a game's silence), in the game's order with 0s, a new cause
// last, and reads back from JSON in that order.
func TestDeathsCountByCauseInTheGamesOrder(t *testing.T) {
	d := match.NewDeaths([]string{"alive", "own bomb", "opponent's bomb"})
	for _, c := range []string{"own bomb", "alive", "", "own bomb", "unknown"} {
		d.Add(c)
	}
	data, err := json.Marshal(d)
	if err != nil || string(data) != `{"own bomb":2,"opponent's bomb":0,"unknown":1}` {
		t.Fatalf("Marshal = %s, %v", data, err)
	}
	var back match.Deaths
	if err := json.Unmarshal(data, &back); err != nil || back.String() != "own bomb 2, unknown 1" || back.Total() != 3 || back.Get("own bomb") != 2 {
		t.Errorf("Unmarshal = %s (total %d), %v", back, back.Total(), err)
	}
	if s := match.NewDeaths([]string{"alive", "own bomb"}).String(); s != "none" {
		t.Errorf("no deaths print as %q, want none", s)
	}
}
