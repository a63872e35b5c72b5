package envservice_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"connectrpc.com/connect"

	"github.com/botarena/botarena/agents"
	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/rpc/client"
	botarenav1 "github.com/botarena/botarena/rpc/gen/botarena/v1"
	"github.com/botarena/botarena/rpc/internal/rpctest"
	"github.com/botarena/botarena/rpc/server"
	"github.com/botarena/botarena/vecenv"
)

func mixOf(choices ...*botarenav1.OpponentChoice) *botarenav1.OpponentMix {
	return &botarenav1.OpponentMix{Choices: choices}
}

func choice(spec string, weight float64) *botarenav1.OpponentChoice {
	return &botarenav1.OpponentChoice{Spec: spec, Weight: weight}
}

// TestSetOpponents: a served pool whose mixture changes mid-run gives the
// batches of a local pool with the same SetOpponents calls, and Stats
// reports the results per opponent.
func TestSetOpponents(t *testing.T) {
	t.Parallel()
	req := &botarenav1.CreatePoolRequest{
		Game: "battlebots", NumEnvs: 6, Seed: rpctest.Seed(9), Workers: 2, LearnerSeats: []int32{0},
		Opponents: map[int32]string{1: "nop"}, ConfigJson: `{"max_rounds": 12}`,
	}
	p := rpctest.CreatePool(t, rpctest.New(t).Client(t), req)
	local := rpctest.LocalPool(t, req, opponentsOf(req))
	factory := func(name string) env.AgentFactory {
		return func(spec *env.Spec) (env.Agent, error) { return agents.New("battlebots", name, spec) }
	}
	if _, err := p.Reset(t.Context()); err != nil {
		t.Fatal(err)
	}
	local.Reset()
	rng := rand.New(rand.NewPCG(1, 2))
	actions := make([]int32, p.Rows())
	for s := range 60 {
		if s == 10 {
			err := p.SetOpponents(t.Context(), map[int32]*botarenav1.OpponentMix{1: mixOf(choice("nop", 1), choice("sniper", 3))})
			if err != nil {
				t.Fatal(err)
			}
			if err := local.SetOpponents(1, []vecenv.OpponentChoice{
				{Name: "nop", Factory: factory("nop"), Weight: 1}, {Name: "sniper", Factory: factory("sniper"), Weight: 3},
			}); err != nil {
				t.Fatal(err)
			}
		}
		rpctest.RandomActions(rng, actions, p.Spec().Actions)
		res, err := p.Step(t.Context(), actions)
		if err != nil {
			t.Fatal(err)
		}
		if err := local.Step(actions); err != nil {
			t.Fatal(err)
		}
		if d := rpctest.EqualBuffers(res.Buffers, local.Buffers()); d != "" {
			t.Fatalf("step %d: %s", s, d)
		}
	}
	st, err := p.Stats(t.Context(), false)
	if err != nil {
		t.Fatal(err)
	}
	want := local.Stats().Opponents
	if len(st.GetOpponents()) != len(want) || len(want) != 2 {
		t.Fatalf("opponent stats %v, want %+v", st.GetOpponents(), want)
	}
	for k, o := range st.GetOpponents() {
		w := want[k]
		if o.GetSeat() != int32(w.Seat) || o.GetName() != w.Name || o.GetWeight() != w.Weight || o.GetEpisodes() != w.Episodes ||
			o.GetWins() != w.Wins || o.GetDraws() != w.Draws || o.GetLosses() != w.Losses {
			t.Errorf("opponent stats %v, want %+v", o, w)
		}
		if o.GetEpisodes() == 0 {
			t.Errorf("%s played no episode", o.GetName())
		}
	}
}

// TestSetOpponentsErrors: SetOpponents checks the pool, the seats, the
// agents, the server's permission for external agents and the weights.
func TestSetOpponentsErrors(t *testing.T) {
	t.Parallel()
	file := rpctest.PolicyFixture(t, "battlebots")
	cube := rpctest.PolicyFixture(t, "battlecube")
	req := &botarenav1.CreatePoolRequest{
		Game: "battlebots", NumEnvs: 2, Seed: rpctest.Seed(1), LearnerSeats: []int32{0},
		Opponents: map[int32]string{1: "nop"}, ConfigJson: `{"max_rounds": 6}`,
	}
	plainClient := rpctest.New(t).Client(t)
	plain := rpctest.CreatePool(t, plainClient, req)
	open := rpctest.CreatePool(t, rpctest.New(t, server.WithAgentCapabilities(agents.Capabilities{Unrestricted: true})).Client(t), req)
	set := func(p *client.Pool, id string, opps map[int32]*botarenav1.OpponentMix) error {
		if id != "" {
			_, err := plainClient.Raw().SetOpponents(t.Context(), &botarenav1.SetOpponentsRequest{PoolId: id, Opponents: opps})
			return err
		}
		return p.SetOpponents(t.Context(), opps)
	}
	one := func(m *botarenav1.OpponentMix) map[int32]*botarenav1.OpponentMix {
		return map[int32]*botarenav1.OpponentMix{1: m}
	}
	for _, tc := range []struct {
		name   string
		pool   *client.Pool
		id     string
		opps   map[int32]*botarenav1.OpponentMix
		code   connect.Code
		substr []string
	}{
		{"unknown_pool", plain, "nope", one(mixOf(choice("nop", 1))), connect.CodeNotFound, []string{"nope"}},
		{"no_seats", plain, "", nil, connect.CodeInvalidArgument, []string{"opponents"}},
		{"learner_seat", plain, "", map[int32]*botarenav1.OpponentMix{0: mixOf(choice("nop", 1))}, connect.CodeInvalidArgument, []string{"learner seat"}},
		{"bad_seat", plain, "", map[int32]*botarenav1.OpponentMix{5: mixOf(choice("nop", 1))}, connect.CodeInvalidArgument, []string{"opponents[5]"}},
		{"empty_mix", plain, "", one(mixOf()), connect.CodeInvalidArgument, []string{"at least one choice"}},
		{"unknown_agent", plain, "", one(mixOf(choice("gopher", 1))), connect.CodeNotFound, []string{"gopher", "opponents[1].choices[0].spec"}},
		{"policy_denied", plain, "", one(mixOf(choice("policy:"+file, 1))), connect.CodePermissionDenied, []string{"--allow-external-bots"}},
		{"negative_weight", plain, "", one(mixOf(choice("nop", 1), choice("sniper", -1))), connect.CodeInvalidArgument, []string{"weight"}},
		{"nan_weight", plain, "", one(mixOf(choice("nop", math.NaN()))), connect.CodeInvalidArgument, []string{"weight"}},
		{"zero_sum", plain, "", one(mixOf(choice("nop", 0), choice("sniper", 0))), connect.CodeInvalidArgument, []string{"positive"}},
		{"repeated_name", plain, "", one(mixOf(choice("nop", 1), choice("nop", 2))), connect.CodeInvalidArgument, []string{"repeats"}},
		{"policy_of_another_game", open, "", one(mixOf(choice("policy:"+cube, 1))), connect.CodeInvalidArgument, []string{"battlecube"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rpctest.WantCode(t, set(tc.pool, tc.id, tc.opps), tc.code, tc.substr...)
		})
	}
	// With --allow-external-bots a policy file joins the mixture and plays.
	if err := set(open, "", one(mixOf(choice("policy:"+file, 1), &botarenav1.OpponentChoice{Spec: "nop", Weight: 1, Name: "idle"}))); err != nil {
		t.Fatal(err)
	}
	if _, err := open.Reset(t.Context()); err != nil {
		t.Fatal(err)
	}
	for range 20 {
		if _, err := open.Step(t.Context(), make([]int32, open.Rows())); err != nil {
			t.Fatal(err)
		}
	}
	st, err := open.Stats(t.Context(), false)
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, o := range st.GetOpponents() {
		names[o.GetName()] = true
	}
	if !names["policy:"+file] || !names["idle"] {
		t.Errorf("opponent stats %v, want the policy (named by its spec) and idle", st.GetOpponents())
	}
}
