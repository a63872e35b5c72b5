package client_test

import (
	"errors"
	"math/rand/v2"
	"net/http"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"

	"connectrpc.com/connect"

	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/rpc/client"
	botarenav1 "github.com/botarena/botarena/rpc/gen/botarena/v1"
	"github.com/botarena/botarena/rpc/internal/rpctest"
	"github.com/botarena/botarena/rpc/server"
)

// The paths of Reset, Step and StepStream: the default (the Connect
// protocol, read into the Pool's buffer by package connectwire) and
// connect-go's, for the Connect protocol (any WithConnectOptions sends it
// there) and gRPC.
var paths = []struct {
	name string
	opts []client.Option
}{
	{"connect_reused_buffer", nil},
	{"connect_go", []client.Option{client.WithProtocol(client.Connect), client.WithConnectOptions(connect.WithInterceptors(connect.UnaryInterceptorFunc(
		func(next connect.UnaryFunc) connect.UnaryFunc { return next })))}},
	{"grpc_connect_go", []client.Option{client.WithProtocol(client.GRPC)}},
}

// bytesPerRun returns the bytes allocated per call of f, over runs calls
// after one to warm up. Nothing else of the test binary may run meanwhile.
func bytesPerRun(runs int, f func()) uint64 {
	f()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range runs {
		f()
	}
	runtime.ReadMemStats(&after)
	return (after.TotalAlloc - before.TotalAlloc) / uint64(runs)
}

// TestResetAndStepAllocateNoBatch checks issue 22's rule that a Reset or
// Step of the default client, unary or on a StepStream, allocates nothing
// of the batch's size: a 1024-env Bomberman batch is 22 MB, and client and
// in-memory server together stay under 1 MB a call. Not parallel: it
// counts the whole process's allocations.
func TestResetAndStepAllocateNoBatch(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	const bound = 1 << 20
	ts := rpctest.New(t)
	c := ts.Client(t)
	step := func(p *client.Pool, _ *client.Stream, a []int32) error { _, err := p.Step(t.Context(), a); return err }
	for _, tc := range []struct {
		name   string
		shared bool
		stream bool // call gets a Stream of the pool
		call   func(*client.Pool, *client.Stream, []int32) error
	}{
		{"step", false, false, step},
		{"step_shared_planes", true, false, step},
		{"reset", false, false, func(p *client.Pool, _ *client.Stream, _ []int32) error { _, err := p.Reset(t.Context()); return err }},
		{"stream_step", false, true, func(_ *client.Pool, s *client.Stream, a []int32) error { _, err := s.Step(a); return err }},
		{"stream_reset", false, true, func(_ *client.Pool, s *client.Stream, _ []int32) error { _, err := s.Reset(); return err }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := rpctest.CreatePool(t, c, &botarenav1.CreatePoolRequest{Game: "bomberman", NumEnvs: 1024, Seed: rpctest.Seed(1), SharedPlanes: tc.shared})
			if _, err := p.Reset(t.Context()); err != nil {
				t.Fatal(err)
			}
			var s *client.Stream
			if tc.stream {
				var err error
				if s, err = p.Stream(t.Context()); err != nil {
					t.Fatal(err)
				}
				defer s.Close()
			}
			actions := make([]int32, p.Rows())
			var err error
			got := bytesPerRun(3, func() {
				if e := tc.call(p, s, actions); e != nil {
					err = e
				}
			})
			if err != nil {
				t.Fatal(err)
			}
			if got > bound {
				t.Errorf("%d bytes allocated per call, want at most %d", got, bound)
			}
		})
	}
}

// TestPathsGiveIdenticalResults checks that every path decodes the same
// batches, ended flags and final observations for the same seed and
// actions, with unary calls and on a StepStream.
func TestPathsGiveIdenticalResults(t *testing.T) {
	t.Parallel()
	for _, stream := range []bool{false, true} {
		t.Run(map[bool]string{false: "unary", true: "stream"}[stream], func(t *testing.T) {
			t.Parallel()
			ts := rpctest.New(t)
			req := &botarenav1.CreatePoolRequest{Game: "bomberman", NumEnvs: 64, Seed: rpctest.Seed(5), ConfigJson: `{"max_rounds": 4}`,
				AutoReset: botarenav1.AutoReset_AUTO_RESET_SAME_STEP}
			// The Reset and Step of each path.
			var (
				resets []func() (*env.Buffers, error)
				steps  []func([]int32) (*client.StepResult, error)
				pool   *client.Pool
			)
			for _, path := range paths {
				p := rpctest.CreatePool(t, ts.Client(t, path.opts...), req)
				pool = p
				if !stream {
					resets = append(resets, func() (*env.Buffers, error) { return p.Reset(t.Context()) })
					steps = append(steps, func(a []int32) (*client.StepResult, error) { return p.Step(t.Context(), a) })
					continue
				}
				s := rpctest.OpenStream(t, t.Context(), p)
				resets, steps = append(resets, s.Reset), append(steps, s.Step)
			}
			want, err := resets[0]()
			if err != nil {
				t.Fatal(err)
			}
			for i, reset := range resets[1:] {
				got, err := reset()
				if err != nil {
					t.Fatal(err)
				}
				if d := rpctest.EqualBuffers(got, want); d != "" {
					t.Fatalf("%s: reset: %s", paths[i+1].name, d)
				}
			}
			actions := make([]int32, pool.Rows())
			rng := rand.New(rand.NewPCG(7, 8))
			sawFinal := false
			for step := range 6 {
				rpctest.RandomActions(rng, actions, pool.Spec().Actions)
				want, err := steps[0](actions)
				if err != nil {
					t.Fatal(err)
				}
				sawFinal = sawFinal || want.Final != nil
				for i, stepOf := range steps[1:] {
					got, err := stepOf(actions)
					if err != nil {
						t.Fatal(err)
					}
					name := paths[i+1].name
					if d := rpctest.EqualBuffers(got.Buffers, want.Buffers); d != "" {
						t.Fatalf("%s: step %d: %s", name, step, d)
					}
					if !slices.Equal(got.Ended, want.Ended) {
						t.Fatalf("%s: step %d: ended differs", name, step)
					}
					if (got.Final == nil) != (want.Final == nil) {
						t.Fatalf("%s: step %d: final batch %v, want %v", name, step, got.Final != nil, want.Final != nil)
					}
					if want.Final != nil {
						if d := rpctest.EqualBuffers(got.Final, want.Final); d != "" {
							t.Fatalf("%s: step %d: final: %s", name, step, d)
						}
					}
				}
			}
			if !sawFinal {
				t.Error("no final batch seen")
			}
		})
	}
}

// poolID matches the server's pool ids, which differ between the paths'
// pools.
var poolID = regexp.MustCompile(`p-[0-9a-f]+`)

// TestPathsMapErrorsAlike checks that each failure gives the same code on
// every path, and on the two Connect paths the same message.
func TestPathsMapErrorsAlike(t *testing.T) {
	t.Parallel()
	const token = "t0ken-for-the-paths-test"
	// Step and StepStream need the token, and so every other call works
	// without it.
	guarded := rpctest.New(t, rpctest.Wrap(func(h http.Handler) http.Handler {
		g := server.RequireToken(h, token)
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if strings.HasSuffix(r.URL.Path, "/Step") || strings.HasSuffix(r.URL.Path, "/StepStream") {
				g.ServeHTTP(w, r)
				return
			}
			h.ServeHTTP(w, r)
		})
	}))
	for _, tc := range []struct {
		name string
		code connect.Code
		// call makes the failing call with a client of extra options.
		call func(t *testing.T, opts []client.Option) error
	}{
		{"unknown_pool_is_not_found", connect.CodeNotFound, func(t *testing.T, opts []client.Option) error {
			c := guarded.Client(t, append(opts, client.WithToken(token))...)
			p := rpctest.CreatePool(t, c, &botarenav1.CreatePoolRequest{Game: "bomberman/2p", NumEnvs: 2})
			if err := p.Close(t.Context()); err != nil {
				t.Fatal(err)
			}
			_, err := p.Step(t.Context(), make([]int32, p.Rows()))
			return err
		}},
		{"bad_actions_are_invalid_argument", connect.CodeInvalidArgument, func(t *testing.T, opts []client.Option) error {
			c := guarded.Client(t, append(opts, client.WithToken(token))...)
			p := rpctest.CreatePool(t, c, &botarenav1.CreatePoolRequest{Game: "bomberman/2p", NumEnvs: 2})
			if _, err := p.Reset(t.Context()); err != nil {
				t.Fatal(err)
			}
			_, err := p.Step(t.Context(), make([]int32, p.Rows()-1))
			return err
		}},
		{"missing_token_is_unauthenticated", connect.CodeUnauthenticated, func(t *testing.T, opts []client.Option) error {
			c := guarded.Client(t, append(opts, client.WithToken("wrong"))...)
			p := rpctest.CreatePool(t, c, &botarenav1.CreatePoolRequest{Game: "bomberman/2p", NumEnvs: 2})
			_, err := p.Step(t.Context(), make([]int32, p.Rows()))
			return err
		}},
		{"response_over_the_limit_is_resource_exhausted", connect.CodeResourceExhausted, func(t *testing.T, opts []client.Option) error {
			c := guarded.Client(t, append(opts, client.WithToken(token), client.WithMaxMessageBytes(32<<10))...)
			p := rpctest.CreatePool(t, c, &botarenav1.CreatePoolRequest{Game: "bomberman", NumEnvs: 16})
			_, err := p.Reset(t.Context())
			return err
		}},
		{"stream_unknown_pool_is_not_found", connect.CodeNotFound, func(t *testing.T, opts []client.Option) error {
			c := guarded.Client(t, append(opts, client.WithToken(token))...)
			p := rpctest.CreatePool(t, c, &botarenav1.CreatePoolRequest{Game: "bomberman/2p", NumEnvs: 2})
			if err := p.Close(t.Context()); err != nil {
				t.Fatal(err)
			}
			_, err := rpctest.OpenStream(t, t.Context(), p).Step(make([]int32, p.Rows()))
			return err
		}},
		{"stream_bad_actions_are_invalid_argument", connect.CodeInvalidArgument, func(t *testing.T, opts []client.Option) error {
			c := guarded.Client(t, append(opts, client.WithToken(token))...)
			p := rpctest.CreatePool(t, c, &botarenav1.CreatePoolRequest{Game: "bomberman/2p", NumEnvs: 2})
			s := rpctest.OpenStream(t, t.Context(), p)
			if _, err := s.Reset(); err != nil {
				t.Fatal(err)
			}
			_, err := s.Step(make([]int32, p.Rows()-1))
			return err
		}},
		{"stream_missing_token_is_unauthenticated", connect.CodeUnauthenticated, func(t *testing.T, opts []client.Option) error {
			c := guarded.Client(t, append(opts, client.WithToken("wrong"))...)
			p := rpctest.CreatePool(t, c, &botarenav1.CreatePoolRequest{Game: "bomberman/2p", NumEnvs: 2})
			_, err := rpctest.OpenStream(t, t.Context(), p).Reset()
			return err
		}},
		{"stream_response_over_the_limit_is_resource_exhausted", connect.CodeResourceExhausted, func(t *testing.T, opts []client.Option) error {
			c := guarded.Client(t, append(opts, client.WithToken(token), client.WithMaxMessageBytes(32<<10))...)
			p := rpctest.CreatePool(t, c, &botarenav1.CreatePoolRequest{Game: "bomberman", NumEnvs: 16})
			_, err := rpctest.OpenStream(t, t.Context(), p).Reset()
			return err
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var messages []string
			for _, path := range paths {
				err := tc.call(t, path.opts)
				var ce *connect.Error
				if !errors.As(err, &ce) {
					t.Fatalf("%s: got %T %v, want a *connect.Error", path.name, err, err)
				}
				if ce.Code() != tc.code {
					t.Errorf("%s: code %v (%s), want %v", path.name, ce.Code(), ce.Message(), tc.code)
				}
				messages = append(messages, poolID.ReplaceAllString(ce.Message(), "p-ID"))
			}
			if messages[0] != messages[1] {
				t.Errorf("messages differ:\n%s: %q\n%s: %q", paths[0].name, messages[0], paths[1].name, messages[1])
			}
		})
	}
}
