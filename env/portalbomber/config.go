package portalbomber

import (
	"fmt"
	"math"

	"github.com/botarena/botarena/env"
)

// Config configures a game. The zero value is not valid; start from
// [DefaultConfig] (the original) or [VariantConfig] (the design document's
// variant). JSON names are the struct tags.
type Config struct {
	// Size is the board side, border included: odd, 7–25. Default 11, the
	// original's. Hard pillars stand where x and y are both even, which is
	// symmetric only for odd sides (spec §13.1).
	Size int `json:"size" doc:"board side, border included; hard pillars stand where x and y are both even" allowed:"odd, 7..25"`
	// Simultaneous makes each step a round in which both seats move at
	// once, in the design document's order (see the package doc). Default
	// false: the original's alternating single moves.
	Simultaneous bool `json:"simultaneous" doc:"each step is a round in which both seats move at once (the design document's order); false is the original's alternating single moves"`
	// VariantCommands makes ParseCommand accept the design document's
	// commands next to the original's move strings: "buy 00" (range),
	// "buy 01" (bomb count), "buy 02" (pierce), "buy 03" (block), and "u",
	// "l", "r", "d" for moves. Default false: the original reads those as
	// invalid moves.
	VariantCommands bool `json:"variant_commands" doc:"also accept the design document's commands (buy 00..03, and u, l, r, d for moves), which the original reads as invalid moves"`
	// SoftDensity is the chance that a free cell starts with a soft block,
	// in percent. Default 70, the original's.
	SoftDensity int `json:"soft_density" doc:"chance that a free cell starts with a soft block, in percent" allowed:"0..100"`
	// ApocalypseAfter is the moveNumber after which the apocalypse step
	// runs at each round end. Default 400, the original's (round 201).
	ApocalypseAfter int `json:"apocalypse_after" doc:"moveNumber after which the apocalypse step runs at each round end (400: round 201)" allowed:"0..100000"`
	// MaxRounds truncates the game after this many of the original's
	// rounds; 0 (the default) means no cap other than the apocalypse,
	// which ends every game.
	MaxRounds int `json:"max_rounds" doc:"truncate the game after this many rounds; 0 means no cap but the apocalypse, which ends every game" allowed:">= 0"`
	// CoinsReward, when non-zero, adds CoinsReward × (the coins the seat
	// earned in the step, by its fire destroying soft blocks) to each
	// step's reward: shaping for training, outside the original's rules.
	// Purchases do not count against it. Default 0.
	CoinsReward float32 `json:"coins_reward" doc:"reward shaping: adds coins_reward × (coins the seat earned this step by destroying soft blocks) to each step's reward; 0 turns it off" allowed:"finite"`
	// DangerReward, when non-zero, subtracts DangerReward from the step's
	// reward of each living seat that ends the step on a cell the fire
	// forecast ([Game.Forecast]) marks deadly within the next BombTicks
	// round ends: a bomb's blast to come (its own included) or the
	// apocalypse. Shaping for training, outside the original's rules: it
	// pays at once for stepping out of a blast's way, where the terminal
	// reward pays only at the end of the game. Default 0.
	DangerReward float32 `json:"danger_reward" doc:"reward shaping: subtracts danger_reward from the reward of a living seat that ends the step where the fire forecast puts a blast (or the apocalypse) within the next 5 round ends; 0 turns it off" allowed:"finite, >= 0"`
	// SafeMask, when true, also clears from the action mask the legal
	// actions after which no walk (through portals) survives the bombs,
	// trails and fire on the map for the next 8 round ends, as the fire
	// forecast shows them, the other player standing still (safemask.go):
	// certain deaths such as a step into a dead end of a blast, a bomb
	// with no way out, or a buy of range or pierce that makes the
	// player's own bomb reach it. Wait (action 0) always stays, and when
	// nothing else is safe the mask is the legal actions. Only the mask
	// changes; Step carries out a masked action as it always does.
	// Default false.
	SafeMask bool `json:"safe_mask" doc:"also mask out the legal actions after which no walk survives the bombs, trails and fire on the map for 8 round ends, the other player standing still (certain deaths; the engine still carries a masked action out); false means the mask is the legal actions"`
	// SafeMaskWary, with SafeMask, makes the safe mask foresee the other
	// player as raider does (safemask.go): it first keeps only the
	// actions after which an escape remains whatever the other player
	// does with its moves before the player's next (wait, a step, a
	// bomb), and falls back to the plain safe mask when none is safe
	// under that. It costs up to about 40 times the plain safe mask's
	// simulations. Default false. It needs SafeMask.
	SafeMaskWary bool `json:"safe_mask_wary" doc:"with safe_mask: first keep only the actions after which an escape remains whatever the other player does with its next moves (wait, a step, a bomb), as raider judges, falling back to the plain safe mask when none is; false means the plain safe mask"`
}

// DefaultConfig returns the original's rules: 11×11, alternating moves.
func DefaultConfig() *Config {
	return &Config{Size: DefaultSize, SoftDensity: 70, ApocalypseAfter: 400}
}

// VariantConfig returns the design document's variant: a 17×17 board (15×15
// inside the border, the nearest odd size to the document's 16×16),
// simultaneous moves and the document's shop codes.
func VariantConfig() *Config {
	return &Config{Size: 17, Simultaneous: true, VariantCommands: true, SoftDensity: 70, ApocalypseAfter: 400}
}

// Validate reports the first invalid field as an [*env.ConfigError].
func (c *Config) Validate() error {
	bad := func(field string, value any, reason string) error {
		return &env.ConfigError{Game: "portalbomber", Field: field, Value: value, Reason: reason}
	}
	if c.Size < MinSize || c.Size > MaxSize || c.Size%2 == 0 {
		return bad("size", c.Size, fmt.Sprintf("want an odd side %d–%d (border included)", MinSize, MaxSize))
	}
	if c.SoftDensity < 0 || c.SoftDensity > 100 {
		return bad("soft_density", c.SoftDensity, "want a percentage 0–100")
	}
	if c.ApocalypseAfter < 0 || c.ApocalypseAfter > 100000 {
		return bad("apocalypse_after", c.ApocalypseAfter, "want 0–100000 moves")
	}
	if c.MaxRounds < 0 {
		return bad("max_rounds", c.MaxRounds, "want 0 (no cap) or more")
	}
	if r := float64(c.CoinsReward); math.IsNaN(r) || math.IsInf(r, 0) {
		return bad("coins_reward", c.CoinsReward, "want a finite number")
	}
	if c.SafeMaskWary && !c.SafeMask {
		return bad("safe_mask_wary", c.SafeMaskWary, "needs safe_mask: true (it changes how the safe mask judges)")
	}
	if r := float64(c.DangerReward); math.IsNaN(r) || math.IsInf(r, 0) || r < 0 {
		return bad("danger_reward", c.DangerReward, "want a finite number, 0 or more")
	}
	return nil
}

// lastRound returns the round by which every game is over: the apocalypse
// reaches every cell n² rounds after it starts, and a player standing on a
// bomb outlives the fire by at most BombTicks rounds.
func (c *Config) lastRound() int {
	r := c.ApocalypseAfter/2 + 1 + c.Size*c.Size + BombTicks + 1
	if c.MaxRounds > 0 && c.MaxRounds < r {
		return c.MaxRounds
	}
	return r
}
