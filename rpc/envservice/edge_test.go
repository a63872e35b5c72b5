package envservice_test

import (
	"context"
	"testing"
	"time"

	"connectrpc.com/connect"

	"github.com/botarena/botarena/rpc/client"
	botarenav1 "github.com/botarena/botarena/rpc/gen/botarena/v1"
	"github.com/botarena/botarena/rpc/internal/rpctest"
)

// TestErrorsDoNotEchoInput: every error that quotes a client's string (a
// pool id, a game, an agent spec, a format, a name) clips it, whichever
// package made the error. (matchservice's TestErrorsDoNotEchoInput checks
// Play and PlayBatch.)
func TestErrorsDoNotEchoInput(t *testing.T) {
	t.Parallel()
	ts := rpctest.New(t)
	c := ts.Client(t)
	raw := c.Raw()
	ctx := t.Context()
	p := rpctest.CreatePool(t, c, &botarenav1.CreatePoolRequest{Game: "bomberman/2p", NumEnvs: 1, Seed: rpctest.Seed(1), LearnerSeats: []int32{0}, Opponents: map[int32]string{1: "idle"}})
	if _, err := p.Reset(ctx); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		call func() error
		code connect.Code
	}{
		{"reset_pool_id", rpctest.Call(ctx, raw.Reset, &botarenav1.ResetRequest{PoolId: rpctest.Huge}), connect.CodeNotFound},
		{"step_pool_id", rpctest.Call(ctx, raw.Step, &botarenav1.StepRequest{PoolId: rpctest.Huge}), connect.CodeNotFound},
		{"render_pool_id", rpctest.Call(ctx, raw.Render, &botarenav1.RenderRequest{PoolId: rpctest.Huge}), connect.CodeNotFound},
		{"stats_pool_id", rpctest.Call(ctx, raw.Stats, &botarenav1.StatsRequest{PoolId: rpctest.Huge}), connect.CodeNotFound},
		{"close_pool_id", rpctest.Call(ctx, raw.ClosePool, &botarenav1.ClosePoolRequest{PoolId: rpctest.Huge}), connect.CodeNotFound},
		{"set_opponents_pool_id", rpctest.Call(ctx, raw.SetOpponents, &botarenav1.SetOpponentsRequest{PoolId: rpctest.Huge}), connect.CodeNotFound},
		{"stream_first_pool_id", func() error {
			st, err := raw.StepStream(ctx)
			if err != nil {
				return err
			}
			defer st.CloseResponse()
			st.Send(&botarenav1.StepStreamRequest{PoolId: rpctest.Huge, Reset_: true})
			_, err = st.Receive()
			return err
		}, connect.CodeNotFound},
		{"stream_other_pool_id", func() error {
			st, err := raw.StepStream(ctx)
			if err != nil {
				return err
			}
			defer st.CloseResponse()
			st.Send(&botarenav1.StepStreamRequest{PoolId: p.ID(), Reset_: true})
			if _, err := st.Receive(); err != nil {
				return err
			}
			st.Send(&botarenav1.StepStreamRequest{PoolId: rpctest.Huge, Reset_: true})
			_, err = st.Receive()
			return err
		}, connect.CodeInvalidArgument},
		{"create_pool_game", rpctest.Call(ctx, raw.CreatePool, &botarenav1.CreatePoolRequest{Game: rpctest.Huge, NumEnvs: 1}), connect.CodeNotFound},
		{"create_pool_opponent", rpctest.Call(ctx, raw.CreatePool, &botarenav1.CreatePoolRequest{Game: "bomberman/2p", NumEnvs: 1, LearnerSeats: []int32{0}, Opponents: map[int32]string{1: rpctest.Huge}}), connect.CodeNotFound},
		{"create_pool_config_field", rpctest.Call(ctx, raw.CreatePool, &botarenav1.CreatePoolRequest{Game: "bomberman/2p", NumEnvs: 1, ConfigJson: `{"` + rpctest.Huge + `": 1}`}), connect.CodeInvalidArgument},
		{"render_format", rpctest.Call(ctx, raw.Render, &botarenav1.RenderRequest{PoolId: p.ID(), Format: rpctest.Huge}), connect.CodeInvalidArgument},
		{"set_opponents_name", func() error {
			mix := &botarenav1.OpponentMix{Choices: []*botarenav1.OpponentChoice{{Name: rpctest.Huge, Spec: "idle", Weight: 1}, {Name: rpctest.Huge, Spec: "random", Weight: 1}}}
			_, err := raw.SetOpponents(ctx, &botarenav1.SetOpponentsRequest{PoolId: p.ID(), Opponents: map[int32]*botarenav1.OpponentMix{1: mix}})
			return err
		}, connect.CodeInvalidArgument},
		{"set_opponents_spec", func() error {
			mix := &botarenav1.OpponentMix{Choices: []*botarenav1.OpponentChoice{{Spec: rpctest.Huge, Weight: 1}}}
			_, err := raw.SetOpponents(ctx, &botarenav1.SetOpponentsRequest{PoolId: p.ID(), Opponents: map[int32]*botarenav1.OpponentMix{1: mix}})
			return err
		}, connect.CodeNotFound},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rpctest.WantBounded(t, tc.call(), tc.code)
		})
	}
}

// TestCloseEndsStepStreams: Close ends an open StepStream with Unavailable
// at once, so that an http.Server's Shutdown, which waits for it, returns
// well before its timeout, as botarena serve shuts down on SIGTERM.
func TestCloseEndsStepStreams(t *testing.T) {
	t.Parallel()
	for _, proto := range []client.Protocol{client.GRPC, client.Connect} {
		t.Run(map[client.Protocol]string{client.GRPC: "grpc", client.Connect: "connect"}[proto], func(t *testing.T) {
			t.Parallel()
			ts := rpctest.New(t)
			hs := ts.HTTP
			c := ts.Client(t, client.WithProtocol(proto))
			ctx := t.Context()
			p := rpctest.CreatePool(t, c, &botarenav1.CreatePoolRequest{Game: "bomberman/2p", NumEnvs: 2, Seed: rpctest.Seed(4)})
			st := rpctest.ResetStream(t, ctx, p)
			actions := make([]int32, p.Rows())
			if _, err := st.Step(actions); err != nil {
				t.Fatal(err)
			}

			// The stream waits for its client's next request.
			sctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			shut := make(chan error, 1)
			go func() { shut <- hs.Shutdown(sctx) }()
			ts.Close()
			if err := <-shut; err != nil {
				t.Fatalf("Shutdown: %v; the stream kept its connection busy", err)
			}
			_, err := st.Step(actions)
			rpctest.WantCode(t, err, connect.CodeUnavailable, "shutting down")
		})
	}
}

// TestStreamAfterClose: a stream opened on a closed server is Unavailable.
func TestStreamAfterClose(t *testing.T) {
	t.Parallel()
	ts := rpctest.New(t)
	c := ts.Client(t)
	p := rpctest.CreatePool(t, c, &botarenav1.CreatePoolRequest{Game: "bomberman/2p", NumEnvs: 1, Seed: rpctest.Seed(2)})
	ts.Close()
	st := rpctest.OpenStream(t, t.Context(), p)
	_, err := st.Reset()
	rpctest.WantCode(t, err, connect.CodeUnavailable, "shutting down")
}
