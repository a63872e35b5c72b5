package main

import (
	"strings"
	"testing"
)

// Every command that runs external bots takes the same flags for them, and
// checks them the same way before it makes an agent.
func TestExternalBotFlagsOnEveryCommandThatRunsBots(t *testing.T) {
	league := t.TempDir()
	for _, args := range [][]string{
		{"league", "init", league, "--game", "battlebots", "--seed", "1"},
		{"league", "add", league, "a", "idle"},
		{"league", "add", league, "b", "random"},
	} {
		if _, errOut, code := runCLI(t, "", args...); code != 0 {
			t.Fatalf("%v: %s", args, errOut)
		}
	}
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"play", []string{"play", "battlebots", "--agents", "idle,random"}},
		{"tournament", []string{"tournament", "battlebots", "--agents", "idle,random", "--games", "1"}},
		{"league run", []string{"league", "run", league, "--games", "1", "--png", ""}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, errOut, code := runCLI(t, "", append(tc.args, "--time-limit", "-1s")...)
			if code == 0 || !strings.Contains(errOut, "--time-limit: want 0 or more, got -1s") {
				t.Errorf("--time-limit -1s: exit %d, stderr %q", code, errOut)
			}
			_, errOut, code = runCLI(t, "", append(tc.args, "--time-limit", "20s", "--nolimit", "--bot-logs", t.TempDir())...)
			if code != 0 {
				t.Errorf("with --time-limit 20s --nolimit --bot-logs: exit %d, stderr %q", code, errOut)
			}
		})
	}
}
