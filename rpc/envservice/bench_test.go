package envservice_test

import (
	"context"
	"fmt"
	"net"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/botarena/botarena/rpc/client"
	"github.com/botarena/botarena/rpc/envservice"
	botarenav1 "github.com/botarena/botarena/rpc/gen/botarena/v1"
	"github.com/botarena/botarena/rpc/gen/botarena/v1/botarenav1connect"
	"github.com/botarena/botarena/rpc/internal/connectwire"
	"github.com/botarena/botarena/rpc/internal/rpctest"
	"github.com/botarena/botarena/rpc/server"
)

// loopbackServer serves an EnvService over real TCP on 127.0.0.1 (h2c)
// and returns its address; b.Cleanup stops it.
func loopbackServer(b *testing.B) string {
	b.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	h := server.New()
	hs := server.NewHTTPServer("", h.Handler(envservice.New(h)))
	go hs.Serve(ln)
	b.Cleanup(func() {
		hs.Close()
		h.Close()
	})
	return ln.Addr().String()
}

// BenchmarkRPCStep measures unary Step round trips over loopback TCP with
// the Go client's default protocol (Connect, h2c), as a remote trainer sees
// them: request, pool step with every seat a learner, Arrow encoding,
// response read into the Pool's reused buffer, and the client's decoding
// into env.Buffers. ns/op of envs=1 is the single-env round-trip latency.
// grpc is the same over the gRPC protocol, through connect-go, which reads
// every response into a new buffer.
func BenchmarkRPCStep(b *testing.B) {
	for _, game := range []string{"bomberman", "battlebots"} {
		for _, n := range []int{1, 1024} {
			b.Run(fmt.Sprintf("%s/envs=%d", game, n), func(b *testing.B) {
				benchStep(b, game, n, false, false)
			})
		}
	}
	b.Run("bomberman/envs=1024/shared", func(b *testing.B) {
		benchStep(b, "bomberman", 1024, false, true)
	})
	b.Run("bomberman/envs=1024/grpc", func(b *testing.B) {
		benchStep(b, "bomberman", 1024, false, false, client.WithProtocol(client.GRPC))
	})
}

// BenchmarkRPCStepStream is BenchmarkRPCStep over one StepStream, with the
// client's default protocol (Connect); grpc is the same over the gRPC
// protocol.
func BenchmarkRPCStepStream(b *testing.B) {
	for _, n := range []int{1, 1024} {
		b.Run(fmt.Sprintf("bomberman/envs=%d", n), func(b *testing.B) {
			benchStep(b, "bomberman", n, true, false)
		})
	}
	b.Run("bomberman/envs=1024/grpc", func(b *testing.B) {
		benchStep(b, "bomberman", 1024, true, false, client.WithProtocol(client.GRPC))
	})
}

// BenchmarkRPCStepRaw is BenchmarkRPCStep without the client's decoding:
// Step sent as a Connect unary call whose response is read into one reused
// buffer (package connectwire, as the client's Pool.Step reads it) and left
// undecoded: the server's cost and the transport's, as a client that reads
// the Arrow message in place (pyarrow) sees them.
func BenchmarkRPCStepRaw(b *testing.B) {
	for _, n := range []int{1, 1024} {
		b.Run(fmt.Sprintf("bomberman/envs=%d", n), func(b *testing.B) {
			addr := loopbackServer(b)
			c := rpctest.Dial(b, addr)
			ctx := context.Background()
			p, err := c.CreatePool(ctx, &botarenav1.CreatePoolRequest{Game: "bomberman", NumEnvs: int32(n), Seed: rpctest.Seed(1)})
			if err != nil {
				b.Fatal(err)
			}
			defer p.Close(ctx)
			if _, err := p.Reset(ctx); err != nil {
				b.Fatal(err)
			}
			e, err := client.NewEndpoint(addr)
			if err != nil {
				b.Fatal(err)
			}
			defer e.HTTPClient.CloseIdleConnections()
			caller, err := connectwire.NewCaller(e.HTTPClient, e.BaseURL, nil, e.MaxMessageBytes)
			if err != nil {
				b.Fatal(err)
			}
			req, err := proto.Marshal(&botarenav1.StepRequest{PoolId: p.ID(), Actions: make([]byte, 4*p.Rows())})
			if err != nil {
				b.Fatal(err)
			}
			// Warm up: the first call grows the buffer.
			msg, err := caller.Call(ctx, botarenav1connect.EnvServiceStepProcedure, nil, req)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				if msg, err = caller.Call(ctx, botarenav1connect.EnvServiceStepProcedure, msg, req); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N)*float64(p.Rows())/b.Elapsed().Seconds(), "agent-steps/s")
		})
	}
}

func benchStep(b *testing.B, game string, n int, stream, shared bool, opts ...client.Option) {
	addr := loopbackServer(b)
	c := rpctest.Dial(b, addr, opts...)
	ctx := context.Background()
	p, err := c.CreatePool(ctx, &botarenav1.CreatePoolRequest{Game: game, NumEnvs: int32(n), Seed: rpctest.Seed(1), SharedPlanes: shared})
	if err != nil {
		b.Fatal(err)
	}
	defer p.Close(ctx)
	if _, err := p.Reset(ctx); err != nil {
		b.Fatal(err)
	}
	actions := make([]int32, p.Rows()) // do nothing: episodes run to the step cap
	step := func() (*client.StepResult, error) { return p.Step(ctx, actions) }
	if stream {
		s, err := p.Stream(ctx)
		if err != nil {
			b.Fatal(err)
		}
		defer s.Close()
		step = func() (*client.StepResult, error) { return s.Step(actions) }
	}
	for range 3 { // warm up buffers and connections
		if _, err := step(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := step(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)*float64(p.Rows())/b.Elapsed().Seconds(), "agent-steps/s")
}
