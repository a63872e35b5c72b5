package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/botarena/botarena/internal/testutil"
)

// policyFixture is a battlebots policy file PyTorch wrote
// (agents/policy/testdata/make_fixtures.py).
var policyFixture = filepath.Join("..", "..", "agents", "policy", "testdata", "battlebots.policy.safetensors")

func TestPolicyPlay(t *testing.T) {
	for _, spec := range []string{"policy:" + policyFixture, "policy:" + policyFixture + "?sample"} {
		args := []string{"play", "battlebots", "--agents", spec + ",huggy", "--seed", "3", "--json"}
		out, stderr, code := runCLI(t, "", args...)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", spec, code, stderr)
		}
		var res struct {
			Rounds      int `json:"rounds"`
			Leaderboard []struct {
				Agent string `json:"agent"`
			} `json:"leaderboard"`
		}
		if err := json.Unmarshal([]byte(out), &res); err != nil {
			t.Fatalf("%s: %v: %s", spec, err, out)
		}
		if res.Rounds == 0 || len(res.Leaderboard) != 2 || (res.Leaderboard[0].Agent != spec && res.Leaderboard[1].Agent != spec) {
			t.Errorf("%s: result %s", spec, out)
		}
		again, _, _ := runCLI(t, "", args...)
		if again != out {
			t.Errorf("%s: the same seed gave another game", spec)
		}
	}
}

func TestPolicyTournament(t *testing.T) {
	out := runOK(t, "tournament", "battlebots", "--agents", "policy:"+policyFixture+",nop", "--seed", "1", "--bouts", "2", "--json")
	if !strings.Contains(out, "policy:") || !strings.Contains(out, `"results"`) {
		t.Errorf("tournament output: %s", out)
	}
}

func TestPolicyErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"policy_for_another_game", []string{"play", "battlecube", "--agents", "policy:" + policyFixture}, "(trained on battlebots: planes [19,10,10], scalars [4], 34 actions) does not fit battlecube"},
		{"missing_policy_file", []string{"play", "battlebots", "--agents", "policy:nothing.safetensors,huggy"}, "nothing.safetensors: no such file"},
		{"not_a_policy_file", []string{"policy", "info", "main.go"}, "policy main.go: not a safetensors file"},
		{"info_needs_a_path", []string{"policy", "info"}, "want one PATH argument, got 0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, stderr, code := runCLI(t, "", tc.args...)
			if code == 0 || !strings.Contains(stderr, tc.want) || strings.Count(stderr, "\n") != 1 {
				t.Errorf("exit %d, stderr %q; want one line containing %q", code, stderr, tc.want)
			}
		})
	}
}

func TestPolicyInfo(t *testing.T) {
	out, stderr, code := runCLI(t, "", "policy", "info", policyFixture)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	testutil.WantContains(t, "info", out, "game        battlebots (config: default)", "actions     34", "planes      uint8[19,10,10]", "conv2d(8, kernel 3, stride 1, padding 1), relu", "parameters  28875", `"opponent":"none"`)
	out, stderr, code = runCLI(t, "", "policy", "info", "--json", policyFixture)
	if code != 0 {
		t.Fatalf("--json: exit %d: %s", code, stderr)
	}
	var info struct {
		Parameters   int `json:"parameters"`
		Architecture struct {
			Game    string         `json:"game"`
			Actions int            `json:"actions"`
			Trained map[string]any `json:"trained"`
		} `json:"architecture"`
	}
	if err := json.Unmarshal([]byte(out), &info); err != nil {
		t.Fatal(err)
	}
	if info.Parameters != 28875 || info.Architecture.Game != "battlebots" || info.Architecture.Actions != 34 || info.Architecture.Trained["opponent"] != "none" {
		t.Errorf("--json: %s", out)
	}
}
