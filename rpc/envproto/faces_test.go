package envproto_test

import (
	"reflect"
	"strconv"
	"testing"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/native"
	"github.com/botarena/botarena/rpc/envproto"
	botarenav1 "github.com/botarena/botarena/rpc/gen/botarena/v1"
)

// fullSpec sets every field of env.Spec and of the structs it holds;
// TestEveryFieldOfSpecReachesTheProto checks that it does.
var fullSpec = env.Spec{
	Game:  "g",
	Seats: 2,
	Obs: []env.Tensor{{
		Name: "planes", DType: env.Float32, Shape: []int{3, 4, 5}, Layout: "[C,H,W]", Shared: []int{1},
	}},
	Actions:     4,
	ActionNames: []string{"a", "b", "c", "d"},
	MaxSteps:    9,
	Reward:      "+1 for a win",
	Factors:     &env.ActionFactors{Commands: []string{"noop", "fire"}, Cells: 3, Command: []int32{0, 1, 1, 1}, Cell: []int32{0, 0, 1, 2}},
}

// setFields returns the number of fields of the struct v (followed through
// pointers and into the elements of slices of structs), failing t for a
// field left zero.
func setFields(t *testing.T, path string, v reflect.Value) int {
	t.Helper()
	for v.Kind() == reflect.Pointer {
		v = v.Elem()
	}
	n := 0
	for i := range v.NumField() {
		f, name := v.Field(i), path+"."+v.Type().Field(i).Name
		n++
		if f.IsZero() {
			t.Errorf("%s is not set in fullSpec: set it, and carry it in the proto (rpc/proto) and envproto.GameSpec", name)
			continue
		}
		switch {
		case f.Kind() == reflect.Pointer && f.Elem().Kind() == reflect.Struct:
			n += setFields(t, name, f)
		case f.Kind() == reflect.Slice && f.Type().Elem().Kind() == reflect.Struct:
			for j := range f.Len() {
				n += setFields(t, name+"["+strconv.Itoa(j)+"]", f.Index(j))
			}
		}
	}
	return n
}

// populated returns the number of populated fields of m and of the
// messages it holds, failing t for a field not populated.
func populated(t *testing.T, path string, m protoreflect.Message) int {
	t.Helper()
	n := 0
	fields := m.Descriptor().Fields()
	for i := range fields.Len() {
		fd := fields.Get(i)
		name := path + "." + string(fd.Name())
		if !m.Has(fd) {
			t.Errorf("%s is empty: envproto.GameSpec does not fill it from env.Spec", name)
			continue
		}
		n++
		switch {
		case fd.Message() != nil && fd.IsList():
			for j := range m.Get(fd).List().Len() {
				n += populated(t, name+"["+strconv.Itoa(j)+"]", m.Get(fd).List().Get(j).Message())
			}
		case fd.Message() != nil:
			n += populated(t, name, m.Get(fd).Message())
		}
	}
	return n
}

// TestEveryFieldOfSpecReachesTheProto fails when a field of env.Spec (or
// of its tensors and action factors) has no field in the proto's GameSpec,
// or envproto.GameSpec leaves one out. Every face prints the proto:
// the env service, the native backend (TestNativeSpecIsTheProto),
// `botarena games --json` (cmd/botarena's TestGamesJSONIsTheProto) and
// Python (python/tests/test_spec_faces.py checks its dataclasses against
// the proto's descriptor).
func TestEveryFieldOfSpecReachesTheProto(t *testing.T) {
	goFields := setFields(t, "env.Spec", reflect.ValueOf(fullSpec))
	msg := envproto.GameSpec(&fullSpec)
	protoFields := populated(t, "GameSpec", msg.ProtoReflect())
	if goFields != protoFields {
		t.Errorf("env.Spec has %d fields (with its tensors and factors), its GameSpec message %d populated: a field has no proto field", goFields, protoFields)
	}
	if got := msg.GetObservations()[0]; got.GetDtype() != "float32" || got.GetShared()[0] != 1 || len(got.GetShape()) != 3 {
		t.Errorf("tensor %v", got)
	}
}

// TestNativeSpecIsTheProto: the native backend describes a pool's game
// with the env service's message, field for field.
func TestNativeSpecIsTheProto(t *testing.T) {
	for _, game := range []string{"battleships/small", "bomberman"} {
		resp, err := native.CreatePool(&botarenav1.CreatePoolRequest{Game: game, NumEnvs: 1})
		if err != nil {
			t.Fatal(err)
		}
		native.ClosePool(&botarenav1.ClosePoolRequest{PoolId: resp.GetPoolId()})
		info, err := envproto.GameInfo(env.Default, game)
		if err != nil {
			t.Fatal(err)
		}
		if !proto.Equal(resp.GetSpec(), info.GetSpec()) {
			t.Errorf("%s: native spec %v, ListGames' %v", game, resp.GetSpec(), info.GetSpec())
		}
	}
}
