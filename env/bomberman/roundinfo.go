package bomberman

import (
	"strconv"
)

// roundInfo.json (spec §8.3): the round folder's summary, minified.

// consoleBotType is the BotType the original writes for console players
// (its spelling).
const consoleBotType = "Unkown"

// SetPlayerInfo sets how roundInfo.json describes seat's player. The zero
// value (the default) describes a console player. It panics if seat is out
// of range. Not safe for concurrent use with other methods of g.
func (g *Game) SetPlayerInfo(seat int, info PlayerInfo) {
	if seat < 0 || seat >= g.nPlayers {
		panic("bomberman: SetPlayerInfo: seat out of range")
	}
	g.info[seat] = info
}

// appendRoundInfo appends the original's minified roundInfo.json:
// {"MapSeed","Round","Winner","LeaderBoard","Players"}. The winner is the
// first leaderboard entry, mid-game too.
func (g *Game) appendRoundInfo(dst []byte) []byte {
	var buf [MaxPlayers]int
	board := g.Leaderboard(buf[:0])
	dst = append(dst, `{"MapSeed":`...)
	dst = strconv.AppendInt(dst, int64(g.mapSeed), 10)
	dst = append(dst, `,"Round":`...)
	dst = strconv.AppendInt(dst, int64(g.round), 10)
	dst = append(dst, `,"Winner":`...)
	dst = g.appendPlayerInfo(dst, board[0])
	dst = append(dst, `,"LeaderBoard":[`...)
	for i, seat := range board {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = g.appendPlayerInfo(dst, seat)
	}
	dst = append(dst, `],"Players":[`...)
	for seat := range g.nPlayers {
		if seat > 0 {
			dst = append(dst, ',')
		}
		dst = g.appendPlayerInfo(dst, seat)
	}
	return append(dst, "]}"...)
}

// appendPlayerInfo appends seat's PlayerInfo object. A console player (zero
// info) has its name in the three text fields and BotType "Unkown"; for a
// bot, an empty field is written as null, as the original writes a field
// missing from bot.json.
func (g *Game) appendPlayerInfo(dst []byte, seat int) []byte {
	p := &g.players[seat]
	info := g.info[seat]
	field := appendJSONStringOrNull
	if info == (PlayerInfo{}) {
		info = PlayerInfo{Author: p.Name, NickName: p.Name, Email: p.Name, BotType: consoleBotType}
		field = appendJSONString
	}
	dst = append(dst, `{"Author":`...)
	dst = field(dst, info.Author)
	dst = append(dst, `,"NickName":`...)
	dst = field(dst, info.NickName)
	dst = append(dst, `,"Email":`...)
	dst = field(dst, info.Email)
	dst = append(dst, `,"PlayerKey":`...)
	dst = appendJSONString(dst, string(rune(p.Key)))
	dst = append(dst, `,"BotType":`...)
	dst = field(dst, info.BotType)
	return append(dst, '}')
}

// appendJSONStringOrNull appends s as a JSON string, or null when empty.
func appendJSONStringOrNull(dst []byte, s string) []byte {
	if s == "" {
		return append(dst, "null"...)
	}
	return appendJSONString(dst, s)
}
