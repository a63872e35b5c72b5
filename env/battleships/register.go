package battleships

import (
	"fmt"
	"strings"

	"github.com/botarena/botarena/env"
)

// Registry names: "battleships" (medium) and one preset per size.
func init() {
	env.Register(env.Presets([]env.Preset[*Config]{
		{Name: "battleships", Summary: "Entelect Challenge 2017 Battleships (1.2.2, shields and special weapons), exact: 10×10 (size small|medium|large)", Config: func() *Config { c := DefaultConfig(); c.Size = SizeMedium; return c }},
		{Name: "battleships/small", Summary: "Entelect 2017 Battleships on 7×7", Config: func() *Config { c := DefaultConfig(); c.Size = SizeSmall; return c }},
		{Name: "battleships/large", Summary: "Entelect 2017 Battleships on 14×14", Config: func() *Config { c := DefaultConfig(); c.Size = SizeLarge; return c }},
	}, Rules, newGame, Kit{})...)
}

// Rules returns the rules as botarena implements them for cfg, in Markdown.
func Rules(cfg *Config) string {
	n := cfg.MapSize()
	e := energyPerRound(n)
	var b strings.Builder
	f := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	f("# Entelect Challenge 2017 Battleships — rules as implemented\n\n")
	f("botarena reproduces the official engine, release 1.2.2 (the code, quirks included; spec: docs/specs/battleships2017.md). ")
	f("This game: %d×%d maps, rounds 0 to %d at most.\n\n", n, n, n*n+5)
	f("## Fleet and energy\n\n")
	f("- Ships (list order): Submarine 3 (seeker missile, code 7), Destroyer 2 (double shot, codes 2 vertical / 3 horizontal), ")
	f("Battleship 4 (diagonal cross, 5), Carrier 5 (corner shot, 4), Cruiser 3 (cross \"+\", 6). Every ship also has the single shot (1).\n")
	f("- Energy: %d at the start and +%d after every phase-2 round, uncapped. Costs: single 1, double %d, corner %d, seeker %d, diagonal %d, cross %d.\n",
		e, energyGrant(n), WeaponCost(DoubleShot, n), WeaponCost(CornerShot, n), WeaponCost(SeekerMissile, n), WeaponCost(DiagonalCrossShot, n), WeaponCost(CrossShot, n))
	f("- Points: 10 per ship cell newly hit, 30 per ship sunk (never by the seeker, as coded), 100 for the kill.\n\n")
	f("## Phase 1: placement (place.txt)\n\n")
	f("- Five lines `<ship> <x> <y> <north|east|south|west>`; ships run from the start cell in that direction (north is y+1); touching is allowed, overlap and leaving the map are not.\n")
	f("- Both placements must succeed in the same round; otherwise only the first failing player in order A, B is charged a failure, both maps are wiped and phase 1 repeats. ")
	f("Doing nothing in phase 1 is a failure.\n")
	switch cfg.Placement {
	case PlacementLearn:
		f("- botarena (learn mode): one ship per step, in list order, masked to legal positions; the round is processed when both seats have chosen five ships or given up.\n\n")
	case PlacementReference:
		f("- botarena: the fleets are placed by the reference bot's placer inside Reset; episodes start in phase 2, round 1.\n\n")
	default:
		f("- botarena: the fleets are placed uniformly at random (ship by ship) inside Reset; episodes start in phase 2, round 1.\n\n")
	}
	f("## Phase 2: commands (command.txt `code,x,y`)\n\n")
	f("- 1 single (x,y); 2 (x,y±1); 3 (x±1,y); 4 the four diagonal neighbours; 5 centre and diagonal neighbours; 6 centre and orthogonal neighbours; ")
	f("7 seeker: the nearest unhit, unshielded ship cell within distance 2 (ties: lower x, then lower y), else the centre; 8 shield on your own map.\n")
	f("- Patterns are clipped to the map and charge full cost even when nothing is left; a single shot or a seeker fallback off the map fails and costs nothing.\n")
	f("- Special weapons need their ship afloat as of the previous round's end; a failed command costs nothing.\n")
	f("- Shield: charges every 7 rounds (absolute, phase 1 included) while inactive; radius min(charges, %d); placing needs a charge and no active shield, is free, ", maxShieldRadius(n))
	f("goes before the opponent's shot that round, and protects for as many rounds as it had charges; shots on shielded cells only mark ShieldHit.\n\n")
	f("## A round, in the engine's order\n\n")
	f("1. Shields that ran out are dropped (phase 2).\n2. Commands, A then B, except that a lone shield goes first.\n")
	f("3. Ships' Destroyed flags are refreshed.\n4. Energy is granted and shields charge (phase 2).\n5. Players with no ship left are killed; the opponent gets 100.\n\n")
	f("## End and ranking\n\n")
	f("- The game ends when at most one player is alive, or after round %d (phase-1 rounds count).\n", n*n+5)
	f("- Leaderboard: alive first, points, the round of the first landed hit, failed placements, then A. The original never declares a draw; ")
	f("botarena reports a complete tie as a draw (reward 0) while still naming A.\n")
	f("- Harness: 20 do-nothings in a row, or 5 failed placements, kill the player at the start of the next round (ship cells shot, points 0).\n\n")
	f("## botarena's decisions where the original crashes or is ambiguous\n\n")
	f("- After a harness kill the original crashes (B1); botarena processes the other player's command and ends the game at the end of that round, the killed player last.\n")
	f("- A place.txt in phase 2 would re-place the fleet (B3); botarena rejects it.\n")
	f("- Seats' randomness (the built-in placers) comes from the env's seeded generator.\n\n")
	f("## botarena\n\n")
	f("- Observation per seat: uint8 planes [%d,%d,%d] and %d float32 scalars; %d actions (0 nothing, 8 commands × %d² centres, 4 × %d² placements) with a mask.\n",
		numPlanes(cfg), n, n, NumScalars, NumActions(n), grid(n), n)
	if cfg.FleetPlanes {
		f("- fleet_planes: while a seat places its fleet (learn), planes %d-%d show the ships it has chosen so far this phase-1 round.\n", PlaneOwnSubmarine, PlaneOwnCruiser)
	}
	if cfg.DensityPlane {
		f("- density_plane: plane %d is each unshot opponent cell's chance of holding a ship as hunter reckons it from the seat's own shots, hits and sunk ships (the likeliest cell 255).\n", PlaneOppDensity)
	}
	if cfg.ShotMask {
		f("- shot_mask: the mask leaves out the shots that can land only on opponent cells the seat already shot (the engine still carries them out).\n")
	}
	if cfg.ShieldMask {
		f("- shield_mask: the mask leaves out the shield unless the opponent has hit one of the seat's afloat ships and the shield can cover every unhit cell of every afloat ship, and then every centre that does not (the engine still carries a masked shield out).\n")
	}
	f("- Reward: %s\n", RewardDefinition)
	return b.String()
}
