package testutil

import (
	"math/rand/v2"
	"testing"

	"github.com/botarena/botarena/env"
)

// SafeMaskPlay plays games games of e, reset with seeds 0, 1, …, in which
// seat 0 draws each action from its mask with [RandomActive] (action 0
// only when nothing else is allowed) and every other seat plays action 0.
// check, when not nil, is called with the game's seed before every step.
// It returns how many games ended with dead() true and how many times seat
// 0 played action bomb.
func SafeMaskPlay(e env.Env, rng *rand.Rand, games int, bomb int32, dead func() bool, check func(seed uint64)) (deaths, bombs int) {
	spec := e.Spec()
	mask := make([]uint8, spec.Actions)
	acts, rew := make([]int32, spec.Seats), make([]float32, spec.Seats)
	term, trunc := make([]bool, spec.Seats), make([]bool, spec.Seats)
	for seed := range uint64(games) {
		e.Reset(seed)
		for !e.Done() {
			if check != nil {
				check(seed)
			}
			e.WriteMask(0, mask)
			acts[0] = RandomActive(rng, mask)
			if acts[0] == bomb {
				bombs++
			}
			e.Step(acts, rew, term, trunc)
		}
		if dead() {
			deaths++
		}
	}
	return deaths, bombs
}

// WantSafeMaskSaves checks the rule of a game's safe mask against a
// player who only plays action 0, with play(safe, games) returning
// [SafeMaskPlay]'s deaths and bombs with the safe mask (safe) or the
// legal mask: with the safe mask, seat 0 dies in none of games games and
// still bombs at least minBombs times; with the legal mask it dies in at
// least 20 of 60, so that the test can fail.
func WantSafeMaskSaves(t testing.TB, play func(safe bool, games int) (deaths, bombs int), games, minBombs int) {
	t.Helper()
	deaths, bombs := play(true, games)
	if deaths != 0 {
		t.Errorf("choosing among the safe mask's actions, the player died in %d of %d games against a player who only plays action 0", deaths, games)
	}
	if bombs < minBombs {
		t.Errorf("%d bombs in %d games, want at least %d: the safe mask rules out bombing", bombs, games, minBombs)
	}
	if deaths, _ := play(false, 60); deaths < 20 {
		t.Errorf("choosing among the legal actions, the player died in only %d of 60 games: the test shows nothing", deaths)
	}
}
