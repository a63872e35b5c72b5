package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/internal/testutil"
	botarenav1 "github.com/botarena/botarena/rpc/gen/botarena/v1"
)

func init() {
	// plaingame is testgame without its native codec.
	entry, err := env.Default.Lookup("testgame")
	if err != nil {
		panic(err)
	}
	env.Register(testutil.WithoutCodec(entry, "plaingame"))
}

// noCodec is the error of every codec user on plaingame.
const noCodec = "game plaingame has no native codec: external bots, scenarios and native renders need one"

// TestGameWithoutCodec: a game without a native codec plays with built-in
// agents and in served pools; what needs native states (views, state
// files, replays, console players, scenarios, Render) fails with an error
// naming the game.
func TestGameWithoutCodec(t *testing.T) {
	stdout, stderr, code := runCLI(t, "", "play", "plaingame", "--agents", "random,idle", "--seed", "4", "--json")
	if code != 0 || !strings.Contains(stdout, `"game":"plaingame"`) || !strings.Contains(stdout, `"rounds":5`) {
		t.Errorf("play plaingame: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	dir := t.TempDir()
	state := filepath.Join(dir, "state.json")
	os.WriteFile(state, []byte(`{"round": 1, "scores": [1, 2]}`), 0o644)
	scenario := filepath.Join(dir, "s.json")
	os.WriteFile(scenario, []byte(`{"game": "plaingame", "rounds": [["1", "2"]]}`), 0o644)
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"pretty", []string{"play", "plaingame", "--pretty", "--delay", "0"}},
		{"state", []string{"play", "plaingame", "--state", state}},
		{"replays", []string{"play", "plaingame", "--replays", dir}},
		{"console", []string{"play", "plaingame", "--agents", "console,idle"}},
		{"scenario", []string{"scenario", scenario}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, stderr, code := runCLI(t, "", tc.args...)
			if code == 0 || !strings.Contains(stderr, noCodec) {
				t.Errorf("exit %d, stderr %q; want the error %q", code, stderr, noCodec)
			}
		})
	}

	addr, _, _ := startServe(t)
	c := dialServe(t, addr)
	ctx := t.Context()
	p := createPool(t, c, &botarenav1.CreatePoolRequest{Game: "plaingame", NumEnvs: 3, LearnerSeats: []int32{0}, Opponents: map[int32]string{1: "random"}})
	if _, err := p.Reset(ctx); err != nil {
		t.Fatal(err)
	}
	for range 5 {
		if _, err := p.Step(ctx, []int32{1, 2, 1}); err != nil {
			t.Fatal(err)
		}
	}
	st, err := p.Stats(ctx, false)
	if err != nil || st.GetSeats()[0].GetEpisodes() != 3 {
		t.Errorf("stats %v, %v; want 3 episodes", st, err)
	}
	_, _, err = p.Render(ctx, 0, 0, "")
	wantErrCode(t, err, "invalid_argument")
	if err == nil || !strings.Contains(err.Error(), noCodec) {
		t.Errorf("Render: %v; want %q", err, noCodec)
	}
}
