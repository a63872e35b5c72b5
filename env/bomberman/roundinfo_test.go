package bomberman

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"github.com/botarena/botarena/internal/testutil"
)

func TestNativeLeaderboard(t *testing.T) {
	g := mustNew(t, &Config{Players: 6})
	set := func(seat, points int, killed bool, killedRound int) {
		p := &g.players[seat]
		p.Counter, p.Coverage, p.Killed, p.KilledRound = points-3, 3, killed, killedRound
	}
	set(0, 10, false, 0)
	set(1, 50, true, 5)
	set(2, 30, false, 0)
	set(3, 50, true, 3)
	set(4, 10, false, 0) // ties seat 0: registration order
	set(5, 90, true, 3)
	got := g.Leaderboard([]int{-1})
	want := []int{-1, 2, 0, 4, 5, 3, 1}
	if !slices.Equal(got, want) {
		t.Errorf("leaderboard %v, want %v", got, want)
	}
}

func TestRoundInfo(t *testing.T) {
	g := mustNew(t, &Config{Players: 3, Names: []string{"Ann", "", "Bo\"b"}})
	g.players[1].Counter = 20
	g.players[2].Killed = true
	g.SetPlayerInfo(0, PlayerInfo{NickName: "Annie", BotType: "Python3"})
	g.round = 12
	got := string(native(t, g, FormatRoundInfo))
	ann := `{"Author":null,"NickName":"Annie","Email":null,"PlayerKey":"A","BotType":"Python3"}`
	p2 := `{"Author":"Player 2","NickName":"Player 2","Email":"Player 2","PlayerKey":"B","BotType":"Unkown"}`
	bob := `{"Author":"Bo\"b","NickName":"Bo\"b","Email":"Bo\"b","PlayerKey":"C","BotType":"Unkown"}`
	want := `{"MapSeed":0,"Round":12,"Winner":` + p2 + `,"LeaderBoard":[` + p2 + `,` + ann + `,` + bob + `],"Players":[` + ann + `,` + p2 + `,` + bob + `]}`
	if got != want {
		t.Errorf("roundInfo.json:\n%s\nwant:\n%s", got, want)
	}
	if !json.Valid([]byte(got)) {
		t.Error("roundInfo.json is not valid JSON")
	}

	g.SetPlayerInfo(0, PlayerInfo{})
	if got := string(native(t, g, FormatRoundInfo)); !json.Valid([]byte(got)) || got[len(got)-len(bob)-2:] != bob+"]}" {
		t.Errorf("after resetting the info: %s", got)
	}
	for _, seat := range []int{-1, 3} {
		testutil.WantPanic(t, fmt.Sprintf("SetPlayerInfo(%d)", seat), "", func() { g.SetPlayerInfo(seat, PlayerInfo{}) })
	}
}
