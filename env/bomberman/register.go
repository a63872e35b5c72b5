package bomberman

import (
	"fmt"
	"strings"

	"github.com/botarena/botarena/env"
)

var _ env.Env = (*Game)(nil)

// Registry names: "bomberman" is the 4-player tournament game; the presets
// change only the default player count (and with it the map side).
func init() {
	players := func(n int) func() *Config {
		return func() *Config { c := DefaultConfig(); c.Players = n; return c }
	}
	env.Register(env.Presets([]env.Preset[*Config]{
		{Name: "bomberman", Summary: "Entelect Challenge 2016 Bomberman, exact: 4 players on 21×21 (2–12 with players)", Config: players(4)},
		{Name: "bomberman/2p", Summary: "Entelect 2016 Bomberman, 2 players on 21×21", Config: players(2)},
		{Name: "bomberman/8p", Summary: "Entelect 2016 Bomberman, 8 players on 31×31", Config: players(8)},
		{Name: "bomberman/12p", Summary: "Entelect 2016 Bomberman, 12 players on 41×41", Config: players(12)},
	}, Rules, newGame, Kit{})...)
}

// Rules returns the rules as botarena implements them for cfg, in Markdown:
// the original's rules printout, with the code's behaviour where the
// original's README differs, and botarena's own decisions.
func Rules(cfg *Config) string {
	side := cfg.Side()
	rounds := side*side + 1
	if cfg.MaxRounds > 0 && cfg.MaxRounds < rounds {
		rounds = cfg.MaxRounds
	}
	generator := "random"
	if cfg.PowerUps == PowerUpsDistance || (cfg.PowerUps != PowerUpsRandom && cfg.Players == 4) {
		generator = "distance-based (fair by Manhattan distance from each corner)"
	}
	var b strings.Builder
	f := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	f("# Entelect Challenge 2016 Bomberman — rules as implemented\n\n")
	f("botarena reproduces the official engine (release 1.2.6, the code, quirks included). ")
	f("This game: %d players on a %d×%d map, at most %d rounds.\n\n", cfg.Players, side, side, rounds)
	f("## Map\n\n")
	f("- Coordinates are 1-based, x left to right, y top to bottom; \"up\" is y−1.\n")
	f("- Indestructible walls (`#`) on the border and on every cell with x and y both odd.\n")
	f("- Players start in the corners (then along the sides for more than 4), keys A, B, C, … in seat order.\n")
	f("- Destructible walls (`+`) with 35%% probability, generated for one quadrant and mirrored into the others; ")
	f("the 3×3 block around each player stays clear (the code's Euclidean distance < 2); walls are forced 3 cells from each player along the edges; ")
	f("the 5×5 area around the centre is filled with walls.\n")
	f("- Power-ups hide under destructible walls: %d bomb-bag (`&`) and %d blast-radius (`!`) per quadrant, placed by the %s generator. ",
		bagPowerUpsPerPlayer*cfg.Players/4, radiusPowerUpsPerPl*cfg.Players/4, generator)
	f("The centre holds the super power-up (`$`).\n")
	f("- The map comes from the game seed through .NET's System.Random, exactly as the original: the same seed gives the original's map.\n\n")
	f("## Commands (move.txt: only the first character counts)\n\n")
	f("| code | command |\n| --- | --- |\n")
	f("| 1 | move up |\n| 2 | move left |\n| 3 | move right |\n| 4 | move down |\n| 5 | place a bomb |\n| 6 | trigger: the own bomb with the lowest timer gets timer 1 |\n")
	f("| 0, 7, 8, 9, anything else | do nothing |\n\n")
	f("- The first character is read as .NET's Char.IsNumber and (int)Char.GetNumericValue read it: any Unicode numeral counts by its numeric value, truncated ")
	f("(Arabic-Indic ٣ and Khmer ៳ are 3, ⑤ is 5, Ⅵ is 6, ½ is 0).\n")
	f("- One command per player per round, all applied in the same round in key order.\n")
	f("- A move fails into a wall, off the map, onto any bomb, into a player who stays, and when two players swap places. ")
	f("When several players move into the same cell, each rolls 0–99 and the lowest stays put, repeated until the targets are unique ")
	f("(botarena draws the rolls from the env's seeded generator; the original used the clock).\n")
	f("- A bomb is placed under the player if the bag has a bomb left and the cell has no bomb. ")
	f("Its timer is min(9, 3 × bag capacity) + 1: 4, 7, then 10.\n\n")
	f("## A round, in the engine's order\n\n")
	f("1. Explosions of the previous round are cleared; every bomb's timer goes down by 1.\n")
	f("2. Bombs at timer 0 explode, row by row; a blast reaching another bomb detonates it at once (a chain). ")
	f("Blasts reach the bomb's radius in four directions, pass through players, stop at walls (destroying destructible ones) and at other bombs.\n")
	f("3. Players and walls in a blast are marked destroyed; commands of players marked dead are ignored.\n")
	f("4. Commands: bombs and triggers act at once, then moves.\n")
	f("5. Players who moved into a blast are marked destroyed.\n")
	f("6. Power-ups under players are applied (even to players dying this round): bag +1; radius ×2; super: bag +1, radius ×2 and +50 points.\n")
	f("7. Marked walls and players are removed; exploded bombs leave the map and return to their owners' bags.\n")
	f("8. Points (below), then coverage.\n\n")
	f("## Points\n\n")
	f("- A destroyed wall gives 10 to every bomb that reached it; a killed player gives PlayerBounty to every bomb that reached them, and the victim loses PlayerBounty. ")
	f("PlayerBounty = (100 + 10 × destructible walls at the start) ÷ players.\n")
	f("- Bombs joined by a chain pool their points, and every distinct owner in the chain who is still alive receives the whole total ")
	f("(a wall reached by two bombs of one chain counts twice, as the engine's own tests expect).\n")
	f("- Coverage: 100 × cells ever visited ÷ cells that are not indestructible walls, truncated, recomputed each round while alive. Points = counter + coverage.\n\n")
	f("## End and ranking\n\n")
	f("- The game ends when fewer than 2 players are alive, or after round %d (rounds 0 to W×H are played, one more than the README says).\n", rounds-1)
	f("- Leaderboard: alive players first, then points (descending), then the round of death ascending (a player who died earlier ranks higher, as coded). ")
	f("The first entry wins, even if everyone is dead.\n\n")
	f("## Bots\n\n")
	f("- A bot that does nothing 20 rounds in a row gets a bomb placed for it; after a 21st do-nothing the harness sends Trigger every round ")
	f("and the bot is never asked again. Console seats are exempt")
	if len(cfg.ConsoleSeats) > 0 {
		f(" (here: seats %v)", cfg.ConsoleSeats)
	}
	f(".\n\n")
	f("## botarena\n\n")
	if r := cfg.ViewRadius; r > 0 {
		f("- Observation per seat: uint8 planes [%d,%d,%d], a window centred on the seat's player (own player first; off-map cells read as indestructible walls), and %d float32 scalars; 7 actions in the move.txt order, with a mask of the commands the engine would accept.\n",
			cfg.planes(), 2*r+1, 2*r+1, cfg.scalars())
	} else {
		f("- Observation per seat: uint8 planes [%d,%d,%d] (own player first) and %d float32 scalars; 7 actions in the move.txt order, with a mask of the commands the engine would accept.\n",
			cfg.planes(), side, side, cfg.scalars())
	}
	if cfg.TouchedPlanes {
		f("- touched_planes: planes 12 and 13 mark the cells the seat's own player and the other players have ever occupied.\n")
	}
	if cfg.OpponentScalars {
		f("- opponent_scalars: scalars 8–10 are the bomb bag, blast radius and points/100 of the alive opponent with the most points (0s when none).\n")
	}
	f("- Reward: %s\n", RewardDefinition)
	return b.String()
}
