// Package bomberman is Entelect Challenge 2016 Bomberman, exact to the
// official engine (release 1.2.6; the rules specification is
// docs/specs/bomberman2016.md in the botarena repository): the .NET System.Random map generator for 2–12
// players with both power-up generators, round processing in the code's
// order, the points and the leaderboard, the bot harness's 20-do-nothing
// rule, and the original's files (state.json, map.txt, roundInfo.json,
// move.txt). [Rules] prints the rules as implemented; `botarena rules
// bomberman` shows them.
//
// # Model
//
// A [Game] is one match as a fixed-size value: up to 41×41 cells, 12 players
// and 64 bombs, with no maps and no pointers. One [Game.Step] processes one
// round: every alive seat's command is applied in seat (key) order, as the
// engine receives bot commands. Actions are the move.txt codes: 0 nothing,
// 1 up, 2 left, 3 right, 4 down, 5 place bomb, 6 trigger.
//
// Seeds: [Game.Reset](seed) generates the map of game seed seed mod 2^31
// ([MapSeedFor]), so seeds below 2^31 give the original's maps. The
// collision rolls, which the original drew from a clock-seeded Random, come
// from a PCG generator seeded with the full seed; everything else is
// deterministic.
//
// # Observation
//
// Tensor "planes", uint8 [C,H,W] with C = [NumPlanes] = 12 and H = W = the
// map side (21, 31 or 41). The value for plane c at 1-based cell (x, y) is at
//
//	index = c*H*W + (y-1)*W + (x-1)
//
// The planes, from the observing seat's perspective (own player first):
//
//	0  PlaneSelf            1 on the seat's own player (all 0 once dead)
//	1  PlaneOpponents       1 on every other player still on the map
//	2  PlaneIndestructible  1 on indestructible walls
//	3  PlaneDestructible    1 on destructible walls
//	4  PlaneOwnBombs        the timer ("fuse") of each of the seat's bombs
//	5  PlaneOpponentBombs   the timer of each other player's bomb
//	6  PlaneBombRadius      the blast radius of every bomb (capped at 255)
//	7  PlaneDanger          rounds until a blast reaches the cell: the
//	                        smallest timer over the chain of bombs whose blast
//	                        reaches it (rays as the engine casts them on the
//	                        current map); 0 where no bomb reaches
//	8  PlaneExploding       1 where a blast reached in the last round
//	9  PlaneBagPowerUp      1 on visible bomb-bag power-ups
//	10 PlaneRadiusPowerUp   1 on visible blast-radius power-ups
//	11 PlaneSuperPowerUp    1 on the visible super power-up
//
// Power-ups under walls or players are hidden, exactly as state.json hides
// them from bots.
//
// With [Config.ViewRadius] r > 0 the planes are instead a player-centred
// window, H = W = 2r+1: the value for plane c at window cell (u, v),
// 0-based, is that of map cell (px-r+u, py-r+v), where (px, py) is the
// seat's player (its last cell once dead), at
//
//	index = c*H*W + v*W + u
//
// so the own player is always at (r, r). Cells off the map read as
// indestructible walls: 1 in PlaneIndestructible, 0 in every other plane.
//
// With [Config.TouchedPlanes] C = [NumPlanesTouched] = 14: two planes
// follow the 12, in either layout (0 off the map in the window):
//
//	12 PlaneSelfTouched       1 on every cell the seat's own player has
//	                          occupied in this game (its start cell
//	                          included; what coverage counts)
//	13 PlaneOpponentsTouched  1 on every cell some other seat's player has
//
// A cell is touched when a player is placed on it or moves onto it, and
// stays touched until Reset (dead players' cells included). They are
// per-seat planes like 0, 1, 4 and 5, so the spec's Shared list is the same
// 8 planes. A game loaded from state.json counts only the players' current
// cells as touched (below).
//
// Tensor "scalars", float32 [8], little-endian:
//
//	0 ScalarRoundFraction   CurrentRound / rounds in the game
//	1 ScalarBombBag         bag capacity
//	2 ScalarBombsLeft       capacity minus the seat's bombs on the map
//	3 ScalarBombRadius      blast radius
//	4 ScalarPoints          points / 100
//	5 ScalarAlive           1 while alive
//	6 ScalarOpponentsAlive  other players alive
//	7 ScalarIdle            consecutive do-nothings / 20 (0 for console seats)
//
// With [Config.OpponentScalars] the vector has [NumScalarsOpponent] = 11:
// three more of the strongest opponent, the other seat alive with the most
// points (the lowest seat on a tie), the one whose value [Planner]'s
// rollouts subtract; all three 0 when no other seat is alive:
//
//	8  ScalarOpponentBombBag     its bag capacity
//	9  ScalarOpponentBombRadius  its blast radius
//	10 ScalarOpponentPoints      its points / 100
//
// The action mask (7 entries) marks the commands the engine would accept
// this round: a move onto the map that is not into a wall or a bomb (a
// player there may still move away, so the cell counts), a bomb when the bag
// has one left and the cell has none, a trigger when the seat has a bomb
// that will not explode before commands (neither timer 1 nor chained to such
// a bomb). The mask cannot know the other seats' actions of the same round:
// a move toward a player who plants a bomb in that round is masked legal and
// then rejected by the engine, as the original would.
//
// Do nothing is legal (but under [Config.SafeMaskStrict]); it is the only legal action of a dead seat, of
// a seat the do-nothing rule has taken over, of a seat whose player a blast
// kills before commands (danger 1 on its cell: the engine ignores its
// command), and of a finished game.
//
// With [Config.SafeMask] the mask also leaves out the moves, bombs and
// triggers after which no sequence of moves survives the bombs on the map
// as their fuses and chains stand (hunter's simulation; opponents'
// triggers are not foreseen), unless nothing else is left: certain deaths
// by the player's own hand, which a learner then never explores. Do
// nothing stays legal. Only the mask changes; the engine is the same.
// [Config.SafeMaskWary] makes it foresee the opponents too: it judges
// first with their bombs triggered now and a bomb planted where each of
// them stands, triggered next round (how hunter traps a player), and
// falls back to fewer assumptions when nothing survives them.
// [Config.SafeMaskStrict] judges Do Nothing as well: a wait that is certain
// death is masked out when another action is safe (the one case where the
// mask clears action 0).
//
// # Rewards and flags
//
// See [RewardDefinition]. A seat is terminated when its player dies or the
// game ends by elimination; alive seats are truncated when the round cap
// (W·H+1 rounds, or Config.MaxRounds) ends the game.
//
// # Native formats
//
// [Game.AppendNative] writes "state.json" (byte-exact Newtonsoft output:
// minified, the original's key order and $type strings, no HTML escaping;
// GameBlocks as columns), "map.txt" (LF, or CRLF with Config.MapCRLF) and
// "roundInfo.json"; every seat sees the same files, since the only hidden
// information, power-ups under walls and players, is never written.
// [Game.ParseCommand] reads move.txt as the harness does
// (BotRunner.GetBotCommandFromFile): the first UTF-16 code unit only,
// after File.ReadAllText's byte-order-mark detection; a numeral (Unicode
// category Nd, Nl or No, .NET's Char.IsNumber) whose numeric value
// truncates to 1–6 is that command ((int)Char.GetNumericValue: "٣" and
// the Khmer "៳" are 3, "Ⅵ" 6), any other numeral is do nothing; anything
// else is do nothing and reported as malformed. [Game.LoadNative] reads state.json in the current schema and
// in the older one without PlayerBounty (then 100, the engine default, and
// the writers leave the key out again, so the official sample round-trips
// byte for byte). A file does not record everything the engine keeps, so a
// loaded game starts with: each alive player's current cell as the only
// cell touched (coverage recomputed from it, and the points counter set so
// that Points is unchanged), KilledRound 0 for dead players, no do-nothing
// count, and the round's explosions as "some bomb reached this cell".
// Power-ups under entities in the input are kept, hidden. The loader checks
// the whole file and reports the first problem with its JSON path; on error
// the game is unchanged.
//
// [Game.Paint] draws the state as a picture ([picture.Painter], sized by
// [PictureSize]): walls, blasts, danger, power-ups, bombs with their timers
// and players in their seat colours (the dead greyed), over a status strip
// with the round and each seat's points, bombs left and blast radius; seat
// -1 also sees the power-ups hidden under walls.
//
// # Decisions where the original crashes, is not reproducible, or is ambiguous
//
//   - Movement collisions: rolls from the env's seeded generator (above),
//     an unbiased draw in 0–99.
//   - The distance-based generator would crash if a planned distance had no
//     wall left in some quadrant; botarena leaves that slot empty. It has
//     not happened on any seed tried.
//   - The map can hold at most [MaxBombs] bombs; a plant beyond that fails as
//     if the bag were empty. Generated games cannot reach it. A plant is
//     refused when the seat's bombs on the map reach its capacity (the
//     original tests equality, which differs only for loaded states holding
//     more bombs than the bag).
//   - map.txt draws a bomb whose timer is 10 or more, with its owner
//     elsewhere, as '9' (the original would crash converting "10" to a
//     character; a new bomb's owner is always on it, so this needs a loaded
//     state).
//   - The second kill pass runs when at least one seat was alive at the
//     start of the round (the original: when at least one command was
//     received, which in a real game is always).
//   - Detonation visits due bombs in bomb-slot order rather than row-major;
//     the cells reached, the chain graph and the points do not depend on the
//     order (spec §4.3).
//   - Blast radius doubles without limit in Go's int; C#'s int32 would
//     overflow after 31 doublings, which no 4-player game can reach (at
//     most 17 radius power-ups exist there).
//   - [Game.Invalid] counts out-of-range actions and commands the engine's
//     validation rejects; it does not count collision losers, moves blocked
//     when executed, or the actions of dead or taken-over seats.
//
// # Concurrency
//
// A Game is not safe for concurrent use; vecenv gives each worker goroutine
// a disjoint range of envs. Step, WriteObs and WriteMask never allocate.
package bomberman
