package main

import (
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	botarenav1 "github.com/botarena/botarena/rpc/gen/botarena/v1"
)

// policyCopy copies the battlebots test policy into dir as name and
// returns the original's path.
func policyCopy(t *testing.T, dir, name string) string {
	t.Helper()
	orig, err := filepath.Abs(filepath.Join("..", "..", "agents", "policy", "testdata", "battlebots.policy.safetensors"))
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(orig)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
		t.Fatal(err)
	}
	return orig
}

// opponentErr creates (and closes) a battlebots or battlecube pool with
// spec as seat 1's opponent on the server at addr.
func opponentErr(t *testing.T, addr, spec string) error {
	t.Helper()
	c := dialServe(t, addr)
	req := &botarenav1.CreatePoolRequest{Game: "battlebots", NumEnvs: 1, LearnerSeats: []int32{0}, Opponents: map[int32]string{1: spec}}
	if strings.HasPrefix(spec, "http") {
		req.Game, req.ConfigJson = "battlecube/2p", `{"max_ticks": 3}`
	}
	p, err := c.CreatePool(t.Context(), req)
	if err != nil {
		return err
	}
	return p.Close(t.Context())
}

// TestServeBotFlags: each of serve's capability flags allows its kind of
// external agent and no other.
func TestServeBotFlags(t *testing.T) {
	bots := t.TempDir()
	orig := policyCopy(t, bots, "bb.safetensors")
	for _, tc := range []struct {
		name    string
		args    []string
		allowed []string
		denied  map[string]string // spec → flag named in the refusal
	}{
		{"none", nil, nil, map[string]string{
			"policy:" + orig:         "--bots-dir",
			"cmd:/bin/true":          "--allow-cmd-bots",
			"http://127.0.0.1:1/bot": "--allow-http-bots",
			"policy:bb.safetensors":  "--bots-dir",
		}},
		{"bots_dir", []string{"--bots-dir", bots}, []string{"policy:bb.safetensors", "policy:" + filepath.Join(bots, "bb.safetensors") + "?sample"}, map[string]string{
			"policy:" + orig:         "outside the bots folders",
			"policy:../x":            "leaves the bots folders",
			"cmd:/bin/true":          "--allow-cmd-bots",
			"http://127.0.0.1:1/bot": "--allow-http-bots",
		}},
		{"cmd_and_http", []string{"--allow-cmd-bots", "--allow-http-bots"}, []string{"cmd:/bin/true", "http://127.0.0.1:1/bot#timeout=100ms"}, map[string]string{
			"policy:" + orig: "--bots-dir DIR",
		}},
		{"deprecated_allows_everything", []string{"--allow-external-bots"}, []string{"policy:" + orig, "cmd:/bin/true", "http://127.0.0.1:1/bot#timeout=100ms"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			addr, stderr, stop := startServe(t, tc.args...)
			for _, spec := range tc.allowed {
				if err := opponentErr(t, addr, spec); err != nil {
					t.Errorf("%s: %v", spec, err)
				}
			}
			for spec, flag := range tc.denied {
				err := opponentErr(t, addr, spec)
				if err == nil || !strings.Contains(err.Error(), "permission_denied") || !strings.Contains(err.Error(), flag) {
					t.Errorf("%s: %v; want PermissionDenied naming %q", spec, err, flag)
				}
			}
			if code := stop(); code != 0 {
				t.Errorf("exit %d: %s", code, stderr.String())
			}
			deprecated := strings.Contains(stderr.String(), "--allow-external-bots is deprecated")
			if deprecated != (tc.name == "deprecated_allows_everything") {
				t.Errorf("deprecation warning %v; stderr:\n%s", deprecated, stderr.String())
			}
		})
	}
}

func TestServeBotFlagErrors(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	wantServeRefuses(t, []serveRefusal{
		{"missing_bots_dir", []string{"--bots-dir", filepath.Join(file, "nope")}, "--bots-dir: bots folder"},
		{"bots_dir_is_a_file", []string{"--bots-dir", file}, "not a folder"},
		{"deprecated_with_new_flags", []string{"--allow-external-bots", "--allow-cmd-bots"}, "--allow-external-bots (deprecated) allows every external bot and any path already"},
	})
}

// A server logs external bots' problem lines through its own logger, one
// warning a line, not on a stream of the agents package's choosing.
func TestServeLogsBotProblemsThroughItsLogger(t *testing.T) {
	var buf strings.Builder
	w := botLog{slog.New(slog.NewTextHandler(&buf, nil))}
	n, err := w.Write([]byte("botarena: bot \"x\" (seat 1), round 3: exit status 1: doing nothing (NO)\n\nsecond line\n"))
	if err != nil || n == 0 {
		t.Fatalf("Write: %d, %v", n, err)
	}
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 2 {
		t.Fatalf("%d log records, want 2: %q", len(lines), buf.String())
	}
	for i, want := range []string{`level=WARN msg="external bot" problem="bot \"x\" (seat 1), round 3: exit status 1: doing nothing (NO)"`, `problem="second line"`} {
		if !strings.Contains(lines[i], want) {
			t.Errorf("record %d = %q, want it to contain %q", i, lines[i], want)
		}
	}
}
