// Package battlecube is Battle³ (battlecube), the bots-in-a-cube game of the
// 2017 Web Dev and Sausage hackathon, exact to the original server's code
// (leomelin/battlecube; the rules specification is docs/specs/battlecube.md
// in the botarena repository): the tick loop in the server's order, the
// multi-task cycles (numOfTasksPerTick), collisions with bots and bombs,
// scores, winner and tie, the bot request and reply formats, and the
// socket.io event stream. [Rules] prints the rules as implemented;
// `botarena rules battlecube` shows them.
//
// # Model
//
// A [Game] is one match: up to [MaxPlayers] bots in a cube of edge up to
// [MaxEdge], and the bombs in placement order. One [Game.Step] is one tick
// (spec §3): used-up bombs removed, NEXT_TICK, the ask phase (rejected
// replies lose), every bot's task in player (seat) order, collisions, the
// status check, the end test. Seat order is the original's player order.
//
// # Actions
//
// One action per seat per tick: the task the bot carries out in this tick.
//
//	0                      NOOP
//	1..6                   MOVE +X, -X, +Y, -Y, +Z, -Z
//	7 + (z*E + y)*E + x    BOMB on cell (x, y, z) of the cube, E = edge
//
// so there are 7 + E³ actions ([NumActions], [BombAction], [BombCell]).
// With numOfTasksPerTick T > 1 the original asks a bot once per cycle of T
// ticks for T tasks; botarena takes the tasks one tick at a time, so a
// learner sees every tick's state while the original bots saw only the
// cycle's first (the built-in dumb and teebot agents plan the whole cycle
// at its first tick, as the originals). The scalar ScalarSubTick tells
// where in the cycle a tick is.
//
// Out-of-range actions stand for replies the server rejects, and count in
// [Game.Invalid]: [RejectSchema] (-2) a schema failure, [RejectConnection]
// (-3) a failed request, [RejectAmount] (-1, and any value not named here)
// a wrong task count. The seat is lost in that tick's ask phase (at any
// tick, since botarena asks every tick). Four more stand for tasks the
// server accepts that are none of the above, carried out at the seat's
// turn and also counted in Invalid: [CrashMove] (-4, a MOVE without a
// direction: lost at its turn with cause {}), [BombNowhere] (-5, a BOMB
// without coordinates), [Idle] (-6, another task name: nothing, no
// event) and [StrayMove] (-16 − unit, a direction whose axis is no axis).
// [Game.ParseCommand] returns them; the mask never offers them.
//
// # Observation
//
// Tensor "planes", uint8 [C,D,H,W] = [3,E,E,E]; the value of plane c at
// cell (x, y, z) is at
//
//	index = c*E*E*E + z*E*E + y*E + x
//
//	0 PlaneSelf    1 on the seat's own bot while it is in play
//	1 PlaneOthers  1 on every other bot in play
//	2 PlaneBombs   1 on every bomb the next tick shows
//
// Tensor "scalars", float32 [4], little-endian: currentTick/maxTicks, bots
// in play, (sub-tick − 1)/T of the coming tick (0 when bots are asked),
// and 1 while the seat is in play.
//
// With Config.History the scalars are float32 [7]: the four above, then
// the seat's history (its ticks: those it was in play at the start of;
// standing still: ending the tick's tasks on the cell it started it on):
//
//	index 4 ScalarStillShare   (ticks stood still)/(ticks), 0 before any
//	index 5 ScalarStillRun     min(r, HistoryRunCap)/HistoryRunCap for the
//	                           r ticks in a row stood still up to now
//	index 6 ScalarOthersStill  mean ScalarStillShare of the other bots in
//	                           play, 0 when none is
//
// Reset and LoadNative start every history at zero (a loaded state has
// none).
//
// With Config.CycleMarks, 14 more scalars follow all the others, from
// index o = [CycleMarksOffset] (4, or 7 with Config.History). A bot's
// cycle-start cell is where it stood when bots were last asked: at the
// start of the coming tick's cycle of T ticks (its cell now when the coming
// tick starts one, always when T = 1; a loaded state's cycle starts at its
// cells). For d = 0..6, the seat's cell (d = 0) and its neighbour by move
// action d (+X, −X, +Y, −Y, +Z, −Z):
//
//	index o+d    1 if that cell is the seat's own cycle-start cell
//	index o+7+d  1 if it is the cycle-start cell of another bot in play
//
// and 0 otherwise, off the cube, and for a seat out of play. The original
// bots plan a cycle from its first state only (teebot bombs its targets'
// cycle-start cells), which the other tensors no longer show.
//
// With Config.TasksScalar one more scalar follows all the others: 1/T
// (1 with one task per tick), the same for every seat and tick. Without
// it a cycle's first tick and a one-task cube's ticks look alike.
//
// The mask marks every action legal while the seat is in play (the server
// accepts any task; moving out of the cube or bombing one's own cell are
// legal losses); Config.SafeMask masks those two. A seat out of play and a
// finished game have only NOOP.
//
// # Rewards and flags
//
// See [RewardDefinition]: −1 in the tick a seat is lost, +1 to the winner,
// 0 to bots left at the tick limit. Lost seats are terminated; when the
// game ends every seat is terminated, except the bots in play at the tick
// limit, which are truncated (the limit is a cap; the original calls the
// game a TIE). [Game.Result] ranks bots in play first, then by highScore;
// Score is highScore, which a batch of games sums as the champion
// tie-break (most wins first).
//
// # Native formats
//
// "request.json" (canonical) is the bot request body of the coming tick,
// keys in the order sent: currentPlayer (the seat; left out for seat −1),
// gameInfo {id, edgeLength, numOfTasksPerTick, numOfBotsInPlay,
// currentTick}, players, items. [Game.LoadNative] reads it. "events" is the
// socket.io stream of the last tick as JSON Lines {"event","data"} with the
// code's payloads: GAME_STARTED {id}; NEXT_TICK {gameInfo, players, items};
// PLAYER_MOVE_ATTEMPT {name,x,y,z} (the position object itself, stray
// properties included); PLAYER_PLACED_BOMB and PLAYER_DID_NOTHING
// {x,y,z,name} ({name} for a bomb without coordinates); PLAYER_LOST
// {cause, name}, as game.ts's playerLost builds it; GAME_ENDED {winner?,
// scores, id, result}. [Game.ParseCommand] reads a bot's task array as the
// server's JSON.parse and Joi 11 validation do; [ErrorEvent] is the ERROR
// event of an invalid config. [Game.Paint] draws the picture
// ([picture.Painter]): the cube's z-layers side by side with the bots, lost
// bots, bombs and last tick's collisions, and a strip with the tick and
// each seat's state.
//
// # Decisions (spec §10, README versus code, and what the original cannot do)
//
//  1. Duplicate start cells: allowed, as the code does (its re-roll checks
//     an empty list); Config.DistinctStarts re-rolls instead. Start cells
//     come from a PCG generator seeded with the env seed, each coordinate
//     uniform in 0..E−1 as getRandomInt draws them.
//  2. playerStartPositions: the socket validator rejects every usable
//     value; botarena takes Config.StartPositions (one in-cube cell per
//     seat, in seat order), as the original's tests build a Game directly.
//  3. Tick limit: the code's equality test; max_ticks is required (≥ 1) as
//     the validator requires maxNumOfTicks, and setups never change, so
//     the limit always fires. The original's test g5 leaves it out.
//  4. Mid-game setup changes (GAME_SETUP_UPDATE): not offered. The code
//     ignores edge changes and only breaks bots on task-count changes; the
//     README's re-positioning was never implemented. speed is validated
//     and ignored.
//  5. Replies are read as the original reads them (spec §5, §10.5):
//     JSON.parse of the body decoded as UTF-8 (a maximal invalid byte
//     sequence is one U+FFFD), then Joi 11.1.1's schema with its
//     conversions: a JSON string holding the array or an element is
//     parsed; a coordinate string is parseFloat of it when Number() of it
//     is finite ("0x3", "0b11", "0o7" are 0; JavaScript whitespace such as
//     U+FEFF is trimmed, U+0085 is not), and integer() is
//     Number.isSafeInteger (2⁵³ fails); a "__proto__" key is never an
//     unknown key, and in an element sent as an object it lends its keys
//     (Joi's copy makes it the prototype). A direction is lower-cased by
//     full Unicode case mapping (U+0130 gives two code units, a final Σ is
//     ς) and split into UTF-16 code units; the second names the property
//     changed. What the six moves, NOOP and in-cube bombs cannot express
//     has its own out-of-range action (see Actions), carried out as the
//     original does. Joi's schema details are not reproduced: a schema
//     failure's details is a fixed one-entry array.
//  6. Bombs outside the cube: kept in items as the original keeps them
//     (loaded states may hold up to [MaxOutsideBombs]); the action space
//     cannot place them, so ParseCommand reads them as NOOP, ok false, and
//     so it reads a bomb whose coordinates only a "__proto__" key gives
//     and that is no cube cell (Joi does not validate those).
//  7. Bots lost in the ask phase or out of bounds take part in the tick's
//     collisions and may be reported lost twice, as coded.
//  8. outOfBoundsPlayers is never filled in the original: out-of-bounds
//     losses go through lostPlayers only, here too.
//  9. Loss causes are a string, {error, details} or {} (connection
//     errors), as sent.
//  10. A one-player game ends after its first tick (WINNER_FOUND if the
//     bot survives). Players may be 1.
//  11. Payloads follow the code, not the README: PLAYER_MOVE_ATTEMPT has
//     {name,x,y,z}, GAME_ENDED has scores with highScore. PLAYER_LOST is
//     {cause, name}, the order in which game.ts's playerLost builds it.
//  12. Bots are asked each tick in botarena (see Actions); a bot that dies
//     mid-cycle is out, as coded.
//  13. placeBomb's dead lookup of the current collisions has no effect and
//     is left out.
//  14. Stray properties and the bomb without coordinates stay, as in the
//     original: a move along an axis that is not x, y or z sets that
//     property of the bot's position object to NaN, so every later
//     NEXT_TICK, bot request and PLAYER_MOVE_ATTEMPT of the bot carries
//     "a":null (array-index names "0"–"9" first, as JavaScript orders
//     them; "undefined" for a one-character direction; a lone surrogate
//     written \udXXX, as Node 12 and later write it, where the Node of
//     2017 wrote it raw and the UTF-8 wire made it U+FFFD); a BOMB without
//     coordinates adds an item with x, y, z undefined, sent as
//     {"type":"BOMB"} in every later items list, never used up, and
//     placed once. LoadNative reads both back. botarena keeps at most
//     [MaxStrayKeys] stray properties per bot (later ones are not added;
//     the original has no limit), the bomb without coordinates counts
//     among the [MaxOutsideBombs], and [Game.AppendItems] and
//     [Game.EachItem] leave it out, as it lies on no cell.
//
// Also: the id of GAME_STARTED, gameInfo and GAME_ENDED is Config.GameID
// (the original's socket id); urls are Config.URLs and an empty url is
// left out of currentPlayer and scores (the original tests' function urls
// vanish the same way in JSON). A finished game keeps its last bombs in
// view, as the original's last state does.
//
// # Concurrency
//
// A Game is not safe for concurrent use; vecenv gives each worker
// goroutine a disjoint range of envs. Reset, Step, WriteObs and WriteMask
// never allocate.
package battlecube
