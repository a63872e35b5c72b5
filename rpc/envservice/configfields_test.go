package envservice_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"connectrpc.com/connect"

	"github.com/botarena/botarena/env"
	_ "github.com/botarena/botarena/games" // every game
	botarenav1 "github.com/botarena/botarena/rpc/gen/botarena/v1"
	"github.com/botarena/botarena/rpc/internal/rpctest"
)

// TestListGamesReportsConfigFields checks that ListGames describes every
// field of every game's config, in the order and with the defaults of the
// default config, each with a JSON type and a doc.
func TestListGamesReportsConfigFields(t *testing.T) {
	t.Parallel()
	ts := rpctest.New(t)
	games, err := ts.Client(t).ListGames(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if len(games) != len(env.Default.Names()) {
		t.Fatalf("%d games, the registry has %d", len(games), len(env.Default.Names()))
	}
	for _, g := range games {
		var defaults map[string]json.RawMessage
		if err := json.Unmarshal([]byte(g.GetDefaultConfigJson()), &defaults); err != nil {
			t.Fatalf("%s: default_config_json: %v", g.GetName(), err)
		}
		fields := g.GetConfigFields()
		if len(fields) == 0 || len(fields) != len(defaults) {
			t.Errorf("%s: %d config fields, the default config has %d", g.GetName(), len(fields), len(defaults))
		}
		for _, f := range fields {
			if f.GetName() == "" || f.GetType() == "" || f.GetDoc() == "" {
				t.Errorf("%s: config field %v lacks a name, type or doc", g.GetName(), f)
			}
			if def, ok := defaults[f.GetName()]; !ok || string(def) != f.GetDefaultJson() {
				t.Errorf("%s: config field %q default_json %s, default_config_json has %s", g.GetName(), f.GetName(), f.GetDefaultJson(), def)
			}
		}
		if g.GetName() == "bomberman/2p" {
			f := fields[0]
			if f.GetName() != "players" || f.GetType() != "integer" || f.GetDefaultJson() != "2" || f.GetAllowed() != "2..12" {
				t.Errorf("bomberman/2p: first config field %v", f)
			}
		}
	}
}

func TestCreatePoolUnknownConfigFieldListsValidFields(t *testing.T) {
	t.Parallel()
	ts := rpctest.New(t)
	_, err := ts.Client(t).CreatePool(t.Context(), &botarenav1.CreatePoolRequest{Game: "battlebots", NumEnvs: 1, ConfigJson: `{"arenas":"9x9"}`})
	var ce *connect.Error
	if !errors.As(err, &ce) || ce.Code() != connect.CodeInvalidArgument ||
		!strings.Contains(ce.Message(), `unknown field "arenas" (valid: arena, max_rounds, names, hp_reward)`) {
		t.Errorf("CreatePool error = %v, want InvalidArgument listing the valid fields", err)
	}
}
