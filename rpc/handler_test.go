package rpc_test

import (
	"context"
	"log/slog"
	"slices"
	"strings"
	"testing"

	"connectrpc.com/connect"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/dynamicpb"

	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/internal/testutil"
	"github.com/botarena/botarena/rpc"
	botarenav1 "github.com/botarena/botarena/rpc/gen/botarena/v1"
)

// messageType returns the descriptor of a message linked into the binary.
func messageType(t *testing.T, name protoreflect.FullName) protoreflect.MessageDescriptor {
	t.Helper()
	d, err := protoregistry.GlobalFiles.FindDescriptorByName(name)
	if err != nil {
		t.Fatal(err)
	}
	return d.(protoreflect.MessageDescriptor)
}

// dynamicClient returns a Connect client of procedure for messages of the
// given descriptors, so that the test needs no generated code of its own.
func dynamicClient(ts *testServer, t *testing.T, procedure string, resp protoreflect.MessageDescriptor) *connect.Client[dynamicpb.Message, dynamicpb.Message] {
	return connect.NewClient[dynamicpb.Message, dynamicpb.Message](ts.httpClient(t, false), "http://memory"+procedure,
		connect.WithGRPC(),
		connect.WithResponseInitializer(func(_ connect.Spec, msg any) error {
			*msg.(*dynamicpb.Message) = *dynamicpb.NewMessage(resp)
			return nil
		}))
}

func TestHealth(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	// grpchealth's messages are linked in under a private package name; the
	// wire format is grpc.health.v1's.
	reqType := messageType(t, "connectext.grpc.health.v1.HealthCheckRequest")
	respType := messageType(t, "connectext.grpc.health.v1.HealthCheckResponse")
	c := dynamicClient(ts, t, "/grpc.health.v1.Health/Check", respType)
	check := func(service string) string {
		t.Helper()
		req := dynamicpb.NewMessage(reqType)
		req.Set(reqType.Fields().ByName("service"), protoreflect.ValueOfString(service))
		resp, err := c.CallUnary(t.Context(), connect.NewRequest(req))
		if err != nil {
			t.Fatal(err)
		}
		f := respType.Fields().ByName("status")
		return string(f.Enum().Values().ByNumber(resp.Msg.Get(f).Enum()).Name())
	}
	for _, service := range []string{"", "botarena.v1.EnvService", "botarena.v1.MatchService"} {
		if got := check(service); !strings.HasSuffix(got, "SERVING") || strings.Contains(got, "NOT") {
			t.Errorf("health of %q: %s, want SERVING", service, got)
		}
	}
	ts.Close()
	if got := check(""); !strings.HasSuffix(got, "NOT_SERVING") {
		t.Errorf("health after Close: %s, want NOT_SERVING", got)
	}
}

func TestReflection(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	reqType := messageType(t, "connectext.grpc.reflection.v1.ServerReflectionRequest")
	respType := messageType(t, "connectext.grpc.reflection.v1.ServerReflectionResponse")
	for _, version := range []string{"v1", "v1alpha"} {
		c := dynamicClient(ts, t, "/grpc.reflection."+version+".ServerReflection/ServerReflectionInfo", respType)
		stream := c.CallBidiStream(t.Context())
		req := dynamicpb.NewMessage(reqType)
		req.Set(reqType.Fields().ByName("list_services"), protoreflect.ValueOfString("*"))
		if err := stream.Send(req); err != nil {
			t.Fatal(err)
		}
		resp, err := stream.Receive()
		if err != nil {
			t.Fatal(err)
		}
		stream.CloseRequest()
		stream.CloseResponse()
		list := resp.Get(respType.Fields().ByName("list_services_response")).Message()
		services := list.Get(list.Descriptor().Fields().ByName("service")).List()
		var names []string
		for i := range services.Len() {
			s := services.Get(i).Message()
			names = append(names, s.Get(s.Descriptor().Fields().ByName("name")).String())
		}
		if !slices.Contains(names, "botarena.v1.EnvService") || !slices.Contains(names, "botarena.v1.MatchService") || !slices.Contains(names, "grpc.health.v1.Health") {
			t.Errorf("%s: services %v", version, names)
		}
	}
}

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
	ts := newTestServer(t, rpc.WithRegistry(panickyRegistry(t)), rpc.WithLogger(slog.New(slog.NewTextHandler(&log, nil))))
	c := ts.client(t)
	p := createPool(t, c, &botarenav1.CreatePoolRequest{Game: "panicky", NumEnvs: 2, Workers: 2})
	other := createPool(t, c, &botarenav1.CreatePoolRequest{Game: "panicky", NumEnvs: 1})
	for _, q := range []*rpc.Pool{p, other} {
		if _, err := q.Reset(t.Context()); err != nil {
			t.Fatal(err)
		}
	}
	_, err := p.Step(t.Context(), []int32{0, 0, 6, 0}) // env 1 panics, on a worker goroutine
	wantCode(t, err, connect.CodeInternal, "internal error")
	if strings.Contains(err.Error(), "secret") {
		t.Errorf("the client got the internal details: %v", err)
	}
	if !strings.Contains(log.String(), "secret internal detail") || !strings.Contains(log.String(), p.ID()) {
		t.Errorf("log lacks the panic:\n%s", log.String())
	}
	_, err = p.Step(t.Context(), make([]int32, 4))
	wantCode(t, err, connect.CodeNotFound, "closed after an internal error")
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
	ts := newTestServer(t, rpc.WithMaxMessageBytes(64<<10))
	c := ts.client(t)
	// A 2-player Bomberman row is about 5.3 KB: 6 envs × 2 seats fit, 7 do not.
	p := createPool(t, c, &botarenav1.CreatePoolRequest{Game: "bomberman/2p", NumEnvs: 6})
	if _, err := p.Reset(t.Context()); err != nil {
		t.Fatal(err)
	}
	_, err := c.CreatePool(t.Context(), &botarenav1.CreatePoolRequest{Game: "bomberman/2p", NumEnvs: 7})
	wantCode(t, err, connect.CodeResourceExhausted, "a batch of 7 envs × 2 learner seats", "message limit of 0.1 MiB", "COMPRESSION_ZSTD")
	z := createPool(t, c, &botarenav1.CreatePoolRequest{Game: "bomberman/2p", NumEnvs: 7, Compression: botarenav1.Compression_COMPRESSION_ZSTD})
	if _, err := z.Reset(t.Context()); err != nil {
		t.Fatal(err)
	}
}

// TestRequestTooLarge: a request over the message limit is refused by
// Connect with ResourceExhausted.
func TestRequestTooLarge(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t, rpc.WithMaxMessageBytes(4<<10))
	raw := ts.client(t).Raw()
	_, err := raw.Step(context.Background(), &botarenav1.StepRequest{PoolId: "p-x", Actions: make([]byte, 8<<10)})
	wantCode(t, err, connect.CodeResourceExhausted)
}
