package envservice_test

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/botarena/botarena/rpc/client"
	"github.com/botarena/botarena/rpc/envservice"
	botarenav1 "github.com/botarena/botarena/rpc/gen/botarena/v1"
	"github.com/botarena/botarena/rpc/gen/botarena/v1/botarenav1connect"
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
// the gRPC protocol (h2c), as a remote trainer sees them: request, pool
// step with every seat a learner, Arrow encoding, response, and the client's
// decoding into env.Buffers. ns/op of envs=1 is the single-env round-trip
// latency.
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
}

// BenchmarkRPCStepStream is BenchmarkRPCStep over one StepStream.
func BenchmarkRPCStepStream(b *testing.B) {
	for _, n := range []int{1, 1024} {
		b.Run(fmt.Sprintf("bomberman/envs=%d", n), func(b *testing.B) {
			benchStep(b, "bomberman", n, true, false)
		})
	}
}

// BenchmarkRPCStepRaw is BenchmarkRPCStep with the generated client and no
// decoding on the client: the server's cost and the transport's, as a
// client that reads the Arrow message in place (pyarrow) sees them.
func BenchmarkRPCStepRaw(b *testing.B) {
	for _, n := range []int{1, 1024} {
		b.Run(fmt.Sprintf("bomberman/envs=%d", n), func(b *testing.B) {
			addr := loopbackServer(b)
			c, err := client.Dial(addr)
			if err != nil {
				b.Fatal(err)
			}
			defer c.Close()
			ctx := context.Background()
			p, err := c.CreatePool(ctx, &botarenav1.CreatePoolRequest{Game: "bomberman", NumEnvs: int32(n), Seed: rpctest.Seed(1)})
			if err != nil {
				b.Fatal(err)
			}
			defer p.Close(ctx)
			if _, err := p.Reset(ctx); err != nil {
				b.Fatal(err)
			}
			req := &botarenav1.StepRequest{PoolId: p.ID(), Actions: make([]byte, 4*p.Rows())}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := c.Raw().Step(ctx, req); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N)*float64(p.Rows())/b.Elapsed().Seconds(), "agent-steps/s")
		})
	}
}

func benchStep(b *testing.B, game string, n int, stream, shared bool) {
	addr := loopbackServer(b)
	c, err := client.Dial(addr)
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
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

// BenchmarkServedStep measures the server alone: Step requests handed to
// the service's HTTP handler in process (Connect protocol, the form the
// Python client sends), the response written to a writer that discards
// it. B/op is what the server allocates per step.
func BenchmarkServedStep(b *testing.B) {
	for _, game := range []string{"bomberman", "battlebots"} {
		b.Run(game+"/envs=1024", func(b *testing.B) {
			h := server.New()
			s := envservice.New(h)
			defer h.Close()
			handler := h.Handler(s)
			ctx := context.Background()
			resp, err := s.CreatePool(ctx, &botarenav1.CreatePoolRequest{Game: game, NumEnvs: 1024, Seed: rpctest.Seed(1)})
			if err != nil {
				b.Fatal(err)
			}
			if _, err := s.Reset(ctx, &botarenav1.ResetRequest{PoolId: resp.GetPoolId()}); err != nil {
				b.Fatal(err)
			}
			msg, err := proto.Marshal(&botarenav1.StepRequest{PoolId: resp.GetPoolId(), Actions: make([]byte, 4*resp.GetRows())})
			if err != nil {
				b.Fatal(err)
			}
			step := func() {
				r := httptest.NewRequest(http.MethodPost, botarenav1connect.EnvServiceStepProcedure, bytes.NewReader(msg))
				r.Header.Set("Content-Type", "application/proto")
				w := discard{header: http.Header{}}
				handler.ServeHTTP(&w, r)
				if w.status != http.StatusOK {
					b.Fatalf("status %d", w.status)
				}
			}
			for range 3 {
				step()
			}
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				step()
			}
			b.ReportMetric(float64(b.N)*float64(resp.GetRows())/b.Elapsed().Seconds(), "agent-steps/s")
		})
	}
}

// discard is an http.ResponseWriter that keeps only the status.
type discard struct {
	header http.Header
	status int
}

func (w *discard) Header() http.Header { return w.header }

func (w *discard) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
}

func (w *discard) Write(p []byte) (int, error) {
	w.WriteHeader(http.StatusOK)
	return len(p), nil
}
