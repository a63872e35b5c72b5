package battlebots

import (
	"fmt"

	"github.com/botarena/botarena/env"
)

// Limits of the game and of botarena's fixed-size state.
const (
	// Side is the side of the ASCII grid (WIDTH = HEIGHT = 10 in the
	// original); the playable area is 9×9 (x, y in 1..9) by default.
	Side = 10
	// Cells is Side × Side.
	Cells = Side * Side
	// StartHP is each bot's HP at the start of a bout.
	StartHP = 10
	// DefaultMaxRounds is the original's ROUNDSPERBOUT.
	DefaultMaxRounds = 1000
	// BoutsPerMatch is the original's BOUTSPERMATCH.
	BoutsPerMatch = 5
	// MaxBullets and MaxMissiles bound the projectiles in flight. A bout
	// never comes near them (at most 3 bullets and 5 missiles per bot can
	// be in flight in one round); a loaded state with more is refused, and
	// a shot that finds the list full is dropped.
	MaxBullets  = 32
	MaxMissiles = 32
)

// Arena choices for [Config.Arena].
const (
	// Arena9x9 is HEAD's bounds test, x > 0 && y > 0 && x < 10 && y < 10:
	// the playable area is x, y in 1..9 (spec §1). The default.
	Arena9x9 = "9x9"
	// Arena10x10 is the README's (and the initial commit's) 10×10 arena,
	// x, y in 0..9, with the same starts (1,1) and (8,8).
	Arena10x10 = "10x10"
)

// Config configures a BattleBots bout. The zero value is the original's
// default (HEAD's rules); JSON names are the struct tags.
type Config struct {
	// Arena is "9x9" (HEAD's bounds, the default; "" means the same) or
	// "10x10" (the README's arena).
	Arena string `json:"arena" doc:"arena bounds: 9x9 (HEAD's, x and y in 1..9) or 10x10 (the README's, x and y in 0..9)" allowed:"9x9, 10x10"`
	// MaxRounds is the round cap of a bout; 0 (the default) means the
	// original's 1000.
	MaxRounds int `json:"max_rounds" doc:"round cap of a bout; 0 means the original's 1000" allowed:">= 0"`
	// Names are the bots' names, bot1's first; missing or empty names
	// default to "bot1" and "bot2".
	Names []string `json:"names" doc:"bot names, bot1's first; missing or empty names are bot1 and bot2" allowed:"at most 2, no control characters"`
	// HPReward, when non-zero, adds HPReward × (the change in the seat's HP
	// minus the change in the enemy's HP) to every step's reward as
	// shaping. Default 0.
	HPReward float32 `json:"hp_reward" doc:"reward shaping: adds hp_reward × (change in the seat's HP minus change in the enemy's HP) to each step's reward; 0 turns it off"`
	// History, when above 0, adds the last History rounds' actions to the
	// scalars, [HistoryScalarsPerRound] a round, the latest first: the
	// seat's own action as it chose it and the enemy's as the seat could
	// see it (a landmine never, a move only when the enemy's cell
	// changed, a shot only when it left a trace; see [Game.Shown]).
	// Default 0: the four scalars, byte for byte as before.
	History int `json:"history" doc:"add the last history rounds' actions to the scalars (26 a round, latest first): the seat's own, and the enemy's as the seat saw it (a landmine never shows, a move only when the enemy's cell changed, a shot only when its projectile is still in flight or it cost a bot HP); 0 turns it off" allowed:"0..8" obs:"append scalars"`
}

// DefaultConfig returns the original's configuration.
func DefaultConfig() *Config { return &Config{Arena: Arena9x9} }

// Validate reports the first invalid field as an [*env.ConfigError].
func (c *Config) Validate() error {
	bad := func(field string, value any, reason string) error {
		return &env.ConfigError{Game: "battlebots", Field: field, Value: value, Reason: reason}
	}
	switch c.Arena {
	case "", Arena9x9, Arena10x10:
	default:
		return bad("arena", fmt.Sprintf("%q", c.Arena), `want "9x9" (HEAD's bounds) or "10x10" (the README's)`)
	}
	if c.MaxRounds < 0 {
		return bad("max_rounds", c.MaxRounds, "want 0 (the original's 1000) or more")
	}
	if len(c.Names) > 2 {
		return bad("names", len(c.Names), "want at most 2 names (bot1, bot2)")
	}
	for i, n := range c.Names {
		for _, r := range n {
			if r < ' ' {
				return bad(fmt.Sprintf("names[%d]", i), fmt.Sprintf("%q", n), "want no control characters")
			}
		}
	}
	if c.History < 0 || c.History > MaxHistory {
		return bad("history", c.History, fmt.Sprintf("want 0 (off) to %d rounds", MaxHistory))
	}
	if c.HPReward != c.HPReward { // NaN
		return bad("hp_reward", c.HPReward, "want a number")
	}
	return nil
}

// rounds returns the effective round cap.
func (c *Config) rounds() int {
	if c.MaxRounds > 0 {
		return c.MaxRounds
	}
	return DefaultMaxRounds
}

// low returns the lowest in-bounds coordinate: 1 for HEAD's 9×9, 0 for the
// README's 10×10.
func (c *Config) low() int {
	if c.Arena == Arena10x10 {
		return 0
	}
	return 1
}

// name returns seat's bot name.
func (c *Config) name(seat int) string {
	if seat < len(c.Names) && c.Names[seat] != "" {
		return c.Names[seat]
	}
	return fmt.Sprintf("bot%d", seat+1)
}
