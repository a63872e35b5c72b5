package battleships

// roundInfo.json and roundCommand.json (spec §8.2): the round folder's
// summary and the players' last processed commands, minified as Newtonsoft
// writes them.

// The native formats of the round folder (seat −1 only).
const (
	FormatRoundInfo    = "roundInfo.json"
	FormatRoundCommand = "roundCommand.json"
)

// consoleBotType is the BotType the original writes for a player that is
// not a bot harness (its spelling).
const consoleBotType = "Unkown"

// CommandIssued values, in the original's CommandType enum order; 0 is
// "none yet" (null).
const (
	issuedNone uint8 = iota
	issuedDoNothing
	issuedPlaceShip
	issuedCorner
	issuedCrossDiagonal
	issuedCrossNormal
	issuedDoubleVertical
	issuedDoubleHorizontal
	issuedSeeker
	issuedSingle
	issuedShield
)

var issuedNames = [...]string{
	issuedDoNothing:        "DoNothing",
	issuedPlaceShip:        "PlaceShip",
	issuedCorner:           "FireCornerShot",
	issuedCrossDiagonal:    "FireCrossShotDiagonal",
	issuedCrossNormal:      "FireCrossShotNormal",
	issuedDoubleVertical:   "FireDoubleShotVertical",
	issuedDoubleHorizontal: "FireDoubleShotHorizontal",
	issuedSeeker:           "FireSeekerMissile",
	issuedSingle:           "FireSingleShot",
	issuedShield:           "PlaceShield",
}

// codeIssued is the CommandIssued of each command.txt code.
var codeIssued = [NumCodes]uint8{
	CodeNothing:          issuedDoNothing,
	CodeSingle:           issuedSingle,
	CodeDoubleVertical:   issuedDoubleVertical,
	CodeDoubleHorizontal: issuedDoubleHorizontal,
	CodeCorner:           issuedCorner,
	CodeDiagonalCross:    issuedCrossDiagonal,
	CodeCross:            issuedCrossNormal,
	CodeSeeker:           issuedSeeker,
	CodeShield:           issuedShield,
}

// moveRecord is what the original keeps on the player for
// roundCommand.json: the last processed command's success and kind, the
// last command centre (DoNothing and PlaceShip leave it) and the last
// PlaceShip's fleet (its place string is rebuilt from it when written:
// the env has the placement, not the bot's place.txt, whose lines the
// original's string holds). It lives across rounds, as the original's
// player fields do.
type moveRecord struct {
	issued  uint8
	success bool
	nShips  uint8 // lines of the last PlaceShip string; 0: none (null)
	cx, cy  int
	ships   [NumShips]Ship
}

// recordMove is the round processor's SetCommandTypeAndCenterPoint: it
// runs for each command in processing order, before the command executes
// (so a failed or skipped command is still recorded).
func (g *Game) recordMove(s int, c *command) {
	m := &g.moves[s]
	switch c.kind {
	case cmdNothing:
		m.issued = issuedDoNothing
	case cmdPlace:
		m.issued, m.nShips, m.ships = issuedPlaceShip, NumShips, c.ships
	case cmdFire, cmdShield:
		m.issued, m.cx, m.cy = codeIssued[c.code], c.x, c.y
	case cmdFail:
		if c.code > CodeNothing && c.code < NumCodes {
			m.issued, m.cx, m.cy = codeIssued[c.code], c.x, c.y
		} else {
			m.issued, m.nShips, m.ships = issuedPlaceShip, c.nShips, c.ships
		}
	}
}

// appendRoundInfo appends the original's roundInfo.json:
// {"MapSize","Round","Winner","LeaderBoard","Players"}. The winner is the
// leaderboard's first entry, mid-game too, as in the original.
func (g *Game) appendRoundInfo(dst []byte) []byte {
	w, _ := g.Outcome()
	dst = append(dst, `{"MapSize":`...)
	dst = appendInt(dst, g.n)
	dst = append(dst, `,"Round":`...)
	dst = appendInt(dst, g.round)
	dst = append(dst, `,"Winner":`...)
	dst = g.appendPlayerInfo(dst, w)
	dst = append(dst, `,"LeaderBoard":[`...)
	dst = g.appendPlayerInfo(dst, w)
	dst = append(dst, ',')
	dst = g.appendPlayerInfo(dst, 1-w)
	dst = append(dst, `],"Players":[`...)
	dst = g.appendPlayerInfo(dst, 0)
	dst = append(dst, ',')
	dst = g.appendPlayerInfo(dst, 1)
	return append(dst, "]}"...)
}

// appendPlayerInfo appends seat's PlayerInfo as the original writes a
// player that is not a bot harness (a console player): its name as
// Author, NickName and Email, and BotType "Unkown". botarena's seats are
// built-in agents or bots behind its own harness, neither of which has
// the original's bot.json metadata.
func (g *Game) appendPlayerInfo(dst []byte, seat int) []byte {
	name := g.players[seat].Name
	return appendPlayerInfoJSON(dst, &name, &name, &name, consoleBotType)
}

// appendRoundCommand appends the original's roundCommand.json:
// {"Player1Move":{…},"Player2Move":{…}}, each move the player's last
// processed command (the previous round's, as the file is written when a
// round starts) and its energy and shield as they stand now.
func (g *Game) appendRoundCommand(dst []byte) []byte {
	dst = append(dst, `{"Player1Move":`...)
	dst = g.appendMove(dst, 0)
	dst = append(dst, `,"Player2Move":`...)
	dst = g.appendMove(dst, 1)
	return append(dst, '}')
}

func (g *Game) appendMove(dst []byte, seat int) []byte {
	m := &g.moves[seat]
	p := &g.players[seat]
	dst = append(dst, `{"SuccessfulMove":`...)
	dst = appendBool(dst, m.success)
	dst = append(dst, `,"CommandIssued":`...)
	if m.issued == issuedNone {
		dst = append(dst, "null"...)
	} else {
		dst = appendStr(dst, issuedNames[m.issued])
	}
	dst = append(dst, `,"CenterPoint":"`...)
	dst = appendInt(dst, m.cx)
	dst = append(dst, ", "...)
	dst = appendInt(dst, m.cy)
	dst = append(dst, `","ShieldRadius":`...)
	dst = appendInt(dst, p.Shield.Radius)
	dst = append(dst, `,"PlaceShipString":`...)
	if m.nShips == 0 {
		dst = append(dst, "null"...)
	} else {
		dst = append(dst, '"')
		for k := range int(m.nShips) {
			if k > 0 {
				dst = append(dst, ',')
			}
			sh := m.ships[k]
			dst = append(dst, shipNames[k]...)
			dst = append(dst, ' ')
			dst = appendInt(dst, int(sh.X))
			dst = append(dst, ' ')
			dst = appendInt(dst, int(sh.Y))
			dst = append(dst, ' ')
			dst = append(dst, dirNames[sh.Dir&3]...)
		}
		dst = append(dst, '"')
	}
	dst = append(dst, `,"Energy":`...)
	dst = appendInt(dst, p.Energy)
	dst = append(dst, `,"RemainingShieldTurns":`...)
	dst = appendInt(dst, p.Shield.Charges)
	return append(dst, '}')
}
