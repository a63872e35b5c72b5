package battlebots

import (
	"fmt"
	"strings"

	"github.com/botarena/botarena/env"
)

var _ env.Env = (*Game)(nil)

// Registry names: "battlebots" is HEAD's game; "battlebots/10x10" the
// README's arena.
func init() {
	env.Register(env.Presets([]env.Preset[*Config]{
		{Name: "battlebots", Summary: "BattleBots (fergcb), exact: 1v1 on HEAD's 9×9 arena, bullets, missiles, landmines, EMP; one bout per episode", Config: func() *Config { c := DefaultConfig(); c.Arena = Arena9x9; return c }},
		{Name: "battlebots/10x10", Summary: "BattleBots on the README's 10×10 arena", Config: func() *Config { c := DefaultConfig(); c.Arena = Arena10x10; return c }},
	}, Rules, newGame, Kit{})...)
}

// Rules returns the rules as botarena implements them for cfg, in Markdown:
// the control program's HEAD, with where the README differs, and botarena's
// own decisions.
func Rules(cfg *Config) string {
	var b strings.Builder
	f := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	arena := "9×9: x and y in 1..9 (HEAD's bounds test `x > 0 && y > 0 && x < 10 && y < 10`; the README says 10×10)"
	if cfg.Arena == Arena10x10 {
		arena = "10×10: x and y in 0..9 (the README's arena and the initial commit's bounds; HEAD plays on 9×9)"
	}
	f("# BattleBots — rules as implemented\n\n")
	f("botarena reproduces the control program of fergcb/battlebots at HEAD (`033c1c1`), quirks included.\n\n")
	f("## Arena and bots\n\n")
	f("- A 10×10 ASCII grid; x is the column (0 at the left), y the row (0 at the top). Playable area: %s.\n", arena)
	f("- bot1 starts at (1,1), bot2 at (8,8), both with 10 HP. Distance is Chebyshev; \"adjacent\" means distance < 2, the same cell included.\n")
	f("- A bout lasts at most %d rounds and ends after any round in which a bot is below 1 HP. The higher HP wins the bout; equal HP (even both ≤ 0) is a draw. HP can go below 0.\n\n", cfg.rounds())
	f("## Actions (the bot's stdout, whitespace-trimmed, case-sensitive)\n\n")
	f("| action | effect |\n| --- | --- |\n")
	f("| `N` `NE` `E` `SE` `S` `SW` `W` `NW` | move one cell |\n")
	f("| `B <dir>` | fire a bullet: 3 cells a round, 1 damage |\n")
	f("| `M <dir>` | fire a missile: 2 cells a round, 3 damage to the bot hit and 1 to the other bot if adjacent (the README says 2) |\n")
	f("| `L <dir>` | lay a landmine on the neighbouring cell (refused off the arena) |\n")
	f("| `P` | EMP: costs the user 1 HP; the next two movement phases of both bots are skipped |\n")
	f("| `NO`, anything else | nothing (`B  E` with two spaces still fires; `b e`, `B`, `M X` do nothing) |\n\n")
	f("## A round, in the control program's order\n\n")
	f("1. Both bots see the same state (bot2's view is the same grid with Y and X swapped; coordinates are absolute).\n")
	f("2. Movement, unless paralysed (then the counter goes down by 1 and the landmine check is skipped too): bot1 moves if the target is in the arena and not bot2's cell; ")
	f("then bot2, against bot1's new cell; then bot1 tries again if it failed. Same target: bot1 gets it; a swap: neither moves; following: both move.\n")
	f("3. Landmine check: a mine (even one already exploded by a second mine) under bot1 costs it 2 and bot2 1 if adjacent; else under bot2 the same the other way; fired and exploded mines are then removed.\n")
	f("4. EMP: if bot1 sent P, the counter becomes 2 and bot1 pays 1; else if bot2 sent P, the same for bot2. When both send P only bot1 pays.\n")
	f("5. Weapons, bot1's then bot2's, from each bot's cell after moving. A mine laid onto a mine costs every bot adjacent to that cell 1 (the layer always), kills the old mine (which may still fire once at the next check) and is not laid itself. A mine may be laid under the enemy; it fires at the next unparalysed check if the enemy is still there.\n")
	f("6. Bullets (oldest first, 3 sub-steps each), then missiles (2 sub-steps): a hit is checked on every cell entered, bot1 first, and ends the projectile. ")
	f("A projectile that would leave the arena dies where it is; a missile then costs every bot adjacent to its cell 1, on every remaining sub-step, so a missile reaching the wall on its first sub-step splashes twice. ")
	f("A bot that steps onto a projectile's current cell is not hit by it. Projectiles never hit each other or set off mines.\n")
	f("7. The bout ends if a bot is below 1 HP.\n\n")
	f("## What a bot sees\n\n")
	f("The ASCII string: 10 grid lines (`.`, `B`, then `M`, then `Y` for itself and `X` for the enemy), then `Y hp=`, `X hp=`, and one `B x= y= dir=` and `M x= y= dir=` line per projectile. ")
	f("Landmines are never shown (the README says they are).\n\n")
	f("## Tournament\n\n")
	f("Round robin: every pair once, the bot listed first is always bot1; %d bouts per match; the most bout wins takes the match (a tie scores nothing). ", BoutsPerMatch)
	f("The table lists matches and bouts won per bot, in registration order. ")
	f("The original panics on a bot that crashes and waits forever on one that hangs; here a command-line bot (cmd:COMMAND) that cannot start, exits non-zero, runs past its time limit (10 s by default) or prints garbage does nothing (NO) that round, with a log line. ")
	f("The limit only stops a bot that hangs: it is thousands of times what a bot needs, so that a loaded machine that slows a bot down does not change the game (at the former 1 s default, a bot that answers in 2 ms missed rounds under load). ")
	f("Its stdout is read as the original reads it (exec.Cmd.Output, then TrimSpace), up to 4 KiB once every run of whitespace is squeezed to one character; longer output is garbage, which is also what the original made of it, since it accepts nothing longer than `B NE` between whitespace: the cap bounds botarena's memory and changes no game.\n\n")
	f("## botarena\n\n")
	f("- One episode is one bout. Observation per seat: uint8 planes [%d,10,10] (self, enemy, bullets and missiles by direction, own landmines) and %d float32 scalars (with `history` H above 0, %d more a round of history: each seat's own action and the enemy's as it saw it); ", NumPlanes, NumScalars, HistoryScalarsPerRound)
	f("34 actions: 0 nothing, 1–8 moves, 9–16 bullets, 17–24 missiles, 25–32 landmines (directions N, NE, E, SE, S, SW, W, NW), 33 EMP.\n")
	f("- Reward: %s\n", RewardDefinition)
	f("- Terminated when a bot drops below 1 HP; truncated when the %d-round cap ends the bout (the reward still carries the cap's HP result).\n", cfg.rounds())
	return b.String()
}
