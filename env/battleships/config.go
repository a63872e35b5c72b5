package battleships

import (
	"fmt"

	"github.com/botarena/botarena/env"
)

// Map sizes of the original (the CLI's -s 1, 2, 3).
const (
	SizeSmall  = "small"  // 7×7
	SizeMedium = "medium" // 10×10, the original's default
	SizeLarge  = "large"  // 14×14
)

// Placement modes for [Config.Placement].
const (
	// PlacementRandom: a built-in placer puts each fleet at a uniformly
	// random legal position (ship by ship, in list order), and phase 1 is
	// played inside Reset; the first observation is phase 2, round 1.
	PlacementRandom = "random"
	// PlacementReference: as PlacementRandom, with the reference bot's
	// placer (spec §11).
	PlacementReference = "reference"
	// PlacementLearn: phase 1 is part of the episode, one ship per step
	// (see the package documentation).
	PlacementLearn = "learn"
)

// Config configures a Battleships game. The zero value means the defaults
// (medium map, random placement); JSON names are the struct tags.
type Config struct {
	// Size is the map size: "small" (7), "medium" (10, default) or
	// "large" (14).
	Size string `json:"size" doc:"map size: small (7×7), medium (10×10) or large (14×14)" allowed:"small, medium, large"`
	// Placement is who places the fleets in phase 1: "random" (default),
	// "reference" or "learn".
	Placement string `json:"placement" doc:"who places the fleets in phase 1: random (a random placer), reference (the reference bot's placer) or learn (the seats, one ship per step)" allowed:"random, reference, learn"`
	// MaxRounds, when positive and smaller than the original's cap
	// (rounds 0..N²+5), ends the game after MaxRounds rounds, truncated.
	MaxRounds int `json:"max_rounds" doc:"round cap; 0 means the original's (rounds 0..N²+5), a smaller positive value truncates the game earlier" allowed:">= 0"`
	// Names are the player names of seats 0 (key A) and 1 (key B); empty
	// names default to "Player A" and "Player B".
	Names []string `json:"names" doc:"names of seat 0 (key A) and seat 1 (key B); empty names are Player A and Player B" allowed:"at most 2, no control characters, quotes or backslashes"`
	// PointsReward, when non-zero, adds PointsReward × (change in the
	// seat's points) to each step's reward as shaping. Default 0.
	PointsReward float32 `json:"points_reward" doc:"reward shaping: adds points_reward × (change in the seat's points) to each step's reward; 0 turns it off"`
	// ShotMask, when true, also clears from the phase-2 action mask the
	// shots that can land only on cells the seat has already shot (missed
	// or damaged): a single shot at such a cell, a pattern (double,
	// corner, diagonal cross, cross) whose on-map cells all are, and a
	// seeker with every on-map cell within its reach shot. Cells where a
	// shield stopped the shot are not shot. The engine still carries a
	// masked action out. Default false.
	ShotMask bool `json:"shot_mask" doc:"also mask out the shots that can land only on opponent cells the seat already shot (missed or damaged); the engine still carries a masked action out; false means the mask is the legal actions"`
	// ShieldMask, when true, also clears from the phase-2 action mask the
	// shield unless the opponent has hit one of the seat's afloat ships
	// and the shield, at its current radius, can cover every unhit cell of
	// every afloat ship; then only the centres that cover them all are
	// left. It is marksman's rule for the shield's moment: raised then, a
	// shield of c charges holds off the shots that would finish the fleet
	// for c rounds, where raised earlier it mostly spends the charges the
	// rounds have built up. The engine still carries a masked action out.
	// Default false.
	ShieldMask bool `json:"shield_mask" doc:"also mask out the shield unless the opponent has hit one of the seat's afloat ships and the shield can cover every unhit cell of every afloat ship, leaving only the centres that do; the engine still carries a masked action out; false means the mask is the legal actions"`
	// DensityPlane, when true, adds plane PlaneOppDensity to the
	// observation: for each opponent cell the seat has not shot, the
	// chance that it holds a ship as hunter reckons it from the seat's own
	// knowledge (the placements of each ship still afloat that avoid its
	// missed cells and the cells it put down to sunk ships, a placement
	// weighted by 40 for each unresolved hit it covers), scaled so that the
	// likeliest cell is 255. Default false (12 planes).
	DensityPlane bool `json:"density_plane" doc:"add a 13th plane: each unshot opponent cell's chance of holding a ship as hunter reckons it from the seat's own shots, hits and sunk ships, the likeliest cell 255; false means the 12 planes" obs:"append planes"`
	// FleetPlanes, when true, shows a learn-mode seat its phase-1 choices:
	// while it places its fleet, planes PlaneOwnSubmarine..PlaneOwnCruiser
	// mark the ships it has chosen so far this phase-1 round, which the
	// engine places only when the round is processed (without it those
	// planes stay empty until then, so each placement decision sees only
	// how many ships are chosen, scalar ScalarPlaced). With it a policy can
	// place a ship relative to the ones before it: a packed fleet in any
	// of the board's rotations and reflections. Phase 2 is unchanged.
	// Default false.
	FleetPlanes bool `json:"fleet_planes" doc:"learn placement: while a seat places its fleet, the own-ship planes show the ships it has chosen so far this phase-1 round (placed by the engine only when the round is processed); false leaves them empty until then"`
}

// DefaultConfig returns the original's defaults: a medium map, with the
// built-in random placer.
func DefaultConfig() *Config { return &Config{Size: SizeMedium, Placement: PlacementRandom} }

// Validate reports the first invalid field as an [*env.ConfigError].
func (c *Config) Validate() error {
	bad := func(field string, value any, reason string) error {
		return &env.ConfigError{Game: "battleships", Field: field, Value: value, Reason: reason}
	}
	switch c.Size {
	case "", SizeSmall, SizeMedium, SizeLarge:
	default:
		return bad("size", fmt.Sprintf("%q", c.Size), `want "small", "medium" or "large"`)
	}
	switch c.Placement {
	case "", PlacementRandom, PlacementReference, PlacementLearn:
	default:
		return bad("placement", fmt.Sprintf("%q", c.Placement), `want "random", "reference" or "learn"`)
	}
	if c.MaxRounds < 0 {
		return bad("max_rounds", c.MaxRounds, "want 0 (the original's cap) or more")
	}
	if len(c.Names) > 2 {
		return bad("names", len(c.Names), "want at most 2 names")
	}
	for i, n := range c.Names {
		for _, r := range n {
			if r < ' ' || r == '"' || r == '\\' {
				return bad(fmt.Sprintf("names[%d]", i), fmt.Sprintf("%q", n), "want no control characters, quotes or backslashes")
			}
		}
	}
	return nil
}

// MapSize returns the map side for the configured size: 7, 10 or 14.
func (c *Config) MapSize() int {
	switch c.Size {
	case SizeSmall:
		return 7
	case SizeLarge:
		return 14
	}
	return 10
}

func (c *Config) name(seat int) string {
	if seat < len(c.Names) && c.Names[seat] != "" {
		return c.Names[seat]
	}
	return "Player " + string(rune('A'+seat))
}
