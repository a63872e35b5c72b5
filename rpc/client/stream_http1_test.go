package client_test

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"sync"
	"testing"

	"connectrpc.com/connect"

	"github.com/botarena/botarena/rpc/client"
	botarenav1 "github.com/botarena/botarena/rpc/gen/botarena/v1"
	"github.com/botarena/botarena/rpc/gen/botarena/v1/botarenav1connect"
	"github.com/botarena/botarena/rpc/internal/rpctest"
	"github.com/botarena/botarena/rpc/server"
)

// TestStreamOverHTTP1 checks that the client's own HTTP client streams
// over HTTP/1.1 with the Connect protocol, over HTTP/2 after a 505 (a
// server that streams over HTTP/2 only, as connect-go's handlers answer),
// and over HTTP/2 with gRPC, the stream's batches equal to unary Step's
// every time.
func TestStreamOverHTTP1(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		proto   client.Protocol
		refuse1 bool
		protos  []int // the HTTP major versions of the StepStream requests
	}{
		{"connect", client.Connect, false, []int{1}},
		{"connect_after_505", client.Connect, true, []int{1, 2}},
		{"grpc", client.GRPC, false, []int{2}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var mu sync.Mutex
			var protos []int
			wrap := rpctest.Wrap(func(h http.Handler) http.Handler {
				return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					if r.URL.Path == botarenav1connect.EnvServiceStepStreamProcedure {
						mu.Lock()
						protos = append(protos, r.ProtoMajor)
						mu.Unlock()
						if tc.refuse1 && r.ProtoMajor == 1 {
							w.Header().Set("Connection", "close")
							w.WriteHeader(http.StatusHTTPVersionNotSupported)
							return
						}
					}
					h.ServeHTTP(w, r)
				})
			})
			addr := rpctest.Compose(t, wrap).ServeTCP(t, nil, 0)
			c := rpctest.Dial(t, addr, client.WithProtocol(tc.proto))
			req := &botarenav1.CreatePoolRequest{Game: "bomberman", NumEnvs: 64, Seed: rpctest.Seed(7)}
			unary, streamed := rpctest.CreatePool(t, c, req), rpctest.CreatePool(t, c, req)
			s := rpctest.OpenStream(t, t.Context(), streamed)
			want, err := unary.Reset(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			got, err := s.Reset()
			if err != nil {
				t.Fatal(err)
			}
			if d := rpctest.EqualBuffers(got, want); d != "" {
				t.Fatal("reset:", d)
			}
			actions := make([]int32, unary.Rows())
			rng := rand.New(rand.NewPCG(1, 2))
			for i := range 5 {
				rpctest.RandomActions(rng, actions, unary.Spec().Actions)
				w, err := unary.Step(t.Context(), actions)
				if err != nil {
					t.Fatal(err)
				}
				g, err := s.Step(actions)
				if err != nil {
					t.Fatal(err)
				}
				if d := rpctest.EqualBuffers(g.Buffers, w.Buffers); d != "" {
					t.Fatalf("step %d: %s", i, d)
				}
			}
			mu.Lock()
			defer mu.Unlock()
			if fmt.Sprint(protos) != fmt.Sprint(tc.protos) {
				t.Errorf("StepStream requests' HTTP versions %v, want %v", protos, tc.protos)
			}
		})
	}
}

// TestStreamOverHTTP1Token checks the token over HTTP/1.1: the stream
// works with the server's token and is Unauthenticated with another (only
// StepStream needs the token here, so that the pool can be made).
func TestStreamOverHTTP1Token(t *testing.T) {
	t.Parallel()
	const token = "s3cret-for-the-http1-stream"
	wrap := rpctest.Wrap(func(h http.Handler) http.Handler {
		g := server.RequireToken(h, token)
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == botarenav1connect.EnvServiceStepStreamProcedure {
				g.ServeHTTP(w, r)
				return
			}
			h.ServeHTTP(w, r)
		})
	})
	addr := rpctest.Compose(t, wrap).ServeTCP(t, nil, 0)
	for _, tc := range []struct {
		name  string
		token string
		code  connect.Code // 0: none
	}{
		{"right_token", token, 0},
		{"wrong_token_is_unauthenticated", "wrong", connect.CodeUnauthenticated},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := rpctest.Dial(t, addr, client.WithToken(tc.token))
			p := rpctest.CreatePool(t, c, &botarenav1.CreatePoolRequest{Game: "bomberman", NumEnvs: 2, Seed: rpctest.Seed(1)})
			s, err := p.Stream(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			_, err = s.Reset()
			if tc.code == 0 {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			rpctest.WantCode(t, err, tc.code)
		})
	}
}
