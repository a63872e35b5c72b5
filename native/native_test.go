package native_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"unsafe"

	"github.com/botarena/botarena/agents"
	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/native"
	"github.com/botarena/botarena/vecenv"
)

func init() {
	// An agent that panics on its first move, for the Internal path.
	agents.Register("nativetest-panic", "panics (native tests)", func(*env.Spec) (env.Agent, error) { return panicky{}, nil })
}

type panicky struct{}

func (panicky) Reset(env.Env, int, uint64) {}
func (panicky) Act(env.Env, int) int32     { panic("nativetest: boom") }

func seed(s uint64) *uint64 { return &s }

func create(t *testing.T, req native.CreateRequest) native.Info {
	t.Helper()
	info, err := native.Create(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { native.Close(info.Handle) })
	return info
}

// memory is caller memory for outputs of a pool: one byte slice per array
// of the layout, per output.
type memory struct {
	arrays [][]byte
	ptrs   []unsafe.Pointer
}

func allocate(info native.Info, rows, outputs int) *memory {
	m := &memory{}
	for range outputs {
		for _, a := range info.Layout {
			n := rows
			for _, d := range a.Shape {
				n *= d
			}
			size := map[string]int{"uint8": 1, "bool": 1, "float32": 4, "int32": 4}[a.DType]
			b := make([]byte, n*size+8) // +8: never empty, so there is an address
			m.arrays = append(m.arrays, b[:n*size])
			m.ptrs = append(m.ptrs, unsafe.Pointer(&b[0]))
		}
	}
	return m
}

// poolBytes returns a vecenv output as the arrays of the layout.
func poolBytes(out vecenv.Output) [][]byte {
	b := out.Buffers
	var arrays [][]byte
	arrays = append(arrays, b.Obs...)
	asBytes := func(p unsafe.Pointer, n int) []byte { return unsafe.Slice((*byte)(p), n) }
	arrays = append(arrays, b.Mask,
		asBytes(unsafe.Pointer(&b.Rewards[0]), 4*b.Rows),
		asBytes(unsafe.Pointer(&b.Terminated[0]), b.Rows),
		asBytes(unsafe.Pointer(&b.Truncated[0]), b.Rows),
		asBytes(unsafe.Pointer(&b.Env[0]), 4*b.Rows),
		asBytes(unsafe.Pointer(&b.Seat[0]), 4*b.Rows),
		asBytes(unsafe.Pointer(&b.Episode[0]), 4*b.Rows),
		asBytes(unsafe.Pointer(&out.Ended[0]), b.Rows))
	return append(arrays, out.FinalObs...)
}

func code(err error) native.Code {
	var e *native.Error
	if errors.As(err, &e) {
		return e.Code
	}
	return -1
}

// TestStepWritesCallerMemory: a bound pool writes every step into the
// caller's arrays, byte for byte what a vecenv pool of the same config
// writes into its own buffers, for every game and both autoreset modes.
func TestStepWritesCallerMemory(t *testing.T) {
	for _, game := range env.Default.Names() {
		for _, mode := range []string{"next_step", "same_step"} {
			t.Run(strings.ReplaceAll(game, "/", "_")+"/"+mode, func(t *testing.T) {
				t.Parallel()
				const envs = 3
				info := create(t, native.CreateRequest{Game: game, NumEnvs: envs, Seed: seed(7), AutoReset: mode, Workers: 2})
				mem := allocate(info, info.Rows, 1)
				if err := native.Bind(info.Handle, mem.ptrs, 0); err != nil {
					t.Fatal(err)
				}
				mode, _ := vecenv.ParseAutoReset(mode)
				ref, err := vecenv.New(vecenv.Config{Game: game, NumEnvs: envs, Seed: 7, AutoReset: mode, Workers: 1})
				if err != nil {
					t.Fatal(err)
				}
				defer ref.Close()
				refOut := vecenv.Output{Buffers: ref.Buffers(), Ended: ref.Ended(), FinalObs: ref.FinalObs()}
				rng := rand.New(rand.NewPCG(1, 2))
				acts := make([]int32, info.Rows)
				for s := range 60 {
					if s == 0 {
						if err := native.Reset(info.Handle); err != nil {
							t.Fatal(err)
						}
						if err := ref.Reset(); err != nil {
							t.Fatal(err)
						}
					} else {
						for r := range acts {
							acts[r] = int32(rng.IntN(info.Spec.Actions))
						}
						if err := native.Step(info.Handle, acts); err != nil {
							t.Fatal(err)
						}
						if err := ref.Step(acts); err != nil {
							t.Fatal(err)
						}
					}
					want := poolBytes(refOut)
					for i, a := range info.Layout {
						if !bytes.Equal(mem.arrays[i], want[i]) {
							t.Fatalf("step %d: %s differs from the vecenv pool's", s, a.Name)
						}
					}
				}
				st, err := native.PoolStats(info.Handle, false)
				if err != nil {
					t.Fatal(err)
				}
				if st.Steps != 59 || len(st.Seats) != info.Spec.Seats {
					t.Errorf("stats %+v: want 59 steps and a seat entry per seat", st)
				}
			})
		}
	}
}

func TestCreateErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		req  native.CreateRequest
		code native.Code
		want string
	}{
		{"no_game", native.CreateRequest{NumEnvs: 1}, native.InvalidArgument, "game: required"},
		{"unknown_game", native.CreateRequest{Game: "chess", NumEnvs: 1}, native.NotFound, "chess"},
		{"bad_config", native.CreateRequest{Game: "bomberman", ConfigJSON: `{"players": 99}`, NumEnvs: 1}, native.InvalidArgument, "players"},
		{"config_not_json", native.CreateRequest{Game: "bomberman", ConfigJSON: `{`, NumEnvs: 1}, native.InvalidArgument, "bomberman"},
		{"no_envs", native.CreateRequest{Game: "bomberman"}, native.InvalidArgument, "NumEnvs"},
		{"bad_seat", native.CreateRequest{Game: "battlebots", NumEnvs: 1, LearnerSeats: []int{2}}, native.InvalidArgument, "LearnerSeats[0]"},
		{"unknown_agent", native.CreateRequest{Game: "battlebots", NumEnvs: 1, LearnerSeats: []int{0}, Opponents: map[int]string{1: "nobody"}}, native.NotFound, `"nobody"`},
		{"console", native.CreateRequest{Game: "battlebots", NumEnvs: 1, LearnerSeats: []int{0}, Opponents: map[int]string{1: "console"}}, native.InvalidArgument, "console"},
		{"missing_opponent", native.CreateRequest{Game: "battlebots", NumEnvs: 1, LearnerSeats: []int{0}}, native.InvalidArgument, "Opponents"},
		{"autoreset", native.CreateRequest{Game: "battlebots", NumEnvs: 1, AutoReset: "never"}, native.InvalidArgument, "AutoReset"},
		{"workers", native.CreateRequest{Game: "battlebots", NumEnvs: 1, Workers: -1}, native.InvalidArgument, "Workers"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			info, err := native.Create(tc.req)
			if err == nil {
				native.Close(info.Handle)
				t.Fatal("Create succeeded")
			}
			if code(err) != tc.code || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Create: code %d %q, want code %d containing %q", code(err), err, tc.code, tc.want)
			}
		})
	}
}

// TestDefaultOpponent fills the seats that are neither learners nor named.
func TestDefaultOpponent(t *testing.T) {
	info := create(t, native.CreateRequest{Game: "bomberman", NumEnvs: 1, LearnerSeats: []int{1}, Opponents: map[int]string{2: "idle"}, DefaultOpponent: "random"})
	if fmt.Sprint(info.Opponents) != "map[0:random 2:idle 3:random]" {
		t.Errorf("opponents %v", info.Opponents)
	}
	if info.Rows != 1 || len(info.LearnerSeats) != 1 {
		t.Errorf("info %+v", info)
	}
}

// TestCallErrors: every call checks its handle, its arguments and the
// pool's state, with the documented codes.
func TestCallErrors(t *testing.T) {
	info := create(t, native.CreateRequest{Game: "battlebots", NumEnvs: 2, Seed: seed(1)})
	h := info.Handle
	mem := allocate(info, info.Rows, 1)
	for _, tc := range []struct {
		name string
		call func() error
		code native.Code
		want string
	}{
		{"step_before_reset", func() error { return native.Step(h, make([]int32, info.Rows)) }, native.FailedPrecondition, "before the first Reset"},
		{"render_before_reset", func() error { _, err := native.Render(h, 0, -1, ""); return err }, native.FailedPrecondition, "reset first"},
		{"unknown_handle", func() error { return native.Reset(12345) }, native.NotFound, "no pool 12345"},
		{"bind_count", func() error { return native.Bind(h, mem.ptrs[1:], 0) }, native.InvalidArgument, "addresses"},
		{"bind_null", func() error {
			p := append([]unsafe.Pointer(nil), mem.ptrs...)
			p[3] = nil
			return native.Bind(h, p, 0)
		}, native.InvalidArgument, "null"},
		{"bind_misaligned", func() error {
			p := append([]unsafe.Pointer(nil), mem.ptrs...)
			p[len(info.Spec.Observations)+1] = unsafe.Add(p[len(info.Spec.Observations)+1], 1) // reward, float32
			return native.Bind(h, p, 0)
		}, native.InvalidArgument, "aligned"},
		{"bind_batch", func() error { return native.Bind(h, mem.ptrs, 3) }, native.InvalidArgument, "batch size 3"},
		{"async_not_bound", func() error { return native.AsyncReset(h) }, native.FailedPrecondition, "not async"},
		{"stats_unknown", func() error { _, err := native.PoolStats(999, false); return err }, native.NotFound, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.call()
			if code(err) != tc.code || !strings.Contains(fmt.Sprint(err), tc.want) {
				t.Errorf("code %d %q, want code %d containing %q", code(err), err, tc.code, tc.want)
			}
		})
	}
	if err := native.Reset(h); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		call func() error
		code native.Code
		want string
	}{
		{"actions_count", func() error { return native.Step(h, []int32{0}) }, native.InvalidArgument, "got 1 actions, want 4"},
		{"action_range", func() error { return native.Step(h, []int32{0, 0, 99, 0}) }, native.InvalidArgument, "action 99 at row 2"},
		{"render_env", func() error { _, err := native.Render(h, 2, -1, ""); return err }, native.InvalidArgument, "env: got 2"},
		{"render_seat", func() error { _, err := native.Render(h, 0, 2, ""); return err }, native.InvalidArgument, "seat: got 2"},
		{"render_format", func() error { _, err := native.Render(h, 0, -1, "gif"); return err }, native.InvalidArgument, `format: got "gif"`},
		{"opponents_learner", func() error {
			return native.SetOpponents(h, map[int][]native.Choice{0: {{Spec: "random", Weight: 1}}})
		}, native.InvalidArgument, "SetOpponents[0]"},
		{"opponents_unknown", func() error {
			return native.SetOpponents(h, map[int][]native.Choice{1: {{Spec: "nobody", Weight: 1}}})
		}, native.NotFound, "nobody"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.call()
			if code(err) != tc.code || !strings.Contains(fmt.Sprint(err), tc.want) {
				t.Errorf("code %d %q, want code %d containing %q", code(err), err, tc.code, tc.want)
			}
		})
	}
	native.Close(h)
	native.Close(h) // twice is fine
	if err := native.Reset(h); code(err) != native.NotFound {
		t.Errorf("Reset after Close: %v", err)
	}
}

// TestPanicClosesPool: a panicking opponent is an Internal error, and the
// pool is closed.
func TestPanicClosesPool(t *testing.T) {
	info := create(t, native.CreateRequest{Game: "battlebots", NumEnvs: 2, Workers: 2, LearnerSeats: []int{0}, Opponents: map[int]string{1: "nativetest-panic"}})
	if err := native.Reset(info.Handle); err != nil {
		t.Fatal(err)
	}
	err := native.Step(info.Handle, []int32{0, 0})
	if code(err) != native.Internal || !strings.Contains(err.Error(), "nativetest: boom") || strings.Contains(err.Error(), "\n") {
		t.Fatalf("Step: %q, want one Internal line with the panic", err)
	}
	if err := native.Step(info.Handle, []int32{0, 0}); code(err) != native.NotFound {
		t.Errorf("Step after the panic: %v, want NotFound", err)
	}
}

// TestAsync: a pool bound with a batch size steps through AsyncReset,
// Send and Recv into the ring of caller memory, and refuses sync calls.
func TestAsync(t *testing.T) {
	const envs, batch = 5, 2
	info := create(t, native.CreateRequest{Game: "bomberman", NumEnvs: envs, Seed: seed(3), LearnerSeats: []int{0}, DefaultOpponent: "random"})
	h := info.Handle
	nb := vecenv.AsyncBatches(envs, batch)
	mem := allocate(info, batch, nb)
	if err := native.Bind(h, mem.ptrs[:len(mem.ptrs)-1], batch); code(err) != native.InvalidArgument {
		t.Fatalf("Bind with an address missing: %v", err)
	}
	if err := native.Bind(h, mem.ptrs, batch); err != nil {
		t.Fatal(err)
	}
	if err := native.Bind(h, mem.ptrs, batch); code(err) != native.FailedPrecondition {
		t.Errorf("Bind twice: %v", err)
	}
	if err := native.Reset(h); code(err) != native.FailedPrecondition {
		t.Errorf("Reset of an async pool: %v", err)
	}
	if err := native.AsyncReset(h); err != nil {
		t.Fatal(err)
	}
	per := len(info.Layout)
	envCol := len(info.Spec.Observations) + 4 // "env"
	seen := map[int32]int{}
	for round := range 40 {
		k, err := native.Recv(h)
		if err != nil {
			t.Fatal(err)
		}
		if k < 0 || k >= nb {
			t.Fatalf("batch index %d, want 0..%d", k, nb-1)
		}
		ids := unsafe.Slice((*int32)(unsafe.Pointer(&mem.arrays[k*per+envCol][0])), batch)
		ids = append([]int32(nil), ids...)
		for _, e := range ids {
			seen[e]++
		}
		if err := native.Send(h, ids, []int32{int32(round % 6), 0}); err != nil {
			t.Fatal(err)
		}
	}
	if len(seen) != envs {
		t.Errorf("envs seen %v, want all %d", seen, envs)
	}
	if err := native.Send(h, []int32{0}, []int32{0}); err == nil || code(err) != native.InvalidArgument {
		t.Errorf("Send of an env in flight: %v", err)
	}
	st, err := native.PoolStats(h, false)
	if err != nil || st.Steps != 40 {
		t.Errorf("stats %+v, %v: want 40 sends", st, err)
	}
	if _, err := native.Render(h, 1, -1, ""); err != nil {
		t.Errorf("Render of an async pool: %v", err)
	}
}

// TestCall: the JSON dispatcher replies with a result or an error object.
func TestCall(t *testing.T) {
	var reply struct {
		Result json.RawMessage `json:"result"`
		Error  *struct {
			Code    native.Code `json:"code"`
			Message string      `json:"message"`
		} `json:"error"`
	}
	call := func(method string, h int64, args string) {
		t.Helper()
		reply.Result, reply.Error = nil, nil
		if err := json.Unmarshal(native.Call(method, h, []byte(args)), &reply); err != nil {
			t.Fatal(err)
		}
	}
	call("version", 0, "")
	if !strings.Contains(string(reply.Result), `"abi":1`) {
		t.Errorf("version: %s", reply.Result)
	}
	call("create", 0, `{"game": "battlebots", "num_envs": 2, "seed": 18446744073709551615, "learner_seats": [0], "default_opponent": "huggy"}`)
	var info native.Info
	if err := json.Unmarshal(reply.Result, &info); err != nil || reply.Error != nil {
		t.Fatalf("create: %s %+v", reply.Result, reply.Error)
	}
	defer native.Close(info.Handle)
	if info.Seed != 1<<64-1 || info.Rows != 2 || info.Opponents[1] != "huggy" || len(info.Layout) != len(info.Spec.Observations)+8 {
		t.Errorf("info %+v", info)
	}
	if err := native.Reset(info.Handle); err != nil {
		t.Fatal(err)
	}
	call("render", info.Handle, `{"env": 1, "seat": -1, "format": "rgb_array"}`)
	var pic native.Rendered
	if err := json.Unmarshal(reply.Result, &pic); err != nil || pic.Width*pic.Height*3 != len(pic.Data) || pic.Width == 0 {
		t.Errorf("render rgb_array: %v %d×%d, %d bytes", err, pic.Width, pic.Height, len(pic.Data))
	}
	call("set_opponents", info.Handle, `{"opponents": {"1": [{"spec": "random", "weight": 1}, {"spec": "huggy", "weight": 2, "name": "h"}]}}`)
	if reply.Error != nil {
		t.Errorf("set_opponents: %+v", reply.Error)
	}
	call("stats", info.Handle, `{"reset": true}`)
	if !strings.Contains(string(reply.Result), `"name":"h"`) {
		t.Errorf("stats: %s", reply.Result)
	}
	for _, tc := range []struct {
		method, args string
		h            int64
		code         native.Code
	}{
		{"nope", "", 0, native.InvalidArgument},
		{"create", "{", 0, native.InvalidArgument},
		{"stats", `{"reset": 3}`, info.Handle, native.InvalidArgument},
		{"stats", "", 777, native.NotFound},
	} {
		call(tc.method, tc.h, tc.args)
		if reply.Error == nil || reply.Error.Code != tc.code {
			t.Errorf("%s(%s): %s %+v, want code %d", tc.method, tc.args, reply.Result, reply.Error, tc.code)
		}
	}
	call("close", info.Handle, "")
	if reply.Error != nil {
		t.Errorf("close: %+v", reply.Error)
	}
}

// TestConcurrentCalls: goroutines stepping one pool and their own pools
// at once are serialised per pool (go test -race checks the rest).
func TestConcurrentCalls(t *testing.T) {
	shared := create(t, native.CreateRequest{Game: "battlebots", NumEnvs: 4, Seed: seed(1)})
	if err := native.Reset(shared.Handle); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			own, err := native.Create(native.CreateRequest{Game: "bomberman/2p", NumEnvs: 2, Seed: seed(uint64(g))})
			if err != nil {
				t.Error(err)
				return
			}
			defer native.Close(own.Handle)
			mem := allocate(own, own.Rows, 1)
			if err := native.Bind(own.Handle, mem.ptrs, 0); err != nil {
				t.Error(err)
				return
			}
			native.Reset(own.Handle)
			for range 50 {
				if err := native.Step(shared.Handle, make([]int32, shared.Rows)); err != nil {
					t.Error(err)
				}
				if err := native.Step(own.Handle, make([]int32, own.Rows)); err != nil {
					t.Error(err)
				}
				native.PoolStats(shared.Handle, false)
			}
		}()
	}
	wg.Wait()
	st, _ := native.PoolStats(shared.Handle, false)
	if st.Steps != 200 {
		t.Errorf("%d steps of the shared pool, want 200", st.Steps)
	}
}
