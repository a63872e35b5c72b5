package main

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/botarena/botarena/env"
)

// TestEveryGameConfigFieldHasADoc checks that every field of every
// registered game's config (the games under env/; testgame is this
// package's fixture) has a doc tag, a JSON type, and a default that is the
// default config's value.
func TestEveryGameConfigFieldHasADoc(t *testing.T) {
	var games []string
	for _, name := range env.Default.Names() {
		entry, err := env.Default.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		cfg := entry.NewConfig()
		if !strings.HasPrefix(reflect.TypeOf(cfg).Elem().PkgPath(), "github.com/botarena/botarena/env/") {
			continue
		}
		games = append(games, name)
		t.Run(strings.ReplaceAll(name, "/", "_"), func(t *testing.T) {
			fields, err := env.Default.ConfigFields(name)
			if err != nil {
				t.Fatal(err)
			}
			if len(fields) == 0 {
				t.Fatalf("%s: config has no fields", name)
			}
			data, err := json.Marshal(cfg)
			if err != nil {
				t.Fatal(err)
			}
			var defaults map[string]json.RawMessage
			if err := json.Unmarshal(data, &defaults); err != nil {
				t.Fatal(err)
			}
			if len(defaults) != len(fields) {
				t.Errorf("%s: %d config fields, the default config has %d: %s", name, len(fields), len(defaults), data)
			}
			for _, f := range fields {
				if strings.TrimSpace(f.Doc) == "" {
					t.Errorf("%s: config field %q has no doc tag", name, f.Name)
				}
				if strings.ContainsAny(f.Doc+f.Allowed, "\n\t") {
					t.Errorf("%s: config field %q: doc and allowed must be one line", name, f.Name)
				}
				if f.Type == "" {
					t.Errorf("%s: config field %q has no JSON type", name, f.Name)
				}
				if string(defaults[f.Name]) != string(f.Default) {
					t.Errorf("%s: config field %q default %s, the default config has %s", name, f.Name, f.Default, defaults[f.Name])
				}
			}
		})
	}
	for _, base := range []string{"battlebots", "battlecube", "battleships", "bomberman", "portalbomber"} {
		if !slices.Contains(games, base) {
			t.Errorf("%s is not registered in this build", base)
		}
	}
}

func TestGamesJSONListsConfigFields(t *testing.T) {
	stdout, stderr, code := runCLI(t, "", "games", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, line := range strings.Split(strings.TrimSpace(stdout), "\n") {
		var info struct {
			Name   string `json:"name"`
			Config []struct {
				Name    string          `json:"name"`
				Type    string          `json:"type"`
				Default json.RawMessage `json:"default"`
				Allowed string          `json:"allowed"`
				Doc     string          `json:"doc"`
			} `json:"config"`
		}
		if err := json.Unmarshal([]byte(line), &info); err != nil {
			t.Fatalf("line %q: %v", line, err)
		}
		if len(info.Config) == 0 {
			t.Errorf("%s: no config fields", info.Name)
			continue
		}
		if info.Name == "bomberman/12p" {
			f := info.Config[0]
			if f.Name != "players" || f.Type != "integer" || string(f.Default) != "12" || f.Allowed != "2..12" || f.Doc == "" {
				t.Errorf("bomberman/12p: first config field %+v", f)
			}
		}
	}
}

func TestGamesOneGame(t *testing.T) {
	stdout, stderr, code := runCLI(t, "", "games", "bomberman")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{
		"game          bomberman\n",
		"seats         4\n",
		"observations  planes uint8[12,21,21]",
		"agents        console, hunter, idle, random, reference\n",
		"FIELD           TYPE     DEFAULT  ALLOWED",
		"\nplayers         integer  4        2..12 ",
		"\npowerups        string   \"auto\"   auto, random, distance",
		"\npoints_reward   number   0        any number ",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("games bomberman lacks %q:\n%s", want, stdout)
		}
	}
	stdout, _, code = runCLI(t, "", "games", "testgame", "--json")
	var info gameInfo
	if err := json.Unmarshal([]byte(stdout), &info); code != 0 || err != nil || strings.Count(stdout, "\n") != 1 {
		t.Fatalf("games testgame --json: exit %d, %v:\n%s", code, err, stdout)
	}
	if info.Name != "testgame" || len(info.Config) != 3 || info.Config[2].Name != "names" || info.Config[2].Type != "array" {
		t.Errorf("games testgame --json = %+v", info)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"games", "nogame"}, `unknown game "nogame" (valid: `},
		{[]string{"games", "bomberman", "battlebots"}, "games: want at most one GAME argument, got 2"},
	} {
		if _, stderr, code := runCLI(t, "", tc.args...); code == 0 || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, stderr %q, want %q", tc.args, code, stderr, tc.want)
		}
	}
}

func TestUnknownConfigFieldListsTheValidOnes(t *testing.T) {
	_, stderr, code := runCLI(t, "", "play", "bomberman", "--config", `{"player":3}`)
	want := `bomberman: config: unknown field "player" (valid: players, max_rounds, powerups, legacy_seeding, names, console_seats, map_crlf, points_reward)`
	if code == 0 || !strings.Contains(stderr, want) {
		t.Errorf("exit %d, stderr %q, want it to contain %q", code, stderr, want)
	}
}
