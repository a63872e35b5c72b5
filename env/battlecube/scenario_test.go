package battlecube

import (
	"bytes"
	"strings"
	"testing"

	"github.com/botarena/botarena/internal/testutil"
)

// TestScenarios runs the scenario files of testdata through the shared
// runner and compares the request.json emitted after each round.
func TestScenarios(t *testing.T) {
	tests := []struct {
		file string
		want []string
	}{
		{"testdata/g6_paul_wins.json", []string{
			`{"currentPlayer":{"name":"John"},"gameInfo":{"id":"mock-socket-id","edgeLength":8,"numOfTasksPerTick":1,"numOfBotsInPlay":1,"currentTick":1},"players":[{"name":"Paul","x":0,"y":0,"z":1}],"items":[{"x":0,"y":1,"z":0,"type":"BOMB"}]}`,
		}},
		{"testdata/g8_two_tasks.json", []string{
			`{"currentPlayer":{"name":"John"},"gameInfo":{"id":"mock-socket-id","edgeLength":8,"numOfTasksPerTick":2,"numOfBotsInPlay":2,"currentTick":1},"players":[{"name":"John","x":7,"y":6,"z":0},{"name":"Paul","x":0,"y":0,"z":0}],"items":[]}`,
			`{"currentPlayer":{"name":"John"},"gameInfo":{"id":"mock-socket-id","edgeLength":8,"numOfTasksPerTick":2,"numOfBotsInPlay":2,"currentTick":2},"players":[{"name":"John","x":7,"y":7,"z":0},{"name":"Paul","x":0,"y":0,"z":0}],"items":[]}`,
			`{"currentPlayer":{"name":"John"},"gameInfo":{"id":"mock-socket-id","edgeLength":8,"numOfTasksPerTick":2,"numOfBotsInPlay":1,"currentTick":3},"players":[{"name":"Paul","x":0,"y":0,"z":0}],"items":[]}`,
		}},
	}
	for _, tt := range tests {
		t.Run(strings.TrimSuffix(strings.TrimPrefix(tt.file, "testdata/"), ".json"), func(t *testing.T) {
			got := string(bytes.Join(testutil.ScenarioFile(t, tt.file), []byte("\n")))
			if want := strings.Join(tt.want, "\n"); got != want {
				t.Errorf("states:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}

// TestEventBytes checks the exact bytes (key order) of the g2 stream;
// PLAYER_LOST is {cause, name} as game.ts's playerLost builds it.
func TestEventBytes(t *testing.T) {
	g, _ := New(testConfig(1, 200, []string{"John"}, [3]int{0, 0, 0}))
	acts, rew, term, trunc := []int32{int32(MoveMinusX)}, make([]float32, 1), make([]bool, 1), make([]bool, 1)
	g.Step(acts, rew, term, trunc)
	want := `{"event":"NEXT_TICK","data":{"gameInfo":{"id":"mock-socket-id","edgeLength":8,"numOfTasksPerTick":1,"numOfBotsInPlay":1,"currentTick":0},"players":[{"name":"John","x":0,"y":0,"z":0}],"items":[]}}
{"event":"PLAYER_MOVE_ATTEMPT","data":{"name":"John","x":-1,"y":0,"z":0}}
{"event":"PLAYER_LOST","data":{"cause":"Player moved out of bounds","name":"John"}}
{"event":"GAME_ENDED","data":{"scores":[{"name":"John","highScore":0}],"id":"mock-socket-id","result":"TIE"}}
`
	if got := string(g.AppendEvents(nil)); got != want {
		t.Errorf("events:\n%s\nwant:\n%s", got, want)
	}
	if rew[0] != -1 || !term[0] || trunc[0] {
		t.Errorf("reward %v terminated %v truncated %v", rew[0], term[0], trunc[0])
	}
}
