package bomberman

import (
	"fmt"
	"slices"

	"github.com/botarena/botarena/env"
)

// Limits of the original engine.
const (
	MinPlayers = 2
	MaxPlayers = 12
	// MaxSide is the largest map side (41, for 9–12 players).
	MaxSide = 41
	// MaxBombs is the most bombs the map can hold at once. Generated maps
	// never come near it (12 players can hold at most 37); a loaded state
	// with more bombs is refused, and a plant that finds every slot taken
	// fails as if the bag were empty.
	MaxBombs = 64
)

// Power-up generator choices for [Config.PowerUps].
const (
	// PowerUpsAuto is the original's choice: the distance-based generator
	// for exactly 4 players, the random generator otherwise.
	PowerUpsAuto = "auto"
	// PowerUpsRandom forces the random generator (the engine's unit test
	// does this for 4 players).
	PowerUpsRandom = "random"
	// PowerUpsDistance forces the distance-based generator; it needs
	// exactly 4 players.
	PowerUpsDistance = "distance"
)

// Config configures a Bomberman game. The zero value is not valid; start
// from [DefaultConfig]. JSON names are the struct tags.
type Config struct {
	// Players is the number of seats, 2–12. Default 4. The map side follows
	// from it as in the original: 21 for 2–4, 31 for 5–8, 41 for 9–12.
	Players int `json:"players" doc:"number of players (seats); the map side follows: 21 for 2–4, 31 for 5–8, 41 for 9–12" allowed:"2..12"`
	// MaxRounds caps the rounds played; 0 (the default) means the
	// original's cap: rounds 0..W·H are processed, W·H+1 in all. A
	// positive value smaller than that ends the game earlier, truncated.
	MaxRounds int `json:"max_rounds" doc:"round cap; 0 means the original's (rounds 0..W·H), a smaller positive value truncates the game earlier" allowed:">= 0"`
	// PowerUps picks the power-up generator: "auto" (default), "random" or
	// "distance".
	PowerUps string `json:"powerups" doc:"power-up generator: auto (distance for exactly 4 players, random otherwise), random or distance" allowed:"auto, random, distance (distance needs 4 players)"`
	// LegacySeeding generates the map with Random(seed) directly, as
	// builds from before 2016-04-24 did; those printed the seed of the
	// attempt that succeeded, so this reproduces maps from their replays
	// (spec §2.1). Should the distance generator reject that map, further
	// attempts draw their seeds as the current engine does. Default false.
	LegacySeeding bool `json:"legacy_seeding" doc:"generate the map with Random(seed) directly, as builds before 2016-04-24 did, to reproduce maps from their replays"`
	// Names are the player names, one per seat; missing or empty names
	// default to "Player N" (N = seat+1), as the original names console
	// players.
	Names []string `json:"names" doc:"player names, one per seat; missing or empty names are Player N (N = seat+1)" allowed:"at most one per seat, no control characters"`
	// ConsoleSeats lists seats played as the original's console players:
	// they are exempt from the 20-do-nothing rule (spec §7.3), which
	// applies to every other seat (bots). Default none.
	ConsoleSeats []int `json:"console_seats" doc:"seats played as the original's console players, exempt from the 20-do-nothing rule that applies to bots" allowed:"seats 0..players-1"`
	// MapCRLF ends map.txt lines with CRLF, as the original did on Windows
	// where the tournament ran; the default is LF, as the files committed
	// to git have.
	MapCRLF bool `json:"map_crlf" doc:"end map.txt lines with CRLF, as the original did on Windows; false means LF"`
	// PointsReward, when non-zero, adds PointsReward × (change in the
	// seat's points) to each step's reward as shaping. Default 0.
	PointsReward float32 `json:"points_reward" doc:"reward shaping: adds points_reward × (change in the seat's points) to each step's reward; 0 turns it off"`
	// ViewRadius, when positive, makes the planes a player-centred window
	// of (2·ViewRadius+1)² cells instead of the whole map: window cell
	// (u, v), 0-based, shows map cell (x−R+u, y−R+v) for the seat's player
	// at (x, y) (its last cell once dead), and cells off the map read as
	// indestructible walls (1 in PlaneIndestructible, 0 in every other
	// plane). The scalars are unchanged. It changes the spec's planes
	// shape to [NumPlanes, 2R+1, 2R+1], so a policy trained with it plays
	// only with it. Default 0: the planes cover the whole map.
	ViewRadius int `json:"view_radius" doc:"when positive, the planes are a (2r+1)×(2r+1) window centred on the seat's player, off-map cells reading as indestructible walls; 0 means the whole map" allowed:"0..40"`
	// SafeMask, when true, also clears from the action mask the legal
	// actions after which no sequence of moves survives the bombs on the
	// map as their fuses and chains stand (safemask.go): certain deaths
	// by the player's own hand. It changes only the mask (Step carries out
	// a masked action as before) and costs a simulation of the bombs per
	// seat and WriteMask. Default false: the mask is the legal actions.
	SafeMask bool `json:"safe_mask" doc:"also mask out the legal actions after which no sequence of moves survives the bombs on the map (certain deaths; the engine still carries a masked action out); false means the mask is the legal actions"`
	// SafeMaskWary, with SafeMask, makes the safe mask foresee the
	// opponents' next two rounds (safemask.go): it first judges the
	// actions with every opponent's bombs triggered now and a bomb planted
	// where each opponent stands, triggered next round (how hunter traps),
	// and falls back to fewer assumptions when nothing is safe under them.
	// It costs up to three times the plain safe mask's simulations.
	// Default false. It needs SafeMask.
	SafeMaskWary bool `json:"safe_mask_wary" doc:"with safe_mask: judge first with every opponent's bombs triggered now and a bomb planted where each opponent stands, triggered next round, falling back to fewer assumptions when nothing is safe; false means the plain safe mask"`
	// SafeMaskStrict, with SafeMask, judges Do Nothing as the other
	// actions: it is masked out too when waiting a round is certain death
	// (under the model that set the mask) and another action is safe, the
	// one case where a Bomberman mask clears action 0 (see [env.Env]'s
	// WriteMask). A bot's Do Nothing is judged as what the 20-do-nothing
	// rule makes of it: its 20th in a row as the harness's Place Bomb, its
	// 21st as fatal (the harness stops running the bot). Default false: Do
	// Nothing stays legal whatever it costs. It needs SafeMask.
	SafeMaskStrict bool `json:"safe_mask_strict" doc:"with safe_mask: also mask out Do Nothing when waiting is certain death and another action is safe; a bot's 20th Do Nothing in a row is judged as the bomb the harness plants for it, its 21st as fatal (the harness stops running it); false means Do Nothing stays legal whatever it costs"`
	// TouchedPlanes, when true, adds two planes after the 12:
	// PlaneSelfTouched, 1 on every cell the seat's own player has ever
	// occupied in this game (what coverage counts, and what harvester
	// values), and PlaneOpponentsTouched, 1 on every cell some other
	// seat's player has. They are per-seat planes, in the whole-map layout
	// and in the ViewRadius window (0 off the map) alike. It changes the
	// spec's planes shape to [NumPlanesTouched, H, W], so a policy trained
	// with it plays only with it; it only appends (env.AppendField), so a
	// policy trained without it reads the first 12 planes of a game with
	// it. Default false: 12 planes.
	TouchedPlanes bool `json:"touched_planes" doc:"add two planes after the 12: the cells the seat's own player has ever occupied (12) and the cells any other player has (13); false means the 12 planes" obs:"append planes"`
	// OpponentScalars, when true, adds three scalars after the 8: the bomb
	// bag, blast radius and points/100 of the strongest opponent, the other
	// seat alive with the most points (the lowest seat on a tie; 0s when
	// none is alive), the opponent planner's rollout value subtracts
	// ([Planner]). It changes the spec's scalars shape to
	// [NumScalarsOpponent]; it only appends, as TouchedPlanes does.
	// Default false: 8 scalars.
	OpponentScalars bool `json:"opponent_scalars" doc:"add three scalars after the 8: bomb bag, blast radius and points/100 of the alive opponent with the most points (0s when none); false means the 8 scalars" obs:"append scalars"`
}

// planes returns C, the number of observation planes the config gives.
func (c *Config) planes() int {
	if c.TouchedPlanes {
		return NumPlanesTouched
	}
	return NumPlanes
}

// scalars returns the length of the scalar vector the config gives.
func (c *Config) scalars() int {
	if c.OpponentScalars {
		return NumScalarsOpponent
	}
	return NumScalars
}

// DefaultConfig returns the original's defaults for 4 players.
func DefaultConfig() *Config {
	return &Config{Players: 4, PowerUps: PowerUpsAuto}
}

// Validate reports the first invalid field as an [*env.ConfigError].
func (c *Config) Validate() error {
	bad := func(field string, value any, reason string) error {
		return &env.ConfigError{Game: "bomberman", Field: field, Value: value, Reason: reason}
	}
	if c.Players < MinPlayers || c.Players > MaxPlayers {
		return bad("players", c.Players, fmt.Sprintf("want %d–%d", MinPlayers, MaxPlayers))
	}
	if c.MaxRounds < 0 {
		return bad("max_rounds", c.MaxRounds, "want 0 (the original's cap) or more")
	}
	if c.ViewRadius < 0 || c.ViewRadius > MaxSide-1 {
		return bad("view_radius", c.ViewRadius, fmt.Sprintf("want 0 (the whole map) to %d", MaxSide-1))
	}
	if c.SafeMaskWary && !c.SafeMask {
		return bad("safe_mask_wary", c.SafeMaskWary, "needs safe_mask: true (it changes how the safe mask judges)")
	}
	if c.SafeMaskStrict && !c.SafeMask {
		return bad("safe_mask_strict", c.SafeMaskStrict, "needs safe_mask: true (it changes how the safe mask judges)")
	}
	switch c.PowerUps {
	case "", PowerUpsAuto, PowerUpsRandom:
	case PowerUpsDistance:
		if c.Players != 4 {
			return bad("powerups", c.PowerUps, fmt.Sprintf("the distance generator needs exactly 4 players (players is %d)", c.Players))
		}
	default:
		return bad("powerups", c.PowerUps, `want "auto", "random" or "distance"`)
	}
	if len(c.Names) > c.Players {
		return bad("names", len(c.Names), fmt.Sprintf("want at most one name per seat (%d)", c.Players))
	}
	for i, n := range c.Names {
		for _, r := range n {
			if r < ' ' {
				return bad(fmt.Sprintf("names[%d]", i), fmt.Sprintf("%q", n), "want no control characters (they would break map.txt)")
			}
		}
	}
	for i, s := range c.ConsoleSeats {
		if s < 0 || s >= c.Players {
			return bad(fmt.Sprintf("console_seats[%d]", i), s, fmt.Sprintf("want a seat in 0–%d", c.Players-1))
		}
	}
	return nil
}

// Side returns the map side for the configured number of players.
func (c *Config) Side() int { return SideFor(c.Players) }

// SideFor returns the original's map side for n players: 21, 31 or 41.
func SideFor(n int) int {
	switch {
	case n <= 4:
		return 21
	case n <= 8:
		return 31
	default:
		return 41
	}
}

// name returns seat's player name.
func (c *Config) name(seat int) string {
	if seat < len(c.Names) && c.Names[seat] != "" {
		return c.Names[seat]
	}
	return fmt.Sprintf("Player %d", seat+1)
}

// isConsole reports whether seat is exempt from the do-nothing rule.
func (c *Config) isConsole(seat int) bool { return slices.Contains(c.ConsoleSeats, seat) }
