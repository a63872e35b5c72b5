package main

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/internal/testutil"
	"github.com/botarena/botarena/rpc/envproto"
	botarenav1 "github.com/botarena/botarena/rpc/gen/botarena/v1"
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

// parseGameInfo reads one line of `games --json` as ListGames' GameInfo
// message, refusing fields the proto lacks.
func parseGameInfo(t *testing.T, line string) *botarenav1.GameInfo {
	t.Helper()
	info := &botarenav1.GameInfo{}
	if err := protojson.Unmarshal([]byte(line), info); err != nil {
		t.Fatalf("line %q: %v", line, err)
	}
	return info
}

// TestGamesJSONIsTheProto: every line of `games --json` is ListGames'
// message for the game, field for field, with the proto's field names and
// every field present (so a field of env.Spec reaches the CLI as it
// reaches the proto: see rpc/envproto's TestEveryFieldOfSpecReachesTheProto).
func TestGamesJSONIsTheProto(t *testing.T) {
	stdout := runOK(t, "games", "--json")
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	if len(lines) != len(env.Default.Names()) {
		t.Fatalf("%d lines for %d games", len(lines), len(env.Default.Names()))
	}
	for i, line := range lines {
		info := parseGameInfo(t, line)
		want, err := envproto.GameInfo(env.Default, env.Default.Names()[i])
		if err != nil {
			t.Fatal(err)
		}
		if !proto.Equal(info, want) {
			t.Errorf("line %d: %v, want ListGames' %v", i, info, want)
		}
		for _, key := range []string{`"action_factors":`, `"shared":`, `"training":`, `"reference_agent":`} {
			if !strings.Contains(line, key) {
				t.Errorf("%s: no %s in %s", info.GetName(), key, line)
			}
		}
	}
}

func TestGamesJSONListsConfigFields(t *testing.T) {
	stdout := runOK(t, "games", "--json")
	for _, line := range strings.Split(strings.TrimSpace(stdout), "\n") {
		info := parseGameInfo(t, line)
		if len(info.ConfigFields) == 0 {
			t.Errorf("%s: no config fields", info.Name)
			continue
		}
		if info.Name == "bomberman/12p" {
			f := info.ConfigFields[0]
			if f.Name != "players" || f.Type != "integer" || f.DefaultJson != "12" || f.Allowed != "2..12" || f.Doc == "" {
				t.Errorf("bomberman/12p: first config field %v", f)
			}
		}
	}
}

func TestGamesOneGame(t *testing.T) {
	testutil.WantContains(t, "games bomberman", runOK(t, "games", "bomberman"),
		"game          bomberman\n",
		"seats         4\n",
		"observations  planes uint8[12,21,21]",
		"agents        console, harvester, hunter, idle, planner, random, reference\n",
		"FIELD             TYPE     DEFAULT  ALLOWED",
		"\nplayers           integer  4        2..12 ",
		"\npowerups          string   \"auto\"   auto, random, distance",
		"\npoints_reward     number   0        any number ",
	)
	// An append-only field says which tensor it appends to, in the table
	// and in the JSON.
	testutil.WantContains(t, "games battlebots", runOK(t, "games", "battlebots"), "(only appends to scalars)\n")
	for _, f := range parseGameInfo(t, runOK(t, "games", "battlebots", "--json")).ConfigFields {
		if want := map[string]string{"history": "scalars"}[f.Name]; f.Appends != want {
			t.Errorf("games battlebots --json: field %s appends %q, want %q", f.Name, f.Appends, want)
		}
	}
	stdout, _, code := runCLI(t, "", "games", "testgame", "--json")
	if code != 0 || strings.Count(stdout, "\n") != 1 {
		t.Fatalf("games testgame --json: exit %d:\n%s", code, stdout)
	}
	info := parseGameInfo(t, stdout)
	if info.Name != "testgame" || len(info.ConfigFields) != 3 || info.ConfigFields[2].Name != "names" || info.ConfigFields[2].Type != "array" {
		t.Errorf("games testgame --json = %v", info)
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
	want := `bomberman: config: unknown field "player" (valid: players, max_rounds, powerups, legacy_seeding, names, console_seats, map_crlf, points_reward, view_radius, safe_mask, safe_mask_wary, safe_mask_strict, touched_planes, opponent_scalars)`
	if code == 0 || !strings.Contains(stderr, want) {
		t.Errorf("exit %d, stderr %q, want it to contain %q", code, stderr, want)
	}
}
