package envservice_test

import (
	"bytes"
	"context"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"connectrpc.com/connect"

	"github.com/botarena/botarena/agents"
	_ "github.com/botarena/botarena/agents/policy" // registers policy:PATH
	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/observations"
	"github.com/botarena/botarena/rpc/client"
	"github.com/botarena/botarena/rpc/envservice"
	botarenav1 "github.com/botarena/botarena/rpc/gen/botarena/v1"
	"github.com/botarena/botarena/rpc/internal/rpctest"
	"github.com/botarena/botarena/rpc/server"
	"github.com/botarena/botarena/vecenv"
)

// opponentsOf returns the vecenv factories of req's opponents, as the
// server makes them.
func opponentsOf(req *botarenav1.CreatePoolRequest) map[int]env.AgentFactory {
	if len(req.GetOpponents()) == 0 {
		return nil
	}
	opps := map[int]env.AgentFactory{}
	for seat, name := range req.GetOpponents() {
		opps[int(seat)] = func(spec *env.Spec) (env.Agent, error) { return agents.New(req.GetGame(), name, spec) }
	}
	return opps
}

// TestStepMatchesLocalPool steps a served pool and a local serial pool with
// the same seed and actions and checks that every batch message (and the
// ended flags and final batches) is the same, byte for byte.
func TestStepMatchesLocalPool(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		req  *botarenav1.CreatePoolRequest
	}{
		{"all_seats", &botarenav1.CreatePoolRequest{Game: "bomberman", NumEnvs: 5, Seed: rpctest.Seed(7), Workers: 2, ConfigJson: `{"max_rounds": 9}`}},
		{"learner_and_opponents", &botarenav1.CreatePoolRequest{
			Game: "bomberman/2p", NumEnvs: 3, Seed: rpctest.Seed(11), LearnerSeats: []int32{1},
			Opponents: map[int32]string{0: "random"}, ConfigJson: `{"max_rounds": 6}`,
		}},
		{"same_step", &botarenav1.CreatePoolRequest{
			Game: "bomberman", NumEnvs: 4, Seed: rpctest.Seed(3), ConfigJson: `{"max_rounds": 5}`,
			AutoReset: botarenav1.AutoReset_AUTO_RESET_SAME_STEP,
		}},
		{"zstd", &botarenav1.CreatePoolRequest{
			Game: "bomberman", NumEnvs: 2, Seed: rpctest.Seed(5), ConfigJson: `{"max_rounds": 5}`,
			Compression: botarenav1.Compression_COMPRESSION_ZSTD,
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			raw, created, local := rpctest.ServedAndLocal(t, tc.req, opponentsOf(tc.req))
			ctx := t.Context()
			if int(created.GetRows()) != local.Rows() || created.GetSeed() != tc.req.GetSeed() {
				t.Fatalf("created %v, want %d rows and seed %d", created, local.Rows(), tc.req.GetSeed())
			}
			schema, err := observations.SchemaMessage(local.Spec())
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(created.GetArrowSchema(), schema) {
				t.Fatal("schema message differs from observations.SchemaMessage")
			}
			zstd := tc.req.GetCompression() == botarenav1.Compression_COMPRESSION_ZSTD
			enc, err := observations.NewEncoder(local.Spec(), local.Rows())
			if err != nil {
				t.Fatal(err)
			}
			defer enc.Close()
			dec, err := observations.NewDecoder(schema)
			if err != nil {
				t.Fatal(err)
			}
			// check compares a served batch with the local pool's buffers:
			// byte for byte when uncompressed, decoded when zstd.
			check := func(what string, got []byte, want *env.Buffers) {
				t.Helper()
				if zstd {
					b, err := dec.Decode(got)
					if err != nil {
						t.Fatalf("%s: %v", what, err)
					}
					if d := rpctest.EqualBuffers(b, want); d != "" {
						t.Fatalf("%s: %s", what, d)
					}
					return
				}
				msg, err := enc.AppendBatchMessage(nil, want)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got, msg) {
					t.Fatalf("%s: batch message differs from the local pool's (%d bytes, want %d)", what, len(got), len(msg))
				}
			}

			reset, err := raw.Reset(ctx, &botarenav1.ResetRequest{PoolId: created.GetPoolId()})
			if err != nil {
				t.Fatal(err)
			}
			if err := local.Reset(); err != nil {
				t.Fatal(err)
			}
			check("reset", reset.GetBatch(), local.Buffers())

			rng := rand.New(rand.NewPCG(1, 2))
			actions := make([]int32, local.Rows())
			ends := 0
			for i := range 20 {
				rpctest.RandomActions(rng, actions, local.Spec().Actions)
				resp, err := raw.Step(ctx, &botarenav1.StepRequest{PoolId: created.GetPoolId(), Actions: client.EncodeActions(nil, actions)})
				if err != nil {
					t.Fatalf("step %d: %v", i, err)
				}
				if err := local.Step(actions); err != nil {
					t.Fatal(err)
				}
				check("step", resp.GetBatch(), local.Buffers())
				anyEnded := false
				for r, e := range local.Ended() {
					if (resp.GetEnded()[r] == 1) != e {
						t.Fatalf("step %d: ended[%d] = %d, want %v", i, r, resp.GetEnded()[r], e)
					}
					anyEnded = anyEnded || e
				}
				if anyEnded {
					ends++
				}
				if local.AutoReset() == vecenv.SameStep && anyEnded {
					final := *local.Buffers()
					final.Obs = local.FinalObs()
					check("final", resp.GetFinalBatch(), &final)
				} else if len(resp.GetFinalBatch()) != 0 {
					t.Fatalf("step %d: final batch of %d bytes, want none", i, len(resp.GetFinalBatch()))
				}
			}
			if ends == 0 {
				t.Error("no episode ended; the test does not cover episode ends")
			}
		})
	}
}

func TestErrors(t *testing.T) {
	t.Parallel()
	// A case's call makes its requests of a server with three pools, which
	// a request names by kind: "live" (reset and ready), "fresh" (never
	// reset) and "closed" (closed by ClosePool).
	type env struct {
		ts  *rpctest.Server
		ids map[string]string // pool id by kind
	}
	type call = func(ctx context.Context, c *client.Client, e *env) error
	// id is the id of the pool of kind (kind itself when it is no kind).
	id := func(e *env, kind string) string {
		if id, ok := e.ids[kind]; ok {
			return id
		}
		return kind
	}
	create := func(req *botarenav1.CreatePoolRequest) call {
		return func(ctx context.Context, c *client.Client, _ *env) error {
			_, err := c.CreatePool(ctx, req)
			return err
		}
	}
	step := func(pool string, actions []byte) call {
		return func(ctx context.Context, c *client.Client, e *env) error {
			_, err := c.Raw().Step(ctx, &botarenav1.StepRequest{PoolId: id(e, pool), Actions: actions})
			return err
		}
	}
	render := func(pool string, envIndex, seat int32, format string) call {
		return func(ctx context.Context, c *client.Client, e *env) error {
			_, err := c.Raw().Render(ctx, &botarenav1.RenderRequest{PoolId: id(e, pool), Env: envIndex, Seat: seat, Format: format})
			return err
		}
	}
	for _, tc := range []struct {
		name string
		opts []any // of rpctest.New
		call call
		code connect.Code
		want []string
	}{
		{"unknown_game", nil, create(&botarenav1.CreatePoolRequest{Game: "chess", NumEnvs: 1}),
			connect.CodeNotFound, []string{`unknown game "chess"`, "bomberman"}},
		{"no_game", nil, create(&botarenav1.CreatePoolRequest{NumEnvs: 1}),
			connect.CodeInvalidArgument, []string{"game: required"}},
		{"unknown_agent", nil, create(&botarenav1.CreatePoolRequest{Game: "bomberman/2p", NumEnvs: 1,
			LearnerSeats: []int32{0}, Opponents: map[int32]string{1: "deep-blue"}}),
			connect.CodeNotFound, []string{"opponents[1]", `unknown agent "deep-blue"`, "random"}},
		{"console_opponent", nil, create(&botarenav1.CreatePoolRequest{Game: "bomberman/2p", NumEnvs: 1,
			LearnerSeats: []int32{0}, Opponents: map[int32]string{1: "console"}}),
			connect.CodeInvalidArgument, []string{"opponents[1]", "console agent"}},
		{"missing_opponent", nil, create(&botarenav1.CreatePoolRequest{Game: "bomberman", NumEnvs: 1, LearnerSeats: []int32{0}}),
			connect.CodeInvalidArgument, []string{"Opponents", "seat 1"}},
		{"opponent_on_learner_seat", nil, create(&botarenav1.CreatePoolRequest{Game: "bomberman/2p", NumEnvs: 1,
			LearnerSeats: []int32{0, 1}, Opponents: map[int32]string{1: "idle"}}),
			connect.CodeInvalidArgument, []string{"Opponents[1]", "learner seat"}},
		{"bad_learner_seat", nil, create(&botarenav1.CreatePoolRequest{Game: "bomberman/2p", NumEnvs: 1, LearnerSeats: []int32{5}}),
			connect.CodeInvalidArgument, []string{"LearnerSeats[0]", "5"}},
		// 100,000 seats: the error names the seats, not the size of a batch.
		{"learner_seats_more_than_the_game_has", nil, create(&botarenav1.CreatePoolRequest{Game: "bomberman/2p", NumEnvs: 4096, LearnerSeats: make([]int32, 100000)}),
			connect.CodeInvalidArgument, []string{"learner_seats: 100000 seats given", "has 2"}},
		{"bad_config_field", nil, create(&botarenav1.CreatePoolRequest{Game: "bomberman", NumEnvs: 1, ConfigJson: `{"players": 99}`}),
			connect.CodeInvalidArgument, []string{"players", "99"}},
		{"unknown_config_field", nil, create(&botarenav1.CreatePoolRequest{Game: "bomberman", NumEnvs: 1, ConfigJson: `{"colour": 1}`}),
			connect.CodeInvalidArgument, []string{"config_json", `unknown field "colour"`}},
		{"malformed_config", nil, create(&botarenav1.CreatePoolRequest{Game: "bomberman", NumEnvs: 1, ConfigJson: `[1`}),
			connect.CodeInvalidArgument, []string{"config_json"}},
		{"zero_envs", nil, create(&botarenav1.CreatePoolRequest{Game: "bomberman", NumEnvs: 0}),
			connect.CodeInvalidArgument, []string{"num_envs: got 0, want at least 1"}},
		{"negative_workers", nil, create(&botarenav1.CreatePoolRequest{Game: "bomberman", NumEnvs: 1, Workers: -1}),
			connect.CodeInvalidArgument, []string{"workers: got -1"}},
		{"too_many_envs", []any{envservice.WithMaxEnvsPerPool(4)}, create(&botarenav1.CreatePoolRequest{Game: "bomberman", NumEnvs: 5}),
			connect.CodeResourceExhausted, []string{"num_envs: got 5", "at most 4 envs per pool"}},
		{"too_many_total_envs", []any{envservice.WithMaxTotalEnvs(4)}, create(&botarenav1.CreatePoolRequest{Game: "bomberman", NumEnvs: 3}),
			connect.CodeResourceExhausted, []string{"num_envs: got 3", "2 of its 4 envs in use"}},
		{"too_many_pools", []any{envservice.WithMaxPools(3)}, func(ctx context.Context, c *client.Client, e *env) error {
			// Two pools are open; the closed one gave its slot back.
			if _, err := c.CreatePool(ctx, &botarenav1.CreatePoolRequest{Game: "bomberman", NumEnvs: 1}); err != nil {
				return err
			}
			_, err := c.CreatePool(ctx, &botarenav1.CreatePoolRequest{Game: "bomberman", NumEnvs: 1})
			return err
		}, connect.CodeResourceExhausted, []string{"3 pools open"}},
		{"wrong_action_bytes", nil, step("live", make([]byte, 7)),
			connect.CodeInvalidArgument, []string{"actions: got 7 bytes, want 16", "4 rows"}},
		{"action_out_of_range", nil, step("live", client.EncodeActions(nil, []int32{0, 0, 0, 7})),
			connect.CodeInvalidArgument, []string{"row 3 (env 0, seat 3): got 7, want 0..6"}},
		{"negative_action", nil, step("live", client.EncodeActions(nil, []int32{0, -1, 0, 0})),
			connect.CodeInvalidArgument, []string{"row 1 (env 0, seat 1): got -1, want 0..6"}},
		{"step_before_reset", nil, step("fresh", make([]byte, 16)),
			connect.CodeFailedPrecondition, []string{"before the first Reset"}},
		{"render_before_reset", nil, render("fresh", 0, 0, ""),
			connect.CodeFailedPrecondition, []string{"before the first Reset"}},
		{"unknown_pool", nil, step("p-nope", nil),
			connect.CodeNotFound, []string{`pool "p-nope": no such pool`}},
		{"no_pool_id", nil, func(ctx context.Context, c *client.Client, e *env) error {
			_, err := c.Raw().Reset(ctx, &botarenav1.ResetRequest{})
			return err
		}, connect.CodeInvalidArgument, []string{"pool_id: required"}},
		{"closed_pool", nil, step("closed", make([]byte, 16)),
			connect.CodeNotFound, []string{"closed by ClosePool"}},
		{"close_closed_pool", nil, func(ctx context.Context, c *client.Client, e *env) error {
			_, err := c.Raw().ClosePool(ctx, &botarenav1.ClosePoolRequest{PoolId: id(e, "closed")})
			return err
		}, connect.CodeNotFound, []string{"closed by ClosePool"}},
		{"render_bad_env", nil, render("live", 1, 0, ""),
			connect.CodeInvalidArgument, []string{"env: got 1, want 0..0"}},
		{"render_bad_seat", nil, render("live", 0, 4, ""),
			connect.CodeInvalidArgument, []string{"seat: got 4"}},
		{"render_bad_format", nil, render("live", 0, 0, "png"),
			connect.CodeInvalidArgument, []string{`format: got "png"`, "map.txt"}},
		{"shut_down", nil, func(ctx context.Context, c *client.Client, e *env) error {
			e.ts.Close()
			_, err := c.Raw().Reset(ctx, &botarenav1.ResetRequest{PoolId: id(e, "live")})
			return err
		}, connect.CodeUnavailable, []string{"shutting down"}},
		{"create_after_shut_down", nil, func(ctx context.Context, c *client.Client, e *env) error {
			e.ts.Close()
			return create(&botarenav1.CreatePoolRequest{Game: "bomberman", NumEnvs: 1})(ctx, c, e)
		}, connect.CodeUnavailable, []string{"shutting down"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ts := rpctest.New(t, tc.opts...)
			c := ts.Client(t)
			ctx := t.Context()
			p := rpctest.CreatePool(t, c, &botarenav1.CreatePoolRequest{Game: "bomberman", NumEnvs: 1, Seed: rpctest.Seed(1)})
			if _, err := p.Reset(ctx); err != nil {
				t.Fatal(err)
			}
			e := &env{ts: ts, ids: map[string]string{
				"live":  p.ID(),
				"fresh": rpctest.CreatePool(t, c, &botarenav1.CreatePoolRequest{Game: "bomberman", NumEnvs: 1}).ID(),
			}}
			closed, err := c.CreatePool(ctx, &botarenav1.CreatePoolRequest{Game: "bomberman", NumEnvs: 1})
			if err != nil {
				t.Fatal(err)
			}
			if err := closed.Close(ctx); err != nil {
				t.Fatal(err)
			}
			e.ids["closed"] = closed.ID()
			rpctest.WantCode(t, tc.call(ctx, c, e), tc.code, tc.want...)
		})
	}
}

func TestIdleTimeout(t *testing.T) {
	t.Parallel()
	ts := rpctest.New(t, envservice.WithIdleTimeout(20*time.Millisecond))
	c := ts.Client(t)
	p := rpctest.CreatePool(t, c, &botarenav1.CreatePoolRequest{Game: "bomberman", NumEnvs: 1})
	if _, err := p.Reset(t.Context()); err != nil && connect.CodeOf(err) != connect.CodeNotFound {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		_, err := p.Step(t.Context(), make([]int32, p.Rows()))
		if err != nil {
			rpctest.WantCode(t, err, connect.CodeNotFound, p.ID(), "closed after being idle for 20ms")
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the idle pool was not closed")
		}
		time.Sleep(50 * time.Millisecond)
	}
	// Its envs are free again: a pool of the whole limit fits.
	if _, err := c.CreatePool(t.Context(), &botarenav1.CreatePoolRequest{Game: "bomberman", NumEnvs: 1}); err != nil {
		t.Fatal(err)
	}
}

func TestStepStream(t *testing.T) {
	t.Parallel()
	ts := rpctest.New(t)
	c := ts.Client(t)
	req := &botarenav1.CreatePoolRequest{Game: "bomberman", NumEnvs: 2, Seed: rpctest.Seed(21), ConfigJson: `{"max_rounds": 5}`}
	p := rpctest.CreatePool(t, c, req)
	local := rpctest.LocalPool(t, req, nil)
	s := rpctest.OpenStream(t, t.Context(), p)
	rng := rand.New(rand.NewPCG(5, 6))
	actions := make([]int32, p.Rows())
	for round := range 2 {
		got, err := s.Reset()
		if err != nil {
			t.Fatal(err)
		}
		local.Reset()
		if d := rpctest.EqualBuffers(got, local.Buffers()); d != "" {
			t.Fatalf("round %d reset: %s", round, d)
		}
		for i := range 8 {
			rpctest.RandomActions(rng, actions, p.Spec().Actions)
			res, err := s.Step(actions)
			if err != nil {
				t.Fatal(err)
			}
			local.Step(actions)
			if d := rpctest.EqualBuffers(res.Buffers, local.Buffers()); d != "" {
				t.Fatalf("round %d step %d: %s", round, i, d)
			}
			if !slices.Equal(res.Ended, local.Ended()) {
				t.Fatalf("round %d step %d: ended differs", round, i)
			}
		}
	}
	// A bad request ends the stream with its code.
	_, err := s.Step(actions[:1])
	rpctest.WantCode(t, err, connect.CodeInvalidArgument, "actions: got 4 bytes")
	// The unary API still serves the pool where the stream left it.
	if _, err := p.Step(t.Context(), actions); err != nil {
		t.Fatal(err)
	}
}

func TestStepStreamErrors(t *testing.T) {
	t.Parallel()
	ts := rpctest.New(t)
	c := ts.Client(t)
	p := rpctest.CreatePool(t, c, &botarenav1.CreatePoolRequest{Game: "bomberman", NumEnvs: 1})
	q := rpctest.CreatePool(t, c, &botarenav1.CreatePoolRequest{Game: "bomberman", NumEnvs: 1})
	for _, tc := range []struct {
		name string
		reqs []*botarenav1.StepStreamRequest
		code connect.Code
		want string
	}{
		{"no_pool", []*botarenav1.StepStreamRequest{{Reset_: true}}, connect.CodeInvalidArgument, "first request of a stream must name the pool"},
		{"unknown_pool", []*botarenav1.StepStreamRequest{{PoolId: "p-x", Reset_: true}}, connect.CodeNotFound, `pool "p-x"`},
		{"step_before_reset", []*botarenav1.StepStreamRequest{{PoolId: p.ID(), Actions: make([]byte, 16)}}, connect.CodeFailedPrecondition, "before the first Reset"},
		{"other_pool", []*botarenav1.StepStreamRequest{{PoolId: q.ID(), Reset_: true}, {PoolId: p.ID(), Reset_: true}}, connect.CodeInvalidArgument, "this stream serves pool"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := c.Raw().StepStream(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			defer s.CloseResponse()
			for i, req := range tc.reqs {
				if err := s.Send(req); err != nil {
					t.Fatal(err)
				}
				_, err := s.Receive()
				if i < len(tc.reqs)-1 {
					if err != nil {
						t.Fatal(err)
					}
					continue
				}
				rpctest.WantCode(t, err, tc.code, tc.want)
			}
		})
	}
}

// TestStreamClientVanishes cancels a stream mid-way: the server goes on
// serving other clients and the pool itself.
func TestStreamClientVanishes(t *testing.T) {
	t.Parallel()
	ts := rpctest.New(t)
	c := ts.Client(t)
	p := rpctest.CreatePool(t, c, &botarenav1.CreatePoolRequest{Game: "bomberman", NumEnvs: 2})
	ctx, cancel := context.WithCancel(t.Context())
	s := rpctest.ResetStream(t, ctx, p)
	if _, err := s.Step(make([]int32, p.Rows())); err != nil {
		t.Fatal(err)
	}
	cancel()
	if _, err := s.Step(make([]int32, p.Rows())); err == nil {
		t.Error("step on a cancelled stream succeeded")
	}
	// The pool and the server are fine.
	other := ts.Client(t)
	q := rpctest.CreatePool(t, other, &botarenav1.CreatePoolRequest{Game: "bomberman", NumEnvs: 1})
	if _, err := q.Reset(t.Context()); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Step(t.Context(), make([]int32, p.Rows())); err != nil {
		t.Fatal(err)
	}
	s2 := rpctest.OpenStream(t, t.Context(), p)
	if _, err := s2.Step(make([]int32, p.Rows())); err != nil {
		t.Fatal(err)
	}
}

func TestRender(t *testing.T) {
	t.Parallel()
	ts := rpctest.New(t)
	c := ts.Client(t)
	p := rpctest.CreatePool(t, c, &botarenav1.CreatePoolRequest{Game: "bomberman/2p", NumEnvs: 2, Seed: rpctest.Seed(3)})
	if _, err := p.Reset(t.Context()); err != nil {
		t.Fatal(err)
	}
	local := rpctest.LocalPool(t, &botarenav1.CreatePoolRequest{Game: "bomberman/2p", NumEnvs: 2, Seed: rpctest.Seed(3)}, nil)
	local.Reset()
	for _, tc := range []struct {
		env, seat int
		format    string
		want      string
	}{
		{1, 0, "", "map.txt"},
		{0, -1, "state.json", "state.json"},
		{1, 1, "map.txt", "map.txt"},
	} {
		format, data, err := p.Render(t.Context(), tc.env, tc.seat, tc.format)
		if err != nil {
			t.Fatal(err)
		}
		want, err := local.Env(tc.env).(env.Codec).AppendNative(nil, tc.want, tc.seat)
		if err != nil {
			t.Fatal(err)
		}
		if format != tc.want || !bytes.Equal(data, want) {
			t.Errorf("Render(%d, %d, %q) = %q, %q; want %q, %q", tc.env, tc.seat, tc.format, format, data, tc.want, want)
		}
	}
}

func TestStats(t *testing.T) {
	t.Parallel()
	ts := rpctest.New(t)
	c := ts.Client(t)
	req := &botarenav1.CreatePoolRequest{Game: "bomberman/2p", NumEnvs: 3, Seed: rpctest.Seed(4), ConfigJson: `{"max_rounds": 3}`,
		LearnerSeats: []int32{1}, Opponents: map[int32]string{0: "reference"}}
	p := rpctest.CreatePool(t, c, req)
	local := rpctest.LocalPool(t, req, opponentsOf(req))
	p.Reset(t.Context())
	local.Reset()
	actions := make([]int32, p.Rows())
	for range 7 {
		if _, err := p.Step(t.Context(), actions); err != nil {
			t.Fatal(err)
		}
		local.Step(actions)
	}
	st, err := p.Stats(t.Context(), true)
	if err != nil {
		t.Fatal(err)
	}
	want := local.Stats()
	if st.GetSteps() != 7 || len(st.GetSeats()) != 1 {
		t.Fatalf("stats %v", st)
	}
	got, w := st.GetSeats()[0], want.Seats[0]
	if got.GetSeat() != 1 || got.GetEpisodes() != w.Episodes || got.GetEpisodes() == 0 || got.GetSteps() != w.Steps ||
		got.GetReturnSum() != w.Return || got.GetWins() != w.Wins || got.GetDraws() != w.Draws || got.GetLosses() != w.Losses {
		t.Errorf("seat stats %v, want %+v", got, w)
	}
	st, err = p.Stats(t.Context(), false)
	if err != nil {
		t.Fatal(err)
	}
	if st.GetSeats()[0].GetEpisodes() != 0 || st.GetSteps() != 7 {
		t.Errorf("after reset: %v", st)
	}
}

func TestListGames(t *testing.T) {
	t.Parallel()
	games := rpctest.ListGames(t, rpctest.New(t).Client(t))
	names := make([]string, 0, len(games))
	for _, g := range games {
		names = append(names, g.GetName())
	}
	if want := env.Default.Names(); !slices.Equal(names, want) {
		t.Fatalf("games %v, want %v", names, want)
	}
	for _, g := range games {
		if g.GetName() != "bomberman" {
			continue
		}
		spec := g.GetSpec()
		if spec.GetSeats() != 4 || spec.GetActions() != 7 || len(spec.GetActionNames()) != 7 || spec.GetObservations()[0].GetDtype() != "uint8" ||
			!strings.Contains(g.GetDefaultConfigJson(), `"players":4`) || !slices.Equal(g.GetAgents(), agents.Names("bomberman")) || g.GetSummary() == "" {
			t.Errorf("bomberman: %v", g)
		}
	}
}

// TestConcurrentPools runs several clients on their own pools at once, and
// several clients on one shared pool (whose calls the server serialises,
// each response holding its own batch while it is written).
func TestConcurrentPools(t *testing.T) {
	t.Parallel()
	ts := rpctest.New(t)
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Go(func() {
			c := ts.Client(t)
			req := &botarenav1.CreatePoolRequest{Game: "bomberman", NumEnvs: 2, Seed: rpctest.Seed(uint64(i)), ConfigJson: `{"max_rounds": 6}`}
			p, err := c.CreatePool(t.Context(), req)
			if err != nil {
				t.Error(err)
				return
			}
			defer p.Close(context.Background())
			local := rpctest.LocalPool(t, req, nil)
			p.Reset(t.Context())
			local.Reset()
			actions := make([]int32, p.Rows())
			rng := rand.New(rand.NewPCG(uint64(i), 0))
			for range 15 {
				rpctest.RandomActions(rng, actions, 7)
				res, err := p.Step(t.Context(), actions)
				if err != nil {
					t.Error(err)
					return
				}
				local.Step(actions)
				if d := rpctest.EqualBuffers(res.Buffers, local.Buffers()); d != "" {
					t.Errorf("pool %d: %s", i, d)
					return
				}
			}
		})
	}
	shared := rpctest.CreatePool(t, ts.Client(t), &botarenav1.CreatePoolRequest{Game: "bomberman", NumEnvs: 2})
	if _, err := shared.Reset(t.Context()); err != nil {
		t.Fatal(err)
	}
	for range 3 {
		wg.Go(func() {
			raw := ts.Client(t).Raw()
			actions := make([]byte, 4*shared.Rows())
			for range 10 {
				resp, err := raw.Step(t.Context(), &botarenav1.StepRequest{PoolId: shared.ID(), Actions: actions})
				if err != nil {
					t.Error(err)
					return
				}
				if len(resp.GetBatch()) == 0 || len(resp.GetEnded()) != shared.Rows() {
					t.Errorf("shared pool: batch of %d bytes, %d ended flags", len(resp.GetBatch()), len(resp.GetEnded()))
				}
			}
		})
	}
	wg.Wait()
}

// TestExternalOpponentsAreOptIn: an external bot as an opponent makes the
// server run processes or make requests, so a server allows it only with
// unrestricted agent capabilities (server.WithAgentCapabilities).
func TestExternalOpponentsAreOptIn(t *testing.T) {
	t.Parallel()
	req := &botarenav1.CreatePoolRequest{
		Game: "battlecube/2p", NumEnvs: 1, Seed: rpctest.Seed(1), LearnerSeats: []int32{0},
		Opponents: map[int32]string{1: "http://127.0.0.1:1/bot"}, ConfigJson: `{"max_ticks": 5}`,
	}
	raw := rpctest.New(t).Client(t).Raw()
	_, err := raw.CreatePool(t.Context(), req)
	if connect.CodeOf(err) != connect.CodePermissionDenied || !strings.Contains(err.Error(), "--allow-external-bots") {
		t.Fatalf("default server: %v, want PermissionDenied naming --allow-external-bots", err)
	}
	raw = rpctest.New(t, server.WithAgentCapabilities(agents.Capabilities{Unrestricted: true})).Client(t).Raw()
	created, err := raw.CreatePool(t.Context(), req)
	if err != nil {
		t.Fatalf("with external agents: %v", err)
	}
	raw.ClosePool(context.Background(), &botarenav1.ClosePoolRequest{PoolId: created.GetPoolId()})
	req.Opponents[1] = "gopher"
	if _, err := raw.CreatePool(t.Context(), req); connect.CodeOf(err) != connect.CodeNotFound || !strings.Contains(err.Error(), "http://...") {
		t.Errorf("unknown opponent: %v, want NotFound listing the schemes", err)
	}
}

// TestPolicyOpponent: a policy file as an opponent is read from the
// server's disk, so like an external bot it needs agent capabilities; the
// served pool then plays it (batched inside the pool's step), and a policy
// for another game is InvalidArgument naming both.
func TestPolicyOpponent(t *testing.T) {
	t.Parallel()
	file := rpctest.PolicyFixture(t, "battlebots")
	req := &botarenav1.CreatePoolRequest{
		Game: "battlebots", NumEnvs: 4, Seed: rpctest.Seed(1), LearnerSeats: []int32{0},
		Opponents: map[int32]string{1: "policy:" + file + "?sample"}, ConfigJson: `{"max_rounds": 6}`,
	}
	_, err := rpctest.New(t).Client(t).Raw().CreatePool(t.Context(), req)
	rpctest.WantCode(t, err, connect.CodePermissionDenied, "policy file", "--allow-external-bots")

	c := rpctest.New(t, server.WithAgentCapabilities(agents.Capabilities{Unrestricted: true})).Client(t)
	p := rpctest.CreatePool(t, c, req)
	if _, err := p.Reset(t.Context()); err != nil {
		t.Fatal(err)
	}
	for range 8 {
		if _, err := p.Step(t.Context(), make([]int32, p.Rows())); err != nil {
			t.Fatal(err)
		}
	}

	req.Opponents[1] = "policy:" + rpctest.PolicyFixture(t, "battlecube")
	_, err = c.Raw().CreatePool(t.Context(), req)
	rpctest.WantCode(t, err, connect.CodeInvalidArgument, "trained on battlecube", "does not fit battlebots")
}
