// Package battleships is Entelect Challenge 2017 Battleships, exact to the
// official engine release 1.2.2, shields and special weapons included (the
// rules specification is docs/specs/battleships2017.md in the botarena
// repository): the three map sizes with their energy and costs, phase 1
// placement with its failure counting, the eight phase-2 commands with
// their cell patterns and the seeker's target order, shields, points, the
// round order as coded, the round cap, the leaderboard, and the harness's
// do-nothing and placement-failure kills. [Rules] prints the rules as
// implemented; `botarena rules battleships` shows them.
//
// # Model
//
// A [Game] is one match as a fixed-size value: two players with a map of
// at most 14×14 cells (index x*N + y, the engine's map order) and a fleet
// of five ships, no maps and no pointers. Seat 0 is player A, seat 1 is B.
// In phase 2 one [Game.Step] is one round. Phase 1 depends on
// Config.Placement:
//
//   - "random" (default) and "reference": a built-in placer draws both
//     fleets from the env's generator inside [Game.Reset], which plays
//     round 0 at once; episodes start at phase 2, round 1.
//   - "learn": each step chooses one ship per seat, in list order
//     (Submarine, Destroyer, Battleship, Carrier, Cruiser), masked to the
//     positions that fit and do not overlap the seat's earlier choices. A
//     seat that does nothing, chooses an illegal position or sends a
//     command has finished the round with a failing command (do nothing
//     also counts towards the do-nothing rule); when both seats have
//     finished, the engine's phase-1 round is processed with both
//     placements, in the original's order (only the first failure in A, B
//     order is charged; both maps are wiped after a failure).
//
// # Actions
//
// One flat discrete space per seat, N the map side, G = N + 2·[Margin]:
//
//	0                                  do nothing
//	1 + (code-1)*G*G + (x+3)*G + (y+3) command code 1–8 centred on (x, y),
//	                                   x, y in −3..N+2 (see CommandAction)
//	1 + 8*G*G + (x*N + y)*4 + d        place the seat's next ship at (x, y)
//	                                   facing d (0 North, 1 East, 2 South, 3 West)
//
// [NumActions] is 1 + 8·G² + 4·N²: 1,549 (small), 2,449 (medium), 3,985
// (large). Codes: 1 single shot, 2 vertical double, 3 horizontal double, 4
// corner, 5 diagonal cross, 6 cross, 7 seeker, 8 shield. Centres off the
// map are in the space because the engine accepts them (patterns are
// clipped, spec §5.2) and command.txt can name them; any centre further
// out than 3 cells acts exactly like one 3 cells out, so
// [Game.ParseCommand] clamps to that.
//
// The mask marks, in phase 2, every command with an on-map centre that the
// engine would execute now: single shots while energy lasts, a special
// weapon while its ship is afloat (as of the last round's end) and energy
// covers it, the shield when it has a charge and is not active. Off-map
// centres are masked out (the engine takes them but they are never better
// than an on-map centre). In phase 1 of learn mode it marks the legal
// placements of the seat's next ship. Do nothing is always legal, and the
// only legal action of a dead seat, of a seat that finished its phase-1
// choices, and of a finished game. With Config.ShotMask ("shot_mask") the
// phase-2 mask also leaves out the shots that can land only on opponent
// cells the seat has already shot (missed or damaged; a shield hit is not
// a shot cell): a single shot at such a cell, a double, corner, diagonal
// cross or cross whose on-map cells all are, a seeker whose whole reach
// is. The engine still carries a masked action out.
//
// # Observation
//
// Tensor "planes", uint8 [C,N,N] with C = [NumPlanes] = 12; plane c at cell
// (x, y) is at
//
//	index = c*N*N + y*N + x
//
// (y = 0 is the first row, south; map.txt prints north at the top):
//
//	0–4 PlaneOwnSubmarine..PlaneOwnCruiser  1 on each own ship's cells
//	5   PlaneOwnHit         1 where the opponent shot the seat's map
//	6   PlaneOwnShielded    1 under the seat's active shield
//	7   PlaneOwnShieldHit   1 where that shield stopped a shot
//	8   PlaneOppUnknown     1 on opponent cells neither damaged nor missed
//	9   PlaneOppMissed      1 on opponent water the seat hit
//	10  PlaneOppDamaged     1 on opponent ship cells the seat hit
//	11  PlaneOppShieldHit   1 where the opponent's shield stopped a shot
//	12  PlaneOppDensity     with Config.DensityPlane only (C = 13): each
//	                        opponent cell's chance of holding a ship as
//	                        hunter reckons it, the likeliest cell 255
//
// With Config.FleetPlanes ("fleet_planes"), while a learn-mode seat places
// its fleet, planes 0–4 also mark the ships it has chosen so far this
// phase-1 round (the engine places them only when the round is
// processed); without it they are empty until then, and a placement
// decision sees only how many ships are chosen (scalar 18).
//
// The density plane ("density_plane") derives from the seat's own
// knowledge alone: its missed and damaged cells and which enemy ships
// sank. Each seat keeps, as hunter does, the cells it puts down to each
// sunk ship (the first run of the ship's length of damaged cells not yet
// put down, through a hit of the round it sank when there is one); a
// cell's value is the sum over the ships still afloat of the share of the
// ship's placements covering it, among those that avoid missed cells and
// cells put down to sunk ships, each placement weighted by 40 for each
// unresolved hit it covers; shot cells read 0. LoadNative rebuilds the
// knowledge from the hits in the file.
//
// Tensor "scalars", float32 [21], little-endian: 0 phase 2, 1 round ÷
// (last round + 1), 2 energy ÷ the cross shot's cost, 3 shield charges, 4
// shield radius ÷ max radius, 5 shield active, 6 own points ÷ 100, 7
// opponent points ÷ 100, 8–12 own ships afloat (list order), 13–17
// opponent ships afloat, 18 learn-mode ships chosen ÷ 5, 19 consecutive
// do-nothings ÷ 20, 20 opponent alive. Both tensors show only what the
// seat's state.json shows: the opponent's ships appear only where hit, and
// its energy and shield only through shield-hit marks
// (TestHiddenInformation).
//
// # Rewards and flags
//
// See [RewardDefinition]. A seat is terminated when its player is killed
// or the game ends by elimination; alive seats are truncated when the
// round cap (rounds 0..N²+5, phase 1 included, or Config.MaxRounds) ends
// it. Terminal rewards are paid at truncation too.
//
// # Native formats
//
// [Game.AppendNative] writes "state.json" byte for byte as Newtonsoft
// serialises it (minified, the classes' key order; spec §8.1): a seat's own
// file, with the opponent's map reduced to damaged, missed and shield-hit
// cells, or (seat −1) the round folder's full state with Player1Map and
// Player2Map; "map.txt" (CRLF; spec §8.3), for seat −1 both players'
// map.txt, A's, an empty line, then B's; and, for seat −1, the round
// folder's "roundInfo.json" and "roundCommand.json" (spec §8.2), minified
// in the original classes' key order. roundInfo.json ({MapSize, Round,
// Winner, LeaderBoard, Players}) follows [Game.Outcome]'s leaderboard and
// describes every seat as the original describes a player that is not a bot
// harness: its name as Author, NickName and Email, BotType "Unkown" (sic);
// botarena play's replay folders describe a seat played by an Entelect bot
// folder (dir:) by its bot.json instead, as the original's
// BattleshipsGame.GetPlayerInfo describes a bot harness. roundCommand.json
// ({Player1Move, Player2Move}) shows each player's last processed command,
// which, as the file belongs to the folder of the round about to be played,
// is the previous round's: SuccessfulMove (DoNothing succeeds in phase 2),
// CommandIssued (null until a command is processed; a seat whose command the
// engine never examined, as after the other seat's phase-1 failure, keeps
// its old record), CenterPoint (the last fire or shield centre: DoNothing
// and PlaceShip keep it) and PlaceShipString (the last PlaceShip's lines
// "<Ship> <x> <y> <Direction>" in list order, joined with ","; after an
// illegal learn-mode ship, the ships tried, that one last). The original's
// writer is GameMapRender.RenderJsonRoundCommand, which copies the player's
// fields; its PlaceShipString is the PlaceShipCommand's OriginalString, the
// bot's own non-blank place.txt lines joined with "," and every "\r" made a
// space (StringToPlaceShipCommand). The env is given actions, not the file,
// so it rebuilds the string from the recorded placement in that canonical
// spelling: the original's for a place.txt that lists the ships so, with LF
// line ends (CRLF gives the original's a space before each ","). Energy,
// ShieldRadius and RemainingShieldTurns are read from the player when the
// file is written (after the previous round's energy grant and shield
// update), as the original's fields live on the player. [Game.LoadNative]
// reads the full state in the v1.2 layout or the v1.1 one without shields
// (as in the official sample, which the writers then reproduce byte for
// byte: TestSampleStateFiles). [Game.ParseCommand] reads place.txt in
// phase 1 and command.txt in phase 2 exactly as the harness does.
//
// [Game.Paint] draws both maps side by side ([picture.Painter], sized by
// [PictureSize]): a seat's own fleet, shots and shield, the opponent's map
// as that seat knows it (seat −1: both fleets), and under each map the
// points, energy, shield charges, hits, shots and ships afloat that the
// view may see.
//
// # Decisions where the original crashes, is ambiguous, or does not fit
//
//   - B1: after a harness kill (20 consecutive do-nothings, or exactly 5
//     failed placements, checked at the start of a round) the original
//     crashes. botarena processes the other player's command, finishes the
//     round (the killed player's shot ship cells can sink its fleet and
//     give the opponent the 100) and the game ends, the killed player last
//     with 0 points.
//   - B3: a place.txt in phase 2 would re-place the fleet and revive sunk
//     ships. botarena rejects re-placement: ParseCommand reads it as do
//     nothing, and a placement action in phase 2 is a failed command.
//   - B7: stale ship cell references after failed placements are not kept:
//     unplaced ships always show null cells.
//   - B9: the original never declares a draw (A wins a complete tie).
//     [Game.Outcome] still names A but reports Draw, and both rewards are 0.
//   - Shapes the action space cannot hold: a place.txt is one ship per step
//     in learn mode; send the same file on each of the five steps (the
//     scenario runner needs one round per step). A file that names a type
//     twice or starts a ship off the map parses to an always-illegal
//     placement (South from (0,0)), failing the round as the engine would.
//     With a built-in placer phase-1 commands are ignored.
//   - A loaded state starts with no do-nothing streak and, for a player with
//     hits, the first landed hit at round 0 (state.json does not record
//     it).
//   - B2 (no seeker sink bonus), B5 (unvalidated centres), B6 (first-fail
//     attribution), B8 (uncapped charges), B10 (size fallbacks) and B12
//     (phase-1 rounds count) are kept as coded.
//   - [Game.Invalid] counts out-of-range actions and commands the engine
//     refused (failed), do nothing excluded.
//
// # Concurrency
//
// A Game is not safe for concurrent use; vecenv gives each worker goroutine
// a disjoint range of envs. Step, WriteObs, WriteMask, Outcome and Reset
// never allocate.
package battleships
