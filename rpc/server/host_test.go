package server_test

import (
	"encoding/json"
	"log/slog"
	"slices"
	"strings"
	"testing"

	"connectrpc.com/connect"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/dynamicpb"

	"github.com/botarena/botarena/internal/testutil"
	botarenav1 "github.com/botarena/botarena/rpc/gen/botarena/v1"
	"github.com/botarena/botarena/rpc/internal/rpctest"
	"github.com/botarena/botarena/rpc/server"
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
func dynamicClient(ts *rpctest.Server, t *testing.T, procedure string, resp protoreflect.MessageDescriptor) *connect.Client[dynamicpb.Message, dynamicpb.Message] {
	return connect.NewClient[dynamicpb.Message, dynamicpb.Message](ts.HTTPClient(t, false), "http://memory"+procedure,
		connect.WithGRPC(),
		connect.WithResponseInitializer(func(_ connect.Spec, msg any) error {
			*msg.(*dynamicpb.Message) = *dynamicpb.NewMessage(resp)
			return nil
		}))
}

func TestHealth(t *testing.T) {
	t.Parallel()
	ts := rpctest.New(t)
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
	ts := rpctest.New(t)
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

// TestClientErrorsLoggedAtDebug: a client's error is logged at Debug with
// the procedure, the code and the bounded message; nothing at Info.
func TestClientErrorsLoggedAtDebug(t *testing.T) {
	t.Parallel()
	for _, level := range []slog.Level{slog.LevelDebug, slog.LevelInfo} {
		var log testutil.SyncBuffer
		ts := rpctest.New(t, server.WithLogger(slog.New(slog.NewJSONHandler(&log, &slog.HandlerOptions{Level: level}))))
		_, err := ts.Client(t).Raw().Step(t.Context(), &botarenav1.StepRequest{PoolId: rpctest.Huge})
		rpctest.WantCode(t, err, connect.CodeNotFound)
		if level == slog.LevelInfo {
			if log.String() != "" {
				t.Errorf("at Info: logged %.300s", log.String())
			}
			continue
		}
		var rec map[string]any
		if err := json.Unmarshal([]byte(log.String()), &rec); err != nil {
			t.Fatalf("log %.300q: %v", log.String(), err)
		}
		if rec["level"] != "DEBUG" || rec["msg"] != "call failed" || rec["procedure"] != "/botarena.v1.EnvService/Step" || rec["code"] != "not_found" ||
			!strings.Contains(rec["err"].(string), "no such pool") || len(log.String()) > 4096 {
			t.Errorf("log record %.500v", rec)
		}
	}
}
