package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/botarena/botarena/env"
)

func TestGameFlagsSetTheirGamesConfig(t *testing.T) {
	stdout, stderr, code := runCLI(t, "", "play", "testgame", "--seats", "3", "--seed", "1", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var res struct {
		Leaderboard []json.RawMessage `json:"leaderboard"`
	}
	if err := json.Unmarshal([]byte(stdout), &res); err != nil || len(res.Leaderboard) != 3 {
		t.Errorf("--seats 3 gave %d seats (%v): %s", len(res.Leaderboard), err, stdout)
	}
	needBomberman(t)
	_, stderr, code = runCLI(t, "", "play", "bomberman", "--seats", "3")
	if code == 0 || !strings.Contains(stderr, "--seats applies to ") || !strings.Contains(stderr, "testgame, not bomberman") {
		t.Errorf("a flag of another game: exit %d, %q", code, stderr)
	}
}

func TestGamesBatchPrintsEachResultAndASummary(t *testing.T) {
	needBomberman(t)
	stdout, stderr, code := runCLI(t, "", "play", "bomberman/2p", "--agents", "reference,random", "--games", "3", "--seed", "5", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	if len(lines) != 4 {
		t.Fatalf("want 3 results and a summary, got %d lines:\n%s", len(lines), stdout)
	}
	for i, line := range lines[:3] {
		var r struct{ Seed uint64 }
		if err := json.Unmarshal([]byte(line), &r); err != nil || r.Seed != uint64(5+i) {
			t.Errorf("game %d: seed %d (%v), want %d", i, r.Seed, err, 5+i)
		}
	}
	var sum struct {
		Summary bool           `json:"summary"`
		Games   int            `json:"games"`
		Wins    map[string]int `json:"wins"`
		Draws   int            `json:"draws"`
	}
	if err := json.Unmarshal([]byte(lines[3]), &sum); err != nil || !sum.Summary || sum.Games != 3 {
		t.Fatalf("summary %q: %v", lines[3], err)
	}
	if total := sum.Wins["reference"] + sum.Wins["random"] + sum.Draws; total != 3 {
		t.Errorf("wins and draws add up to %d, want 3: %+v", total, sum)
	}
	if !strings.Contains(lines[3], `"champion":"`) || !strings.Contains(lines[3], `"scores":{`) {
		t.Errorf("summary lacks champion or scores: %s", lines[3])
	}
	stdout, _, code = runCLI(t, "", "play", "bomberman/2p", "--games", "2", "--seed", "5")
	if code != 0 || !strings.Contains(stdout, "2 games") || !strings.Contains(stdout, "WINS") {
		t.Errorf("text summary: exit %d\n%s", code, stdout)
	}
	if _, stderr, code := runCLI(t, "", "play", "bomberman", "--games", "0"); code == 0 || !strings.Contains(stderr, "--games: want 1 or more") {
		t.Errorf("--games 0: exit %d, %q", code, stderr)
	}
}

func TestEventsNeedAnEventStream(t *testing.T) {
	needBomberman(t)
	_, stderr, code := runCLI(t, "", "play", "bomberman", "--events", "--max-rounds", "1")
	if code == 0 || !strings.Contains(stderr, "--events: bomberman has no event stream") {
		t.Errorf("exit %d, %q", code, stderr)
	}
}

// flagKit is a kit with the play flags of its map.
type flagKit struct{ flags string }

func (k flagKit) PlayFlags() map[string]string {
	out := map[string]string{}
	for _, f := range strings.Fields(k.flags) {
		name, field, _ := strings.Cut(f, "=")
		out[name] = field
	}
	return out
}

// flagConfig is a config with an integer, a string and a boolean field.
type flagConfig struct {
	Target int    `json:"target" doc:"the total that ends the game"`
	Mode   string `json:"mode" doc:"how to count"`
	Fast   bool   `json:"fast" doc:"count fast"`
}

func (*flagConfig) Validate() error { return nil }

// textConfig is a config whose target is a string.
type textConfig struct {
	Target string `json:"target" doc:"the target, in words"`
}

func (*textConfig) Validate() error { return nil }

func TestGameFlagsComeFromTheConfigFields(t *testing.T) {
	entry := func(name string, cfg func() env.Config, flags string) env.Entry {
		return env.Entry{Name: name, Rules: func(env.Config) string { return "" }, NewConfig: cfg,
			New: func(env.Config) (env.Env, error) { return nil, nil }, Kit: flagKit{flags}}
	}
	counter := func() env.Config { return &flagConfig{} }
	text := func() env.Config { return &textConfig{} }
	for _, tc := range []struct {
		name    string
		entries []env.Entry
		want    string // the flags as name:field:usage:int, or the error
	}{
		{"types_and_usage_from_the_config", []env.Entry{entry("counter", counter, "goal=target mode=mode")},
			"goal:target:the total that ends the game:true mode:mode:how to count:false"},
		{"one_name_two_games_one_type", []env.Entry{entry("adder", counter, "target=target"), entry("counter", counter, "target=target")},
			"target:target:the total that ends the game:true target:target:the total that ends the game:true"},
		{"unknown_field", []env.Entry{entry("counter", counter, "goal=goal")}, `counter: flag --goal: want a name of lower case letters, digits and '-' for an integer or string field of the config, got field "goal"`},
		{"boolean_field", []env.Entry{entry("counter", counter, "fast=fast")}, `flag --fast: want`},
		{"malformed_name", []env.Entry{entry("counter", counter, "--goal=target")}, `flag ----goal: want`},
		{"one_name_two_types", []env.Entry{entry("adder", counter, "target=target"), entry("namer", text, "target=target")},
			"namer: flag --target: a string field, but an integer field in adder"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			reg := &env.Registry{}
			for _, e := range tc.entries {
				reg.Register(e)
			}
			flags, err := gameFlags(reg)
			var got []string
			for _, f := range flags {
				got = append(got, fmt.Sprintf("%s:%s:%s:%v", f.Name, f.Field, f.Usage, f.Int))
			}
			if err != nil {
				got = []string{err.Error()}
			}
			if s := strings.Join(got, " "); !strings.Contains(s, tc.want) || (err == nil && s != tc.want) {
				t.Errorf("gameFlags = %q, want %q", s, tc.want)
			}
		})
	}
}

func TestEveryLinkedGamesFlagsAreValid(t *testing.T) {
	if _, err := gameFlags(env.Default); err != nil {
		t.Error(err)
	}
}
