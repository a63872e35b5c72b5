package main

import (
	"encoding/json"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"

	botarenav1 "github.com/botarena/botarena/rpc/gen/botarena/v1"
)

func TestReadVersion(t *testing.T) {
	t.Parallel()
	settings := func(kv ...string) []debug.BuildSetting {
		var out []debug.BuildSetting
		for i := 0; i < len(kv); i += 2 {
			out = append(out, debug.BuildSetting{Key: kv[i], Value: kv[i+1]})
		}
		return out
	}
	const rev = "213f9b1a57912b3d5a1087cb3fd2ad38ddc9953d"
	for _, tc := range []struct {
		name string
		bi   *debug.BuildInfo
		want string
	}{
		{"no_build_info", nil, "(devel) " + runtime.Version()},
		{"release", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v0.4.0"}}, "v0.4.0 go1.26.8"},
		{"devel_clean", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"},
			Settings: settings("vcs.revision", rev, "vcs.modified", "false")}, "(devel) 213f9b1a5791 go1.26.8"},
		{"devel_dirty", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"},
			Settings: settings("vcs.revision", rev, "vcs.modified", "true")}, "(devel) 213f9b1a5791-dirty go1.26.8"},
		{"pseudo_version", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v0.0.0-20261125140403-213f9b1a5791+dirty"},
			Settings: settings("vcs.revision", rev, "vcs.modified", "true")}, "v0.0.0-20261125140403-213f9b1a5791+dirty go1.26.8"},
		{"test_binary", &debug.BuildInfo{GoVersion: "go1.26.8"}, "(devel) go1.26.8"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := readVersion(tc.bi).String(); got != tc.want {
				t.Errorf("version %q, want %q", got, tc.want)
			}
		})
	}
}

func TestVersionCommand(t *testing.T) {
	t.Parallel()
	want := "botarena " + version().String() + "\n"
	for _, args := range [][]string{{"version"}, {"--version"}} {
		stdout, stderr, code := runCLI(t, "", args...)
		if code != 0 || stdout != want || stderr != "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want %q", args, code, stdout, stderr, want)
		}
	}
	stdout, _, code := runCLI(t, "", "version", "--json")
	var v buildVersion
	if err := json.Unmarshal([]byte(stdout), &v); err != nil || code != 0 || v != version() {
		t.Errorf("version --json: exit %d, %q (%v), want %+v", code, stdout, err, version())
	}
	if !strings.Contains(stdout, `"go":"go1.`) {
		t.Errorf("version --json has no Go version: %s", stdout)
	}
}

// TestServeReportsVersion: serve reports its version in ListGames and in
// its first log line, and logs durations as text in JSON.
func TestServeReportsVersion(t *testing.T) {
	addr, stderr, stop := startServe(t, "--log-format", "json")
	c := dialServe(t, addr)
	resp, err := c.Raw().ListGames(t.Context(), &botarenav1.ListGamesRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if got := resp.GetServerVersion(); got != version().String() {
		t.Errorf("ListGames server_version %q, want %q", got, version().String())
	}
	stop()
	for line := range strings.Lines(stderr.String()) {
		var rec map[string]any
		if json.Unmarshal([]byte(line), &rec) != nil || rec["msg"] != "serving" {
			continue
		}
		if rec["version"] != version().String() {
			t.Errorf("serving: version %v, want %q", rec["version"], version().String())
		}
		if rec["idle_timeout"] != "10m0s" {
			t.Errorf("serving: idle_timeout %#v, want the text \"10m0s\"", rec["idle_timeout"])
		}
		return
	}
	t.Errorf("no serving line in %s", stderr.String())
}

// TestServeDebugLogs: --log-level debug logs a client's failed call, with
// its procedure and code; at the default level nothing is logged for it.
func TestServeDebugLogs(t *testing.T) {
	for _, level := range []string{"debug", "info"} {
		t.Run(level, func(t *testing.T) {
			addr, stderr, stop := startServe(t, "--log-level", level)
			c := dialServe(t, addr)
			if _, err := c.Raw().Step(t.Context(), &botarenav1.StepRequest{PoolId: "p-nope"}); err == nil {
				t.Fatal("Step of an unknown pool succeeded")
			}
			stop()
			logged := strings.Contains(stderr.String(), `msg="call failed" procedure=/botarena.v1.EnvService/Step code=not_found`)
			if logged != (level == "debug") {
				t.Errorf("--log-level %s: logged the failed call: %v; log:\n%s", level, logged, stderr.String())
			}
		})
	}
}
