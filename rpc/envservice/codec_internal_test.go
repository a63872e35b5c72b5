package envservice

import (
	"bytes"
	"context"
	"encoding/binary"
	"net/http"
	"runtime"
	"testing"

	"connectrpc.com/connect"
	"google.golang.org/protobuf/proto"

	botarenav1 "github.com/botarena/botarena/rpc/gen/botarena/v1"
	"github.com/botarena/botarena/rpc/gen/botarena/v1/botarenav1connect"
	"github.com/botarena/botarena/rpc/internal/wire"
	"github.com/botarena/botarena/rpc/server"
)

// bodyWriter is an http.ResponseWriter (and Flusher) that counts the body
// and keeps it only when keep is set.
type bodyWriter struct {
	header http.Header
	status int
	n      int
	keep   bool
	body   bytes.Buffer
}

func (w *bodyWriter) Header() http.Header {
	if w.header == nil {
		w.header = http.Header{}
	}
	return w.header
}

func (w *bodyWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
}

func (w *bodyWriter) Write(p []byte) (int, error) {
	w.WriteHeader(http.StatusOK)
	w.n += len(p)
	if w.keep {
		w.body.Write(p)
	}
	return len(p), nil
}

func (w *bodyWriter) Flush() {}

// stepCall makes Step requests of msg in protocol ("connect" or "grpc")
// for a handler called in process.
func stepCall(protocol string, msg []byte) func() *http.Request {
	return func() *http.Request {
		body := msg
		r, _ := http.NewRequest(http.MethodPost, "http://test"+botarenav1connect.EnvServiceStepProcedure, nil)
		switch protocol {
		case "connect":
			r.Header.Set("Content-Type", "application/proto")
		case "grpc":
			env := make([]byte, 5, 5+len(msg))
			binary.BigEndian.PutUint32(env[1:], uint32(len(msg)))
			body = append(env, msg...)
			r.Header.Set("Content-Type", "application/grpc")
			r.Header.Set("Te", "trailers")
			r.Proto, r.ProtoMajor, r.ProtoMinor = "HTTP/2.0", 2, 0
		}
		r.Body = http.NoBody
		if len(body) > 0 {
			r.Body = readCloser{bytes.NewReader(body)}
		}
		r.ContentLength = int64(len(body))
		return r
	}
}

type readCloser struct{ *bytes.Reader }

func (readCloser) Close() error { return nil }

// servedPoolForTest makes a host and service, and a reset pool of envs
// envs of game with workers workers (0: the default); it returns the
// service, a Step request message of the pool and the pool's rows.
func servedPoolForTest(t testing.TB, game string, envs, workers int) (*server.Host, *Server, []byte, int) {
	t.Helper()
	h := server.New()
	s := New(h)
	t.Cleanup(func() { h.Close() })
	ctx := context.Background()
	seed := uint64(1)
	resp, err := s.CreatePool(ctx, &botarenav1.CreatePoolRequest{Game: game, NumEnvs: int32(envs), Seed: &seed, Workers: int32(workers)})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Reset(ctx, &botarenav1.ResetRequest{PoolId: resp.GetPoolId()}); err != nil {
		t.Fatal(err)
	}
	msg, err := proto.Marshal(&botarenav1.StepRequest{PoolId: resp.GetPoolId(), Actions: make([]byte, 4*resp.GetRows())})
	if err != nil {
		t.Fatal(err)
	}
	return h, s, msg, int(resp.GetRows())
}

// TestServedStepDoesNotAllocateTheBatch checks that serving a Step
// allocates nothing of the size of its batch: the batch is encoded into a
// recycled buffer, which the codec hands to Connect as the marshalled
// response, over both protocols.
func TestServedStepDoesNotAllocateTheBatch(t *testing.T) {
	// Not parallel: it counts the bytes the process allocates.
	h, s, msg, _ := servedPoolForTest(t, "bomberman", 512, 1) // an 11 MB batch
	handler := h.Handler(s)
	for _, protocol := range []string{"connect", "grpc"} {
		t.Run(protocol, func(t *testing.T) {
			req := stepCall(protocol, msg)
			w := &bodyWriter{keep: true}
			handler.ServeHTTP(w, req())
			if w.status != http.StatusOK || w.header.Get("Grpc-Status") != "" && w.header.Get("Grpc-Status") != "0" {
				t.Fatalf("status %d, headers %v, body %q", w.status, w.header, w.body.Bytes()[:min(w.body.Len(), 200)])
			}
			got := w.body.Bytes()
			if protocol == "grpc" {
				got = got[5:]
			}
			var resp botarenav1.StepResponse
			if err := proto.Unmarshal(got, &resp); err != nil {
				t.Fatal(err)
			}
			if len(resp.GetBatch()) < 10<<20 || len(resp.GetEnded()) != 2048 {
				t.Fatalf("got a batch of %d bytes and %d ended flags, want over 10 MiB and 2048", len(resp.GetBatch()), len(resp.GetEnded()))
			}
			const steps = 10
			for range 3 { // warm up the buffers
				handler.ServeHTTP(&bodyWriter{}, req())
			}
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			for range steps {
				w := &bodyWriter{}
				handler.ServeHTTP(w, req())
				if w.n < len(got) {
					t.Fatalf("a response of %d bytes, want %d", w.n, len(got))
				}
			}
			runtime.ReadMemStats(&after)
			per := (after.TotalAlloc - before.TotalAlloc) / steps
			t.Logf("%s: %d bytes allocated per served step of a %d-byte response", protocol, per, len(got))
			if per > 256<<10 {
				t.Errorf("%s: a served step allocates %d bytes, want under 256 KiB (the batch is %d bytes)", protocol, per, len(got))
			}
		})
	}
}

// spyCodec records the capacity of the buffers Connect passes to
// MarshalAppend.
type spyCodec struct {
	*responseCodec
	caps []int
}

func (c *spyCodec) MarshalAppend(dst []byte, msg any) ([]byte, error) {
	c.caps = append(c.caps, cap(dst))
	return c.responseCodec.MarshalAppend(dst, msg)
}

// TestConnectDropsLargeBuffers checks the premise of responseCodec (see
// package wire): Connect does not put a marshalled message of more than
// wire.ConnectRecycleLimit bytes back into its buffer pool. If it did, the
// next response would be marshalled into the pool's own buffer, still in
// use by the pool: Connect would pass it as dst, larger than the limit.
func TestConnectDropsLargeBuffers(t *testing.T) {
	_, s, msg, _ := servedPoolForTest(t, "bomberman", 512, 1)
	spy := &spyCodec{responseCodec: s.codec}
	_, h := botarenav1connect.NewEnvServiceHandler(s, connect.WithCodec(spy))
	handler := recycling(h)
	for _, protocol := range []string{"connect", "grpc"} {
		req := stepCall(protocol, msg)
		for range 20 {
			w := &bodyWriter{}
			handler.ServeHTTP(w, req())
			if w.n < wire.ConnectRecycleLimit {
				t.Fatalf("%s: a response of %d bytes, want over %d", protocol, w.n, wire.ConnectRecycleLimit)
			}
		}
	}
	if len(spy.caps) != 40 {
		t.Fatalf("MarshalAppend called %d times, want 40", len(spy.caps))
	}
	for i, c := range spy.caps {
		if c > wire.ConnectRecycleLimit {
			t.Fatalf("call %d: Connect passed a buffer of capacity %d, over %d: it recycles large buffers now, and responseCodec must copy (see package wire)", i, c, wire.ConnectRecycleLimit)
		}
	}
	if n := len(s.codec.wires); n != 0 {
		t.Errorf("%d responses still registered after they were written", n)
	}
}

// BenchmarkServedStep measures the server alone: Step requests handed to
// the service's HTTP handler in process (Connect protocol, the form the
// Python client sends), the response written to a writer that discards
// it. B/op is what the server allocates per step.
func BenchmarkServedStep(b *testing.B) {
	for _, game := range []string{"bomberman", "battlebots"} {
		b.Run(game+"/envs=1024", func(b *testing.B) {
			h, s, msg, rows := servedPoolForTest(b, game, 1024, 0)
			handler := h.Handler(s)
			req := stepCall("connect", msg)
			step := func() {
				w := &bodyWriter{}
				handler.ServeHTTP(w, req())
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
			b.ReportMetric(float64(b.N)*float64(rows)/b.Elapsed().Seconds(), "agent-steps/s")
		})
	}
}
