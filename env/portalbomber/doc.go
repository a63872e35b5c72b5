// Package portalbomber is UPE "deterministic Bomberman with portals" (the
// Fall 2016 UPE AI competition at RPI), exact to the original engine's code
// (dubwub/F2016-UPE-AI, Game.js and Player.js at HEAD; the rules
// specification is docs/specs/upe_bomberman.md in the botarena repository):
// the 11×11 board with its border and pillars, seeded soft-block generation,
// the alternating move order, every move string, walking and blasting
// through portals, bombs with range and pierce in the original's arm order,
// trails and cell resolution, coins from block values, the shop, the
// apocalypse spiral and the win/tie check. [Rules] prints the rules as
// implemented; `botarena rules portalbomber` shows them.
//
// # Model
//
// A [Game] is one match as a fixed-size value (up to [MaxSize]² cells, no
// maps, no pointers). With the original's alternating order one
// [Game.Step] is one move by the seat whose turn it is ([Game.ToMove]; the
// sequence is 0,1,1,0,0,1,…: each player moves twice in a row across a
// round boundary); the other seat may only wait, and a non-zero action from
// it is refused without side effects and counted ([Game.Invalid]). After
// the second move of a round the round end runs: apocalypse (once
// moveNumber > 400), move-order rotation, bombs in insertion order, trails,
// victory check. With [Config.Simultaneous] (the design document's variant)
// a step is a round: purchases in seat order, portal shots in seat order,
// turns and moves at once (two players aiming at one cell or swapping both
// stay; a player moving into one who stays, stays), then the round end with
// bombs placed after the bomb step, before the trail step.
//
// Seeds: [Game.Reset](seed) draws the soft blocks from a PCG generator
// seeded with seed, one draw per eligible cell in the original's order,
// where the original called the unseeded Math.random.
//
// # Actions
//
// The 17 actions and the move strings they stand for ([Game.ParseCommand]):
//
//	0  Wait          ''          nothing (the only action of a seat not to move)
//	1  MoveLeft      ml          step left (through portals); faces left even if blocked
//	2  MoveUp        mu          step up
//	3  MoveRight     mr          step right
//	4  MoveDown      md          step down
//	5  TurnLeft      tl          face left
//	6  TurnUp        tu          face up
//	7  TurnRight     tr          face right
//	8  TurnDown      td          face down
//	9  PlaceBomb     b           bomb with tick 5 on the own cell (needs a bomb, no bomb there)
//	10 OrangePortal  op          shoot the orange portal along the orientation
//	11 BluePortal    bp          shoot the blue portal
//	12 BuyCount      buy_count   5 coins: one more bomb available
//	13 BuyRange      buy_range   5 coins: range +1
//	14 BuyPierce     buy_pierce  5 coins: pierce +1
//	15 BuyBlock      buy_block   a soft block on the faced empty cell for its value
//	16 InvalidMove   (any other) the engine's "invalid move": the turn is used up, nothing happens
//
// The issue counts 17 actions; the sixteen moves of the original plus the
// invalid move (what an unknown string does, distinct from waiting only in
// being counted) make seventeen. Its mask bit is always 0.
//
// The mask ([Game.WriteMask]) is only action 0 for a seat that may not move
// (not its turn, dead, game over); otherwise every action the engine would
// carry out rather than ignore: moves and turns (a blocked move still
// turns), portal shots, a bomb when one is available and the cell has none,
// upgrades with 5 coins, buy_block on an empty faced cell the coins pay for.
// Actions with mask 0 do what the original does (nothing; the turn is used)
// and are counted.
//
// With [Config.SafeMask] the mask also leaves out the moves, bombs, buys
// and portal shots after which no walk (through portals) survives the
// bombs, trails and fire on the map for the next 8 round ends, as
// [Game.Forecast] shows them, the other player standing still: a step
// into a dead end of a blast, a bomb with no way out, a buy of range or
// pierce that makes the player's own bomb reach it (range and pierce are
// read when a bomb goes off). It is the built-in bots' escape check
// (safemask.go). [Config.SafeMaskWary] judges first as [Raider] does,
// against every reply of the other player before the player's next move
// (wait, a step, a bomb), falling back to the plain check when nothing is
// safe under it. Wait always stays, and when nothing else is safe the
// mask is the legal one; Step still carries out any action.
//
// # Observation
//
// Tensor "planes", uint8 [C,H,W] with C = [NumPlanes] = 18 and H = W = the
// board side n (11 by default). The value for plane c at cell (x, y), x the
// column and y the row, (0,0) top left, is at
//
//	index = c*n*n + y*n + x
//
// (the original's JSON boards are x*n + y; the planes are row-major like an
// image). Planes, from the observing seat's perspective:
//
//	0  PlaneHard            1 on hard blocks (border and pillars)
//	1  PlaneSoft            1 on soft blocks
//	2  PlaneBlockValue      the block value of every cell (coins for breaking a
//	                        soft block there, price of buy_block there), 1–10
//	3  PlaneOwnBombs        tick (1–5) of the seat's bombs
//	4  PlaneOpponentBombs   tick of the opponent's bombs
//	5  PlaneOwnTrails       tick (1–2) of the seat's explosion trails
//	6  PlaneOpponentTrails  tick of the opponent's explosion trails
//	7  PlaneFire            1 on apocalypse fire
//	8–15 PlanePortals       plane 8 + 4*colour + face (colour 0 orange, 1 blue;
//	                        face = the direction the portal points): 1 on the
//	                        block holding the seat's portal, 2 the opponent's
//	16 PlaneSelf            1 on the seat's player (0 once dead)
//	17 PlaneOpponent        1 on the opponent
//
// Tensor "scalars", float32 [12], little-endian, raw values: 0 coins, 1
// bombs available, 2 range, 3 pierce, 4 orientation (0–3) of the seat; 5–9
// the same for the opponent; 10 moveNumber; 11 whose turn: 1 if the seat's
// action counts in the next step (always, while alive, with simultaneous
// moves).
//
// # Native formats
//
// "state.json" (canonical) is the state object the original server sends
// player i: gameID, playerID, state, boardSize, player, moveOrder,
// moveIterator, playerIndex, opponent, hardBlockBoard, softBlockBoard,
// trailMap, bombMap, portalMap, moveNumber, in the order sanitizedForm
// builds it (moveNumber last: the commit that added it appended it), with the map
// entries in JavaScript's key order (insertion order; trail owners "0",
// "1", then "-1"). The ids are deterministic 24-hex-digit Mongo-style ids
// derived from the seed. [Game.LoadNative] reads it back strictly, with
// errors that name the JSON path. "board.txt" is a text picture for
// `play --pretty`. [Game.Paint] draws the picture ([picture.Painter]): blocks,
// trails, apocalypse fire, bombs with their ticks, players facing their
// orientation, portals, and a strip with each seat's coins and stats.
//
// # Decisions on the original's bugs (spec §10)
//
//   - §10.1 A blast through a portal keeps its bomb's owner. The original
//     dropped it: trails after a portal had owner "undefined", and such a
//     trail reaching a soft block threw a TypeError in the trail step. Here
//     the owner is paid, as the code evidently meant; the loader refuses
//     owner "undefined".
//   - §10.2 Portal loops end: a walk that passes more than 4 portals in a
//     row (there are at most 4) fails, and a blast arm that does so stops.
//     The original recursed forever.
//   - §10.3 A player standing on a bomb survives trails and fire on that
//     cell until the bomb explodes, as coded.
//   - §10.4 Lingering trails and fire never detonate bombs; only arms do, as
//     coded.
//   - §10.5 buy_block onto a trail cell is allowed, as coded.
//   - §10.7 An out-of-turn move is refused without side effects (the
//     original's wrapper threw), counted in [Game.Invalid].
//   - §10.8 Soft blocks come from the seeded generator.
//   - §8 The apocalypse head turns right while the cell ahead is off the
//     board or burning, at most four times; the spiral matches the §8 table.
//   - A portal shot that leaves the board (possible only on a loaded board
//     without a border) does nothing; the original would loop.
//   - The original's timeouts have no clock here; [Game.TimeOut] applies
//     their outcome (abort before 3 moves, else the player to move loses)
//     for the UPE HTTP server (agents/upe), which keeps the clock. The
//     "aborted" state and a "complete" state with both players alive (a
//     timeout result) do not load.
//
// # Variant (spec §13, the design document)
//
// "portalbomber/variant" ([VariantConfig]): a 17×17 board (border included;
// 15×15 inside, the nearest odd size to the document's 16×16, so the
// pillars at even coordinates stay symmetric and the start cells (1,1) and
// (15,15) stay free); block values by the formula generalised to n
// (floor(10·|(n−1−x)·x·(n−1−y)·y| / ((n−1)⁴/16)), at least 1, 10 at the
// centre); the same start stats, prices, ticks, cleared and forced cells
// (mirrored with n) and 70% density; the apocalypse after moveNumber 400
// (moveNumber still counts both players' moves, so that is 200 rounds, the
// document's "200 turns"), spiralling as on 11×11; simultaneous moves; and
// the document's shop codes "buy 00" (range), "buy 01" (bomb count),
// "buy 02" (pierce), "buy 03" (block) and moves "u" "l" "r" "d" next to
// the original's strings. Kicks, clones and ghosts, which the document
// leaves undecided, are not implemented.
//
// # Results
//
// Rewards are terminal: +1/−1 by the original's victory check, 0 on a tie
// or truncation ([Config.MaxRounds]); [Config.CoinsReward] adds shaping
// for the coins a seat earns. [Game.Result] counts Rounds as the
// original's rounds (two moves each); Score is coins.
package portalbomber
