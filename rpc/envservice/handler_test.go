package envservice_test

import (
	"context"
	"log/slog"
	"strings"
	"testing"

	"connectrpc.com/connect"

	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/internal/testutil"
	"github.com/botarena/botarena/rpc/client"
	botarenav1 "github.com/botarena/botarena/rpc/gen/botarena/v1"
	"github.com/botarena/botarena/rpc/internal/rpctest"
	"github.com/botarena/botarena/rpc/server"
)

// panicky is Bomberman, except that Step panics when seat 0 plays action 6.
type panicky struct{ env.Env }

func (p panicky) Step(actions []int32, rewards []float32, terminated, truncated []bool) {
	if actions[0] == 6 {
		panic("boom: secret internal detail")
	}
	p.Env.Step(actions, rewards, terminated, truncated)
}

func panickyRegistry(t *testing.T) *env.Registry {
	base, err := env.Default.Lookup("bomberman/2p")
	if err != nil {
		t.Fatal(err)
	}
	reg := &env.Registry{}
	reg.Register(env.Entry{
		Name: "panicky", Summary: "panics on demand", Rules: base.Rules, NewConfig: base.NewConfig,
		New: func(c env.Config) (env.Env, error) {
			e, err := base.New(c)
			return panicky{e}, err
		},
	})
	return reg
}

// TestPanicClosesPool: a game that panics gives Internal without its text,
// the details go to the log, the pool is closed, and the server serves on.
func TestPanicClosesPool(t *testing.T) {
	t.Parallel()
	var log testutil.SyncBuffer
	ts := rpctest.New(t, server.WithRegistry(panickyRegistry(t)), server.WithLogger(slog.New(slog.NewTextHandler(&log, nil))))
	c := ts.Client(t)
	p := rpctest.CreatePool(t, c, &botarenav1.CreatePoolRequest{Game: "panicky", NumEnvs: 2, Workers: 2})
	other := rpctest.CreatePool(t, c, &botarenav1.CreatePoolRequest{Game: "panicky", NumEnvs: 1})
	for _, q := range []*client.Pool{p, other} {
		if _, err := q.Reset(t.Context()); err != nil {
			t.Fatal(err)
		}
	}
	_, err := p.Step(t.Context(), []int32{0, 0, 6, 0}) // env 1 panics, on a worker goroutine
	rpctest.WantCode(t, err, connect.CodeInternal, "internal error")
	if strings.Contains(err.Error(), "secret") {
		t.Errorf("the client got the internal details: %v", err)
	}
	if !strings.Contains(log.String(), "secret internal detail") || !strings.Contains(log.String(), p.ID()) {
		t.Errorf("log lacks the panic:\n%s", log.String())
	}
	_, err = p.Step(t.Context(), make([]int32, 4))
	rpctest.WantCode(t, err, connect.CodeNotFound, "closed after an internal error")
	if _, err := other.Step(t.Context(), make([]int32, 2)); err != nil {
		t.Fatal(err)
	}
	games, err := c.ListGames(t.Context())
	if err != nil || len(games) != 1 || games[0].GetName() != "panicky" {
		t.Fatalf("ListGames: %v %v", games, err)
	}
}

// TestMessageLimit: a pool whose batches would not fit the message limit is
// refused at creation, unless it compresses.
func TestMessageLimit(t *testing.T) {
	t.Parallel()
	ts := rpctest.New(t, server.WithMaxMessageBytes(64<<10))
	c := ts.Client(t)
	// A 2-player Bomberman row is about 5.3 KB: 6 envs × 2 seats fit, 7 do not.
	p := rpctest.CreatePool(t, c, &botarenav1.CreatePoolRequest{Game: "bomberman/2p", NumEnvs: 6})
	if _, err := p.Reset(t.Context()); err != nil {
		t.Fatal(err)
	}
	_, err := c.CreatePool(t.Context(), &botarenav1.CreatePoolRequest{Game: "bomberman/2p", NumEnvs: 7})
	rpctest.WantCode(t, err, connect.CodeResourceExhausted, "a batch of 7 envs × 2 learner seats", "message limit of 0.1 MiB", "COMPRESSION_ZSTD")
	z := rpctest.CreatePool(t, c, &botarenav1.CreatePoolRequest{Game: "bomberman/2p", NumEnvs: 7, Compression: botarenav1.Compression_COMPRESSION_ZSTD})
	if _, err := z.Reset(t.Context()); err != nil {
		t.Fatal(err)
	}
}

// TestRequestTooLarge: a request over the message limit is refused by
// Connect with ResourceExhausted.
func TestRequestTooLarge(t *testing.T) {
	t.Parallel()
	ts := rpctest.New(t, server.WithMaxMessageBytes(4<<10))
	raw := ts.Client(t).Raw()
	_, err := raw.Step(context.Background(), &botarenav1.StepRequest{PoolId: "p-x", Actions: make([]byte, 8<<10)})
	rpctest.WantCode(t, err, connect.CodeResourceExhausted)
}
