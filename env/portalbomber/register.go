package portalbomber

import (
	"fmt"
	"strings"

	"github.com/botarena/botarena/env"
)

var _ env.Env = (*Game)(nil)

// Registry names: "portalbomber" is the original (11×11, alternating
// moves); "portalbomber/variant" is the design document's variant.
func init() {
	env.Register(env.Presets([]env.Preset[*Config]{
		{Name: "portalbomber", Summary: "UPE 2016 portal Bomberman, exact: 1 v 1 on 11×11, alternating moves, coins, shop, portals, apocalypse", Config: DefaultConfig},
		{Name: "portalbomber/variant", Summary: "UPE portal Bomberman, the design document's variant: 17×17, simultaneous moves, shop codes", Config: VariantConfig},
	}, Rules, newGame, Kit{})...)
}

// Rules returns the rules as botarena implements them for cfg, in Markdown.
func Rules(cfg *Config) string {
	var b strings.Builder
	f := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	n := cfg.Size
	f("# UPE portal Bomberman (\"deterministic Bomberman with portals\") — rules as implemented\n\n")
	f("botarena reproduces the UPE Fall 2016 AI competition engine (dubwub/F2016-UPE-AI, Game.js at HEAD), quirks included, ")
	f("except where the original crashes, hangs or mishandles a request (below). Spec: docs/specs/upe_bomberman.md.\n\n")
	f("This game: %d×%d board (border included), %s, apocalypse after move %d.\n\n", n, n,
		map[bool]string{false: "alternating single moves (0,1,1,0,0,1,…)", true: "simultaneous moves (the design document's variant)"}[cfg.Simultaneous], cfg.ApocalypseAfter)
	f("## Board\n\n")
	f("- x is the column, y the row, (0,0) top left; directions 0 left, 1 up, 2 right, 3 down. Flat boards in the JSON use index x·%d+y.\n", n)
	f("- Hard blocks on the border and where x and y are both even. Soft blocks with %d%% chance elsewhere, except (1,1),(1,2),(2,1) and (%d,%d),(%d,%d),(%d,%d); ", cfg.SoftDensity, n-2, n-2, n-2, n-3, n-3, n-2)
	f("forced at (3,1),(1,3),(%d,%d),(%d,%d). The generator is seeded (the original used Math.random).\n", n-2, n-4, n-4, n-2)
	f("- Block value: floor(10·|(%d−x)·x·(%d−y)·y| / (%d⁴/16)), at least 1: the coins for destroying a soft block there and the price of buy_block.\n", n-1, n-1, n-1)
	f("- Players start at (1,1) and (%d,%d), facing left, with 1 bomb, range 3, pierce 0, 0 coins.\n\n", n-2, n-2)
	f("## Moves\n\n")
	f("| action | move | effect |\n| --- | --- | --- |\n")
	for a := range Action(NumActions) {
		f("| %d | `%s` | %s |\n", a, moveStrings[a], actionDocs[a])
	}
	if cfg.VariantCommands {
		f("\nAlso read: `buy 00` range, `buy 01` bomb count, `buy 02` pierce, `buy 03` block; `u` `l` `r` `d` moves.\n")
	}
	f("\n- Walking into a block through a portal face pointing at you, whose owner has both portals, comes out of the partner portal (any player may use any pair); a blocked exit fails the move.\n")
	f("- A portal shot travels along the orientation past bombs, players and trails to the first block and sits on the face pointing back; it replaces the shooter's portal of that colour and any portal on that face.\n\n")
	f("## Round end (after both players moved)\n\n")
	f("1. Apocalypse, once moveNumber > %d: two fire heads from (0,%d) going up and (%d,0) going down leave permanent fire and spiral inward clockwise.\n", cfg.ApocalypseAfter, n-1, n-1)
	f("2. The move order rotates (each player moves twice in a row across a round boundary).\n")
	if cfg.Simultaneous {
		f("   With simultaneous moves a round is one step: purchases, portal shots, turns and moves (bumping on conflicts), then this round end with bombs placed after step 3.\n")
	}
	f("3. Bombs tick in placement order; at 0 a bomb explodes: arms left, up, right, down with the owner's current range and pierce; an arm covers the first obstacle (block, bomb, player) and pierce cells beyond; bombs hit explode at once; arms go through portals.\n")
	f("4. Trails resolve: soft blocks break and pay their value to every player with a trail there; players die unless standing on a bomb. Trails last two round ends; fire is permanent.\n")
	f("5. Victory: one player alive wins; none alive is a tie.\n\n")
	f("## botarena's decisions\n\n")
	f("- A blast through a portal keeps its owner (the original lost it and could crash paying coins to \"undefined\").\n")
	f("- Portal loops end: a walk through more than %d portals in a row fails; such a blast arm stops.\n", maxPortalHops)
	f("- An out-of-turn move is refused without side effects (and counted).\n")
	f("- A player standing on a bomb survives trails and fire on that cell, as coded.\n")
	f("- No clocks: the original's timeouts (abort before 3 moves, else loss) are not modelled.\n\n")
	f("## botarena\n\n")
	f("- Each env step is one move by the seat to move (the other seat may only wait); with simultaneous moves, one round.\n")
	f("- Observation: uint8 planes [%d,%d,%d] and %d float32 scalars; %d actions with a mask.\n", NumPlanes, n, n, NumScalars, NumActions)
	if cfg.SafeMask {
		f("- Safe mask: the mask also leaves out the actions after which no walk (through portals) survives the bombs, trails and fire on the map for the next 8 round ends, the other player standing still (a step into a dead end, a bomb with no way out, a buy of range or pierce that brings the player's own blast home); wait always stays, and when nothing else is safe the mask is the legal one. The engine still carries out a masked action.\n")
		if cfg.SafeMaskWary {
			f("- Wary safe mask: first only the actions after which an escape remains whatever the other player does with its next moves (wait, a step, a bomb), as raider judges; the plain safe mask when none is.\n")
		}
	}
	f("- Reward: %s.\n", RewardDefinition)
	return b.String()
}

var actionDocs = [NumActions]string{
	"wait",
	"move left (turn left even if blocked)", "move up", "move right", "move down",
	"turn left", "turn up", "turn right", "turn down",
	"place a bomb (tick 5) if one is available and the cell has none",
	"shoot the orange portal", "shoot the blue portal",
	"5 coins: +1 bomb", "5 coins: +1 range", "5 coins: +1 pierce",
	"a soft block on the faced empty cell, for its value",
	"an unknown move string: the turn is used up, nothing happens",
}
