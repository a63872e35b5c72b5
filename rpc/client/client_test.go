package client_test

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"testing"

	"connectrpc.com/connect"

	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/rpc/client"
	botarenav1 "github.com/botarena/botarena/rpc/gen/botarena/v1"
	"github.com/botarena/botarena/rpc/internal/rpctest"
)

// TestClientRoundTrip uses the Go client's decoded results, of small
// responses (copied out of Connect's buffer) and of large ones (over
// wire.ConnectRecycleLimit: read in place), unary and streamed, in the
// full form and the shared form (shared_planes), which must give the same
// buffers.
func TestClientRoundTrip(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		envs   int32
		stream bool
		shared bool
	}{
		{"envs=3", 3, false, false},
		{"envs=3/shared", 3, false, true},
		{"envs=512", 512, false, false},
		{"envs=512/stream", 512, true, false},
		{"envs=512/shared", 512, false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			roundTrip(t, tc.envs, tc.stream, tc.shared)
		})
	}
}

func roundTrip(t *testing.T, envs int32, stream, shared bool) {
	ts := rpctest.New(t)
	c := ts.Client(t)
	req := &botarenav1.CreatePoolRequest{Game: "bomberman", NumEnvs: envs, Seed: rpctest.Seed(9), ConfigJson: `{"max_rounds": 4}`,
		AutoReset: botarenav1.AutoReset_AUTO_RESET_SAME_STEP, SharedPlanes: shared}
	p := rpctest.CreatePool(t, c, req)
	if p.Info().GetSharedPlanes() != shared {
		t.Fatalf("shared_planes = %v, want %v", p.Info().GetSharedPlanes(), shared)
	}
	local := rpctest.LocalPool(t, req, nil)
	if p.Rows() != local.Rows() || p.Spec().Actions != local.Spec().Actions || p.Spec().Game != "bomberman" {
		t.Fatalf("pool rows %d spec %+v", p.Rows(), p.Spec())
	}
	reset := func() (*env.Buffers, error) { return p.Reset(t.Context()) }
	step := func(a []int32) (*client.StepResult, error) { return p.Step(t.Context(), a) }
	if stream {
		s := rpctest.OpenStream(t, t.Context(), p)
		reset, step = s.Reset, s.Step
	}
	got, err := reset()
	if err != nil {
		t.Fatal(err)
	}
	local.Reset()
	if d := rpctest.EqualBuffers(got, local.Buffers()); d != "" {
		t.Fatal("reset:", d)
	}
	actions := make([]int32, p.Rows())
	rng := rand.New(rand.NewPCG(3, 4))
	sawFinal := false
	for i := range 10 {
		rpctest.RandomActions(rng, actions, p.Spec().Actions)
		res, err := step(actions)
		if err != nil {
			t.Fatal(err)
		}
		local.Step(actions)
		if d := rpctest.EqualBuffers(res.Buffers, local.Buffers()); d != "" {
			t.Fatalf("step %d: %s", i, d)
		}
		if !slices.Equal(res.Ended, local.Ended()) {
			t.Fatalf("step %d: ended %v, want %v", i, res.Ended, local.Ended())
		}
		if res.Final != nil {
			sawFinal = true
			for k := range local.FinalObs() {
				if !bytes.Equal(res.Final.Obs[k], local.FinalObs()[k]) {
					t.Fatalf("step %d: final obs %d differs", i, k)
				}
			}
		}
	}
	if !sawFinal {
		t.Error("no final batch seen")
	}
}

func TestProtocols(t *testing.T) {
	t.Parallel()
	ts := rpctest.New(t)
	for _, tc := range []struct {
		name  string
		proto client.Protocol
		http1 bool
	}{
		{"grpc", client.GRPC, false},
		{"connect_h2c", client.Connect, false},
		{"connect_http1", client.Connect, true},
		{"grpc_web", client.GRPCWeb, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c, err := client.Dial("http://memory", client.WithProtocol(tc.proto), client.WithHTTPClient(ts.HTTPClient(t, tc.http1)))
			if err != nil {
				t.Fatal(err)
			}
			p := rpctest.CreatePool(t, c, &botarenav1.CreatePoolRequest{Game: "bomberman", NumEnvs: 2})
			if _, err := p.Reset(t.Context()); err != nil {
				t.Fatal(err)
			}
			if _, err := p.Step(t.Context(), make([]int32, p.Rows())); err != nil {
				t.Fatal(err)
			}
			_, err = c.Raw().Step(t.Context(), &botarenav1.StepRequest{PoolId: p.ID()})
			rpctest.WantCode(t, err, connect.CodeInvalidArgument, "actions: got 0 bytes")
		})
	}
}
