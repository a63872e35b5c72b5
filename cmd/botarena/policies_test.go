package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/botarena/botarena/agents/policy"
)

// TestCommittedPoliciesPlayTheirGameAgainstItsReference loads every
// trained policy committed in policies/ (docs/training.md) and plays a few
// games of its game with it, sampling as trained, with the config it was
// trained with, against the game's reference bot, from every seat: the file must load, match its game's
// spec and play to the end without a forfeit. (How often it wins is
// measured by the evaluations in docs/training/, not here.)
func TestCommittedPoliciesPlayTheirGameAgainstItsReference(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "policies", "*.policy.safetensors"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no policies in policies/")
	}
	for _, file := range files {
		// Not parallel: play sets the package-wide options of external agents.
		t.Run(filepath.Base(file), func(t *testing.T) {
			m, err := policy.Load(file)
			if err != nil {
				t.Fatal(err)
			}
			game := m.Architecture().Game
			out, errOut, code := runCLI(t, "", "games", game, "--json")
			if code != 0 {
				t.Fatalf("games %s: exit %d: %s", game, code, errOut)
			}
			var info struct { // botarena.v1.GameInfo's protojson
				Reference string `json:"reference_agent"`
				Spec      struct {
					Seats int `json:"seats"`
				} `json:"spec"`
			}
			if err := json.Unmarshal([]byte(out), &info); err != nil || info.Reference == "" || info.Spec.Seats < 1 {
				t.Fatalf("games %s --json: %v, no reference bot in %.200s", game, err, out)
			}
			abs, err := filepath.Abs(file)
			if err != nil {
				t.Fatal(err)
			}
			for seat := range info.Spec.Seats {
				agents := make([]string, info.Spec.Seats)
				for s := range agents {
					agents[s] = info.Reference
				}
				agents[seat] = "policy:" + abs + "?sample"
				args := []string{"play", game, "--agents", strings.Join(agents, ","), "--games", "2", "--seed", "11", "--json"}
				if cfg := m.Architecture().Config; len(cfg) > 0 && string(cfg) != "null" {
					args = append(args, "--config", string(cfg)) // the config it was trained with (its view, its mask)
				}
				out, errOut, code := runCLI(t, "", args...)
				if code != 0 || strings.Contains(out, `"forfeit"`) {
					t.Errorf("seat %d: exit %d, stderr %q, result %.300s", seat, code, errOut, out)
				}
			}
		})
	}
}
