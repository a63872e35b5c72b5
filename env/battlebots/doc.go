// Package battlebots is BattleBots (github.com/fergcb/battlebots), the 1v1
// arena shooter, exact to the control program's HEAD (033c1c1; the rules
// specification is docs/specs/battlebots.md in the botarena repository):
// the 9×9 playable area of HEAD's bounds test (the README's 10×10 as
// [Config.Arena]), starts (1,1) and (8,8), 10 HP, the round order (render,
// movement with bot1's priority and retry, landmine check, EMP with its
// counter and bot1's precedence, deployment, bullets then missiles in
// sub-steps with hits on every intermediate cell, the double wall splash,
// dead mines that still fire once), the 1000-round bout and the bout and
// match results. [Rules] prints the rules as implemented; `botarena rules
// battlebots` shows them.
//
// # Model
//
// A [Game] is one bout as a fixed-size value: two bots, up to
// [MaxBullets] bullets and [MaxMissiles] missiles in list order, a landmine
// flag per cell, the paralysis counter and the round. Seat 0 is bot1 (the
// bot the original registered first, which wins every tie of the rules),
// seat 1 is bot2. One [Game.Step] is one round; both seats act at once, as
// the original runs both bots on the same rendering before applying either
// action. The bout has no randomness: [Game.Reset]'s seed is ignored.
//
// Actions (34), with action 0 the original's "NO":
//
//	0       nothing (NO)
//	1–8     move N, NE, E, SE, S, SW, W, NW
//	9–16    B <dir>  bullet, same direction order
//	17–24   M <dir>  missile
//	25–32   L <dir>  landmine
//	33      P        EMP
//
// so action = 1 + 8·kind + dir for kind 0 move, 1 bullet, 2 missile,
// 3 landmine and dir 0 N … 7 NW ([Action], [Dir]).
//
// # Observation
//
// Tensor "planes", uint8 [C,H,W] with C = [NumPlanes] = 19 and H = W = 10,
// the original's ASCII grid with absolute coordinates (both seats see the
// same orientation, as the original's bots do; row 0 and column 0 are
// outside the default 9×9 arena and always 0). The value for plane c at
// cell (x, y) is at
//
//	index = c*100 + y*10 + x
//
// The planes, from the observing seat's perspective:
//
//	0      PlaneSelf      1 on the seat's bot
//	1      PlaneEnemy     1 on the enemy bot
//	2–9    PlaneBullets   bullets flying N, NE, …, NW: how many on the cell
//	10–17  PlaneMissiles  missiles flying N, NE, …, NW: how many on the cell
//	18     PlaneOwnMines  1 on each landmine the seat laid that is still in
//	                      the game (exploded ones included until removed)
//
// Landmines: the original never shows them to bots. A seat sees only its
// own, which a bot could track itself by remembering where it laid them;
// the enemy's mines stay invisible. Projectiles are shown where they are,
// also under bots (the ASCII grid hides them there; the stats lines do not).
//
// Tensor "scalars", float32 [4], little-endian:
//
//	0 ScalarHP             own HP / 10 (can go below 0 at the end)
//	1 ScalarEnemyHP        enemy HP / 10
//	2 ScalarParalysed      paralysis counter / 2: the next movement phases
//	                       an EMP skips (1, 0.5 or 0)
//	3 ScalarRoundFraction  rounds played / the round cap
//
// With Config.History H (1..8; default 0, off) the scalars are float32
// [4 + 26·H]: the four above, then for k = 1..H (k = 1 the round just
// played) 26 values at index 4 + 26·(k-1): the seat's own action of k
// rounds ago as it chose it (13 values), then the enemy's as the seat
// could see it in the arena (13 values; see [Game.Shown]: a landmine
// never shows, a move only when the enemy's cell changed, a shot only
// when its projectile is in flight after the round or cost a bot HP,
// bot2's EMP not when bot1's won). An action's 13 values are a one-hot
// kind (0 move, 1 bullet, 2 missile, 3 landmine, 4 EMP) and a one-hot
// direction (5..12, N..NW; none for an EMP); nothing, and a round not
// played since the last Reset or LoadNative, is all zeros. These are the
// enemy's past actions the duelist and the warden infer from how the
// arena changed, for their opponent models.
//
// The action mask (34 entries) marks Nothing, the 8 bullets, the 8
// missiles and the EMP as always legal (the original always deploys them;
// a bullet fired into the wall dies at once, a missile into the wall
// splashes); a move is legal when the next movement phase is not paralysed
// and its target is inside the arena (the enemy's cell counts, since the
// enemy may move away first: bot1's retry); a landmine when its target
// cell is inside the arena. A finished bout allows only Nothing.
// [Game.Invalid] counts the actions taken that were out of range or masked
// illegal; they do exactly what the original does with them: nothing.
//
// # Rewards and flags
//
// One episode is one bout. See [RewardDefinition]: +1/−1 by the original's
// bout result (higher HP), 0 each on a draw, on the last step only; the
// optional hp_reward shaping adds the HP swing every step. Both seats are
// terminated when a bot drops below 1 HP. When the 1000-round cap
// ([Config.MaxRounds]) ends the bout, both seats are truncated instead
// (the episode was cut by time, as Gymnasium's TimeLimit does and as
// bomberman flags its round cap), and that last step's reward still
// carries the original's result at the cap (higher HP wins, else a draw).
//
// # Native formats
//
// "arena.txt" ([FormatArena]) is the ASCII arena string a bot receives as
// its last command-line argument, byte for byte ([Game.AppendNative] for
// seat 0 or 1; landmines invisible, as coded). Seat -1 (the referee) adds
// the hidden state: L cells on the grid and "L x= y= by=Y|X [dead]",
// "P paralysed=" and "R round=" lines; [Game.LoadNative] reads bot1's
// view with those lines, so scenarios can place mines (`L x=4 y=3`) and
// the referee view round-trips. Mines are listed row-major: the original
// keeps them in laying order, which no rule depends on (only the mines
// under the two bots can fire, their damage adds up, and a cell never
// holds two). [Game.ParseCommand] reads a bot's stdout exactly as the
// control program does (TrimSpace, case-sensitive, exactly two fields for a
// weapon); [Game.AppendCommand] writes the canonical command. Scenario
// files give each round as [bot1 command, bot2 command] and print bot1's
// view after every round. [Game.Paint] draws the picture ([picture.Painter]):
// the walled arena with the bots and their HP, bullets, missiles, the mines
// the seat may see and the EMP, and a strip with HP bars and the round.
//
// # Decisions where the original crashes, hangs or is ambiguous
//
//   - Bots are functions here, so the process protocol (spec §6) applies
//     only to command-line bots (the agent spec "cmd:COMMAND", see
//     agents/cmdbot): a run that cannot start, exits non-zero, runs past
//     its time limit (10 s by default, far above what a bot needs, so that
//     a loaded machine does not change the game; the original has none)
//     or prints garbage is the do-nothing action NO for that round, with a
//     log line, where the original panics or waits forever. Stdout over
//     4 KiB once every run of whitespace is squeezed to one character is
//     garbage: the original read it all, but accepts nothing longer than
//     "B NE" between whitespace, so the cap changes no game.
//   - The lists of projectiles are bounded ([MaxBullets], [MaxMissiles]);
//     a bout cannot fill them (a bullet lives at most 3 rounds and a
//     missile 5, one shot per bot per round), and a shot that finds the
//     list full (only after loading such a state) is dropped.
//   - The README's rules (missile damage 2, no wall splash, visible
//     mines) are not offered; only its 10×10 arena is ([Arena10x10], the
//     registry preset "battlebots/10x10").
//
// # Concurrency
//
// A Game is not safe for concurrent use; vecenv gives each worker
// goroutine a disjoint range of envs. Step, WriteObs, WriteMask, Reset and
// Outcome never allocate.
package battlebots
