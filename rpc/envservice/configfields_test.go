package envservice_test

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"connectrpc.com/connect"

	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/env/training"
	_ "github.com/botarena/botarena/games" // every game
	botarenav1 "github.com/botarena/botarena/rpc/gen/botarena/v1"
	"github.com/botarena/botarena/rpc/internal/rpctest"
)

// TestListGamesReportsConfigFields checks that ListGames describes every
// field of every game's config, in the order and with the defaults of the
// default config, each with a JSON type and a doc.
func TestListGamesReportsConfigFields(t *testing.T) {
	t.Parallel()
	games := rpctest.ListGames(t, rpctest.New(t).Client(t))
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
		entry, err := env.Default.Lookup(g.GetName())
		if err != nil {
			t.Fatal(err)
		}
		appendOnly, err := env.AppendFields(entry.NewConfig())
		if err != nil {
			t.Fatalf("%s: %v", g.GetName(), err)
		}
		appends := map[string]string{}
		for _, a := range appendOnly {
			appends[a.Name] = a.Tensor
		}
		for _, f := range fields {
			if f.GetAppends() != appends[f.GetName()] {
				t.Errorf("%s: config field %q appends %q, its obs tag says %q", g.GetName(), f.GetName(), f.GetAppends(), appends[f.GetName()])
			}
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

// TestListGamesSendsEachGamesKit checks that ListGames sends what a game's
// package says of itself (its kit): every agent with a summary, the
// reference bot, the self-play opponents and the training defaults, for
// every name of the game.
func TestListGamesSendsEachGamesKit(t *testing.T) {
	t.Parallel()
	games := rpctest.ListGames(t, rpctest.New(t).Client(t))
	for _, g := range games {
		entry, err := env.Default.Lookup(g.GetName())
		if err != nil {
			t.Fatal(err)
		}
		kit := training.Of(entry)
		if kit.Reference == "" {
			t.Fatalf("%s: no training defaults", g.GetName())
		}
		for _, a := range g.GetAgents() {
			if g.GetAgentSummaries()[a] == "" {
				t.Errorf("%s: agent %q has no summary", g.GetName(), a)
			}
		}
		for _, a := range append([]string{kit.Reference}, kit.Opponents...) {
			if !slices.Contains(g.GetAgents(), a) {
				t.Errorf("%s: training defaults name %q, not one of its agents %v", g.GetName(), a, g.GetAgents())
			}
		}
		if g.GetReferenceAgent() != kit.Reference || !slices.Equal(g.GetTrainingOpponents(), kit.Opponents) {
			t.Errorf("%s: reference %q opponents %v, kit has %q %v", g.GetName(), g.GetReferenceAgent(), g.GetTrainingOpponents(), kit.Reference, kit.Opponents)
		}
		tr := g.GetTraining()
		if tr == nil || int(tr.GetHidden()) != kit.Hidden || len(tr.GetChannels()) != len(kit.Channels) || len(tr.GetStrides()) != len(tr.GetChannels()) ||
			tr.GetGamma() != kit.Gamma || tr.GetEntCoef() != kit.EntCoef {
			t.Errorf("%s: training %v, kit has %+v", g.GetName(), tr, kit)
			continue
		}
		var cfg map[string]any
		if err := json.Unmarshal([]byte(tr.GetConfigJson()), &cfg); err != nil || len(cfg) != len(kit.Config) {
			t.Errorf("%s: training config_json %q (%v), kit has %v", g.GetName(), tr.GetConfigJson(), err, kit.Config)
		}
		if g.GetName() == "bomberman/2p" && (g.GetReferenceAgent() != "reference" || cfg["points_reward"] != 0.002) {
			t.Errorf("bomberman/2p: reference %q, training config %v", g.GetReferenceAgent(), cfg)
		}
	}
}

func TestCreatePoolUnknownConfigFieldListsValidFields(t *testing.T) {
	t.Parallel()
	ts := rpctest.New(t)
	_, err := ts.Client(t).CreatePool(t.Context(), &botarenav1.CreatePoolRequest{Game: "battlebots", NumEnvs: 1, ConfigJson: `{"arenas":"9x9"}`})
	var ce *connect.Error
	if !errors.As(err, &ce) || ce.Code() != connect.CodeInvalidArgument ||
		!strings.Contains(ce.Message(), `unknown field "arenas" (valid: arena, max_rounds, names, hp_reward, history)`) {
		t.Errorf("CreatePool error = %v, want InvalidArgument listing the valid fields", err)
	}
}
