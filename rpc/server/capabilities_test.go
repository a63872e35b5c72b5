package server_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"connectrpc.com/connect"

	"github.com/botarena/botarena/agents"
	_ "github.com/botarena/botarena/agents/upe" // upe:// seats, as botarena serve has them
	botarenav1 "github.com/botarena/botarena/rpc/gen/botarena/v1"
	"github.com/botarena/botarena/rpc/internal/rpctest"
	"github.com/botarena/botarena/rpc/server"
)

// capsCall asks a server for agent spec as a game's opponent three ways
// (CreatePool, SetOpponents on a built-in pool, MatchService Play) and
// returns the three errors.
func capsCall(t *testing.T, ts *rpctest.Server, game, config, spec string) [3]error {
	t.Helper()
	var errs [3]error
	c := ts.Client(t)
	req := &botarenav1.CreatePoolRequest{
		Game: game, NumEnvs: 1, Seed: rpctest.Seed(1), LearnerSeats: []int32{0},
		Opponents: map[int32]string{1: spec}, ConfigJson: config,
	}
	if resp, err := c.Raw().CreatePool(t.Context(), req); err == nil {
		c.Raw().ClosePool(context.Background(), &botarenav1.ClosePoolRequest{PoolId: resp.GetPoolId()})
	} else {
		errs[0] = err
	}
	req.Opponents[1] = builtinOf(game)
	p := rpctest.CreatePool(t, c, req)
	errs[1] = p.SetOpponents(t.Context(), map[int32]*botarenav1.OpponentMix{1: {Choices: []*botarenav1.OpponentChoice{{Spec: spec, Weight: 1}}}})
	_, errs[2] = ts.MatchClient(t).Play(t.Context(), &botarenav1.PlayRequest{
		Game: game, ConfigJson: config, Seats: rpctest.Seats(builtinOf(game), spec), Seed: 1, MaxRounds: 2,
	})
	return errs
}

// builtinOf returns a built-in agent of game.
func builtinOf(game string) string {
	if strings.HasPrefix(game, "battlebots") {
		return "nop"
	}
	return "idle"
}

// TestAgentCapabilitiesRefuse: every external agent a server's
// capabilities do not cover is PermissionDenied, in CreatePool,
// SetOpponents and Play alike, with a message naming the serve flag that
// allows it.
func TestAgentCapabilitiesRefuse(t *testing.T) {
	t.Parallel()
	dir, secret := rpctest.BotsDir(t)
	plain := rpctest.New(t)
	withDir := rpctest.New(t, server.WithAgentCapabilities(agents.Capabilities{BotDirs: []string{dir}}))
	flagsOnly := rpctest.New(t, server.WithAgentCapabilities(agents.Capabilities{Commands: true, HTTP: true, Listen: true}))
	for _, tc := range []struct {
		name         string
		ts           *rpctest.Server
		game, config string
		spec         string
		wants        []string
	}{
		{"cmd", withDir, "battlebots", "", "cmd:python3 bot.py", []string{"command-line bot", "--allow-cmd-bots"}},
		{"http", withDir, "battlecube/2p", `{"max_ticks": 5}`, "http://127.0.0.1:1/bot", []string{"HTTP bot", "--allow-http-bots"}},
		{"https", plain, "battlecube/2p", `{"max_ticks": 5}`, "https://127.0.0.1:1/bot", []string{"--allow-http-bots"}},
		{"upe", withDir, "portalbomber", "", "upe://127.0.0.1:0", []string{"UPE seat", "--allow-upe-bots"}},
		{"policy_without_bots_dir", flagsOnly, "battlebots", "", "policy:" + rpctest.PolicyFixture(t, "battlebots"), []string{"policy file", "--bots-dir DIR"}},
		{"etc_shadow", flagsOnly, "battlebots", "", "policy:/etc/shadow", []string{"--bots-dir DIR"}},
		{"policy_outside_bots_dir", withDir, "battlebots", "", "policy:" + rpctest.PolicyFixture(t, "battlebots"), []string{"outside the bots folders", "--bots-dir"}},
		{"etc_shadow_outside_bots_dir", withDir, "battlebots", "", "policy:/etc/shadow", []string{"outside the bots folders"}},
		{"dotdot_escape", withDir, "battlebots", "", "policy:../shadow", []string{"leaves the bots folders"}},
		{"symlink_escape", withDir, "battlebots", "", "policy:outside.safetensors?sample", []string{"symbolic link"}},
		{"symlink_to_secret", withDir, "battlebots", "", "policy:" + filepath.Join(dir, "shadow"), []string{"symbolic link"}},
		{"bot_folder_outside", withDir, "battleships", "", "dir:" + filepath.Dir(secret), []string{"bot folder", "outside the bots folders"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for i, err := range capsCall(t, tc.ts, tc.game, tc.config, tc.spec) {
				t.Logf("call %d: %v", i, err)
				rpctest.WantCode(t, err, connect.CodePermissionDenied, append(tc.wants, "--allow-external-bots")...)
				if strings.Contains(err.Error(), "s3cr3t") || strings.Contains(err.Error(), "root:") {
					t.Errorf("call %d: the error quotes a file: %v", i, err)
				}
			}
		})
	}
}

// TestAgentCapabilitiesAllow: what a server's capabilities cover is made:
// policy files inside a bots folder by absolute or relative path, through
// links that stay inside, and command-line and HTTP bots with their flags.
func TestAgentCapabilitiesAllow(t *testing.T) {
	t.Parallel()
	dir, _ := rpctest.BotsDir(t)
	inside := filepath.Join(dir, "inside.safetensors")
	if err := os.Symlink(filepath.Join(dir, "bb.safetensors"), inside); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	ts := rpctest.New(t, server.WithAgentCapabilities(agents.Capabilities{BotDirs: []string{dir}, Commands: true, HTTP: true}))
	for _, tc := range []struct {
		name, game, config, spec string
	}{
		{"policy_relative", "battlebots", `{"max_rounds": 4}`, "policy:bb.safetensors"},
		{"policy_relative_sampling", "battlebots", `{"max_rounds": 4}`, "policy:bb.safetensors?sample"},
		{"policy_absolute", "battlebots", `{"max_rounds": 4}`, "policy:" + filepath.Join(dir, "bb.safetensors")},
		{"policy_link_inside", "battlebots", `{"max_rounds": 4}`, "policy:inside.safetensors"},
		{"cmd", "battlebots", `{"max_rounds": 2}`, "cmd:" + filepath.Join(dir, "no-such-bot")},
		{"http", "battlecube/2p", `{"max_ticks": 2}`, "http://127.0.0.1:1/bot#timeout=100ms"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for i, err := range capsCall(t, ts, tc.game, tc.config, tc.spec) {
				if err != nil {
					t.Errorf("call %d: %v", i, err)
				}
			}
		})
	}
	// A path in no bots folder is NotFound.
	errs := capsCall(t, ts, "battlebots", "", "policy:nope.safetensors")
	for _, err := range errs {
		rpctest.WantCode(t, err, connect.CodeNotFound, "no such file or folder in the bots folders")
	}
}

// TestPolicyErrorsDoNotEchoFiles: with every capability (the deprecated
// --allow-external-bots), naming a file that is not a policy gives an
// error that shows none of it.
func TestPolicyErrorsDoNotEchoFiles(t *testing.T) {
	t.Parallel()
	_, secret := rpctest.BotsDir(t)
	ts := rpctest.New(t, server.WithExternalAgents(true))
	files := []string{secret}
	if f, err := os.Open("/etc/shadow"); err == nil {
		f.Close()
		files = append(files, "/etc/shadow")
	}
	for _, file := range files {
		for i, err := range capsCall(t, ts, "battlebots", "", "policy:"+file) {
			if err == nil {
				t.Fatalf("%s, call %d: accepted", file, i)
			}
			msg := strings.TrimPrefix(err.Error(), "policy "+file)
			if strings.Contains(err.Error(), "s3cr3t") || strings.Contains(err.Error(), "root:") || strings.Contains(msg, "$") {
				t.Errorf("%s, call %d: the error quotes the file: %v", file, i, err)
			}
		}
	}
}

// TestAgentErrorsAreBounded: a rpctest.Huge spec is not repeated whole in errors.
func TestAgentErrorsAreBounded(t *testing.T) {
	t.Parallel()
	ts := rpctest.New(t)
	for i, err := range capsCall(t, ts, "battlebots", "", "cmd:"+strings.Repeat("x", 1<<20)) {
		rpctest.WantCode(t, err, connect.CodePermissionDenied, "--allow-cmd-bots")
		if n := len(err.Error()); n > 4096 {
			t.Errorf("call %d: a %d-byte error", i, n)
		}
	}
}

// TestAgentErrorsHideTheBotsFolder: a FIFO named as a policy in a bots
// folder is refused at once (opening it would block), and the error names
// it as the client did, never by the server's path to its bots folder.
func TestAgentErrorsHideTheBotsFolder(t *testing.T) {
	t.Parallel()
	dir, _ := rpctest.BotsDir(t)
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe.safetensors"), 0o600); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}
	ts := rpctest.New(t, server.WithAgentCapabilities(agents.Capabilities{BotDirs: []string{dir}}))
	for _, spec := range []string{"policy:pipe.safetensors", "policy:" + filepath.Join(dir, "pipe.safetensors")} {
		for i, err := range capsCall(t, ts, "battlebots", "", spec) {
			if err == nil || !strings.Contains(err.Error(), "pipe.safetensors: not a regular file") {
				t.Errorf("%s, call %d: %v, want the FIFO refused", spec, i, err)
				continue
			}
			// A client that named the file by its absolute path sees it
			// quoted back; one that named it relatively never sees where
			// the server keeps its bots.
			if !filepath.IsAbs(strings.TrimPrefix(spec, "policy:")) && strings.Contains(err.Error(), filepath.Dir(dir)) {
				t.Errorf("%s, call %d: the error shows the bots folder: %v", spec, i, err)
			}
		}
	}
}
