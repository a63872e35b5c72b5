package native_test

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"
	"testing"
	"unsafe"

	"google.golang.org/protobuf/proto"

	"github.com/botarena/botarena/agents"
	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/internal/testutil"
	"github.com/botarena/botarena/native"
	botarenav1 "github.com/botarena/botarena/rpc/gen/botarena/v1"
	"github.com/botarena/botarena/vecenv"
)

func init() {
	// An agent that panics on its first move, for the Internal path.
	agents.Register("nativetest-panic", "panics (native tests)", func(*env.Spec) (env.Agent, error) {
		return testutil.Panicky{From: 0, Msg: "nativetest: boom"}, nil
	})
}

func seed(s uint64) *uint64 { return &s }

// info is a pool's CreatePoolResponse with its handle.
type info struct {
	*botarenav1.CreatePoolResponse
	Handle int64
}

func create(t *testing.T, req *botarenav1.CreatePoolRequest) info {
	t.Helper()
	resp, err := native.CreatePool(req)
	if err != nil {
		t.Fatal(err)
	}
	h, err := strconv.ParseInt(resp.GetPoolId(), 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { native.Close(h) })
	return info{resp, h}
}

func stats(h int64) (*botarenav1.StatsResponse, error) {
	return native.Stats(&botarenav1.StatsRequest{PoolId: strconv.FormatInt(h, 10)})
}

func render(h int64, env, seat int32, format string) (*botarenav1.RenderResponse, error) {
	return native.Render(&botarenav1.RenderRequest{PoolId: strconv.FormatInt(h, 10), Env: env, Seat: seat, Format: format})
}

func setOpponents(h int64, seat int32, specs ...string) error {
	mix := &botarenav1.OpponentMix{}
	for _, s := range specs {
		mix.Choices = append(mix.Choices, &botarenav1.OpponentChoice{Spec: s, Weight: 1})
	}
	_, err := native.SetOpponents(&botarenav1.SetOpponentsRequest{PoolId: strconv.FormatInt(h, 10), Opponents: map[int32]*botarenav1.OpponentMix{seat: mix}})
	return err
}

// memory is caller memory for outputs of a pool: one byte slice per array
// of the layout, per output.
type memory struct {
	arrays [][]byte
	ptrs   []unsafe.Pointer
}

func allocate(info info, rows, outputs int) *memory {
	m := &memory{}
	for range outputs {
		for _, a := range info.GetOutputArrays() {
			n := rows
			for _, d := range a.GetShape() {
				n *= int(d)
			}
			size := map[string]int{"uint8": 1, "bool": 1, "float32": 4, "int32": 4}[a.GetDtype()]
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
				info := create(t, &botarenav1.CreatePoolRequest{Game: game, NumEnvs: envs, Seed: seed(7), AutoReset: autoReset[mode], Workers: 2})
				mem := allocate(info, int(info.Rows), 1)
				if err := native.Bind(info.Handle, mem.ptrs); err != nil {
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
							acts[r] = int32(rng.IntN(int(info.Spec.Actions)))
						}
						if err := native.Step(info.Handle, acts); err != nil {
							t.Fatal(err)
						}
						if err := ref.Step(acts); err != nil {
							t.Fatal(err)
						}
					}
					want := poolBytes(refOut)
					for i, a := range info.OutputArrays {
						if !bytes.Equal(mem.arrays[i], want[i]) {
							t.Fatalf("step %d: %s differs from the vecenv pool's", s, a.Name)
						}
					}
				}
				st, err := stats(info.Handle)
				if err != nil {
					t.Fatal(err)
				}
				if st.Steps != 59 || len(st.Seats) != int(info.Spec.Seats) {
					t.Errorf("stats %+v: want 59 steps and a seat entry per seat", st)
				}
			})
		}
	}
}

// autoReset names the modes as the tests do.
var autoReset = map[string]botarenav1.AutoReset{"next_step": botarenav1.AutoReset_AUTO_RESET_NEXT_STEP, "same_step": botarenav1.AutoReset_AUTO_RESET_SAME_STEP}

func TestCreateErrors(t *testing.T) {
	type req = botarenav1.CreatePoolRequest
	for _, tc := range []struct {
		name string
		req  *req
		code native.Code
		want string
	}{
		{"no_game", &req{NumEnvs: 1}, native.InvalidArgument, "game: required"},
		{"unknown_game", &req{Game: "chess", NumEnvs: 1}, native.NotFound, "chess"},
		{"bad_config", &req{Game: "bomberman", ConfigJson: `{"players": 99}`, NumEnvs: 1}, native.InvalidArgument, "players"},
		{"config_not_json", &req{Game: "bomberman", ConfigJson: `{`, NumEnvs: 1}, native.InvalidArgument, "bomberman"},
		{"no_envs", &req{Game: "bomberman"}, native.InvalidArgument, "num_envs"},
		{"bad_seat", &req{Game: "battlebots", NumEnvs: 1, LearnerSeats: []int32{2}}, native.InvalidArgument, "LearnerSeats[0]"},
		{"too_many_seats", &req{Game: "battlebots", NumEnvs: 1, LearnerSeats: []int32{0, 1, 1}}, native.InvalidArgument, "learner_seats: 3 seats given"},
		{"unknown_agent", &req{Game: "battlebots", NumEnvs: 1, LearnerSeats: []int32{0}, Opponents: map[int32]string{1: "nobody"}}, native.NotFound, `"nobody"`},
		{"console", &req{Game: "battlebots", NumEnvs: 1, LearnerSeats: []int32{0}, Opponents: map[int32]string{1: "console"}}, native.InvalidArgument, "console"},
		{"missing_opponent", &req{Game: "battlebots", NumEnvs: 1, LearnerSeats: []int32{0}}, native.InvalidArgument, "Opponents"},
		{"autoreset", &req{Game: "battlebots", NumEnvs: 1, AutoReset: 7}, native.InvalidArgument, "auto_reset"},
		{"workers", &req{Game: "battlebots", NumEnvs: 1, Workers: -1}, native.InvalidArgument, "workers"},
		{"batch_size", &req{Game: "battlebots", NumEnvs: 2, BatchSize: 3}, native.InvalidArgument, "batch_size: got 3"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp, err := native.CreatePool(tc.req)
			if err == nil {
				native.ClosePool(&botarenav1.ClosePoolRequest{PoolId: resp.GetPoolId()})
				t.Fatal("CreatePool succeeded")
			}
			if code(err) != tc.code || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("CreatePool: code %d %q, want code %d containing %q", code(err), err, tc.code, tc.want)
			}
		})
	}
}

// TestDefaultOpponent fills the seats that are neither learners nor named.
func TestDefaultOpponent(t *testing.T) {
	info := create(t, &botarenav1.CreatePoolRequest{Game: "bomberman", NumEnvs: 1, LearnerSeats: []int32{1}, Opponents: map[int32]string{2: "idle"}, DefaultOpponent: "random"})
	if fmt.Sprint(info.Opponents) != "map[0:random 2:idle 3:random]" {
		t.Errorf("opponents %v", info.Opponents)
	}
	if info.Rows != 1 || len(info.LearnerSeats) != 1 {
		t.Errorf("info %v", info.CreatePoolResponse)
	}
}

// TestCallErrors: every call checks its handle, its arguments and the
// pool's state, with the documented codes.
func TestCallErrors(t *testing.T) {
	info := create(t, &botarenav1.CreatePoolRequest{Game: "battlebots", NumEnvs: 2, Seed: seed(1)})
	h := info.Handle
	rows := int(info.Rows)
	mem := allocate(info, rows, 1)
	obs := len(info.Spec.Observations)
	for _, tc := range []struct {
		name string
		call func() error
		code native.Code
		want string
	}{
		{"step_before_reset", func() error { return native.Step(h, make([]int32, rows)) }, native.FailedPrecondition, "before the first Reset"},
		{"render_before_reset", func() error { _, err := render(h, 0, -1, ""); return err }, native.FailedPrecondition, "reset first"},
		{"unknown_handle", func() error { return native.Reset(12345) }, native.NotFound, "no pool 12345"},
		{"bind_count", func() error { return native.Bind(h, mem.ptrs[1:]) }, native.InvalidArgument, "addresses"},
		{"bind_null", func() error {
			p := append([]unsafe.Pointer(nil), mem.ptrs...)
			p[3] = nil
			return native.Bind(h, p)
		}, native.InvalidArgument, "null"},
		{"bind_misaligned", func() error {
			p := append([]unsafe.Pointer(nil), mem.ptrs...)
			p[obs+1] = unsafe.Add(p[obs+1], 1) // reward, float32
			return native.Bind(h, p)
		}, native.InvalidArgument, "aligned"},
		{"async_not_async", func() error { return native.AsyncReset(h) }, native.FailedPrecondition, "not async"},
		{"stats_unknown", func() error { _, err := stats(999); return err }, native.NotFound, ""},
		{"stats_bad_id", func() error {
			_, err := native.Stats(&botarenav1.StatsRequest{PoolId: "native:1"})
			return err
		}, native.NotFound, `"native:1"`},
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
	duel := create(t, &botarenav1.CreatePoolRequest{Game: "battlebots", NumEnvs: 1, LearnerSeats: []int32{0}, DefaultOpponent: "idle"}).Handle
	for _, tc := range []struct {
		name string
		call func() error
		code native.Code
		want string
	}{
		{"actions_count", func() error { return native.Step(h, []int32{0}) }, native.InvalidArgument, "got 1 actions, want 4"},
		{"action_range", func() error { return native.Step(h, []int32{0, 0, 99, 0}) }, native.InvalidArgument, "action 99 at row 2"},
		{"render_env", func() error { _, err := render(h, 2, -1, ""); return err }, native.InvalidArgument, "env: got 2"},
		{"render_seat", func() error { _, err := render(h, 0, 2, ""); return err }, native.InvalidArgument, "seat: got 2"},
		{"render_format", func() error { _, err := render(h, 0, -1, "gif"); return err }, native.InvalidArgument, `format: got "gif"`},
		{"opponents_learner", func() error { return setOpponents(h, 0, "random") }, native.InvalidArgument, "opponents[0]: seat 0 is a learner seat"},
		{"opponents_seat", func() error { return setOpponents(h, 2, "random") }, native.InvalidArgument, "opponents[2]: seat 2 is not a seat of battlebots"},
		{"opponents_repeated", func() error { return setOpponents(duel, 1, "random", "random") }, native.InvalidArgument, `"random" repeats a name`},
		{"opponents_unknown", func() error { return setOpponents(duel, 1, "nobody") }, native.NotFound, "nobody"},
		{"opponents_none", func() error {
			_, err := native.SetOpponents(&botarenav1.SetOpponentsRequest{PoolId: info.PoolId})
			return err
		}, native.InvalidArgument, "opponents: required"},
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
	info := create(t, &botarenav1.CreatePoolRequest{Game: "battlebots", NumEnvs: 2, Workers: 2, LearnerSeats: []int32{0}, Opponents: map[int32]string{1: "nativetest-panic"}})
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

// TestAsync: a pool made with a batch size steps through AsyncReset, Send
// and Recv into the ring of caller memory, and refuses sync calls.
func TestAsync(t *testing.T) {
	const envs, batch = 5, 2
	info := create(t, &botarenav1.CreatePoolRequest{Game: "bomberman", NumEnvs: envs, Seed: seed(3), LearnerSeats: []int32{0}, DefaultOpponent: "random", BatchSize: batch})
	h := info.Handle
	if info.BatchSize != batch {
		t.Errorf("batch_size %d, want %d", info.BatchSize, batch)
	}
	if err := native.AsyncReset(h); code(err) != native.FailedPrecondition || !strings.Contains(err.Error(), "not bound") {
		t.Errorf("AsyncReset before Bind: %v", err)
	}
	nb := vecenv.AsyncBatches(envs, batch)
	mem := allocate(info, batch, nb)
	if err := native.Bind(h, mem.ptrs[:len(mem.ptrs)-1]); code(err) != native.InvalidArgument {
		t.Fatalf("Bind with an address missing: %v", err)
	}
	if err := native.Bind(h, mem.ptrs); err != nil {
		t.Fatal(err)
	}
	if err := native.Bind(h, mem.ptrs); code(err) != native.FailedPrecondition {
		t.Errorf("Bind twice: %v", err)
	}
	if err := native.Reset(h); code(err) != native.FailedPrecondition {
		t.Errorf("Reset of an async pool: %v", err)
	}
	if err := native.AsyncReset(h); err != nil {
		t.Fatal(err)
	}
	per := len(info.OutputArrays)
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
	st, err := stats(h)
	if err != nil || st.Steps != 40 {
		t.Errorf("stats %v, %v: want 40 sends", st, err)
	}
	if _, err := render(h, 1, -1, ""); err != nil {
		t.Errorf("Render of an async pool: %v", err)
	}
}

// TestSendRecvIsSendThenRecv: one SendRecv call gives the batches that
// Send followed by Recv give, byte for byte, and counts one step.
func TestSendRecvIsSendThenRecv(t *testing.T) {
	const envs, batch, rounds = 6, 3, 30
	req := &botarenav1.CreatePoolRequest{Game: "battlebots", NumEnvs: envs, Seed: seed(5), BatchSize: batch}
	var hs [2]int64
	var mems [2]*memory
	nb := vecenv.AsyncBatches(envs, batch)
	for i := range hs {
		info := create(t, req)
		hs[i], mems[i] = info.Handle, allocate(info, batch*len(info.LearnerSeats), nb)
		if err := native.Bind(hs[i], mems[i].ptrs); err != nil {
			t.Fatal(err)
		}
		if err := native.AsyncReset(hs[i]); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := native.SendRecv(hs[1], []int32{0}, []int32{0, 0}); code(err) != native.InvalidArgument {
		t.Errorf("SendRecv of an env in flight: %v", err)
	}
	ks := [2]int{}
	for i, h := range hs {
		k, err := native.Recv(h)
		if err != nil {
			t.Fatal(err)
		}
		ks[i] = k
	}
	per := len(mems[0].arrays) / nb
	envCol := per - 1 - 3 // "env": before seat, episode and ended (no final observations here)
	for round := range rounds {
		for a := range per {
			if x, y := mems[0].arrays[ks[0]*per+a], mems[1].arrays[ks[1]*per+a]; !bytes.Equal(x, y) {
				t.Fatalf("round %d: array %d differs: Send then Recv %v, SendRecv %v", round, a, x, y)
			}
		}
		raw := mems[0].arrays[ks[0]*per+envCol]
		ids := make([]int32, batch)
		for j := range ids {
			ids[j] = *(*int32)(unsafe.Pointer(&raw[4*2*j])) // 2 learner seats: every other row
		}
		acts := make([]int32, 2*batch)
		for j := range acts {
			acts[j] = int32((round + j) % 5)
		}
		if err := native.Send(hs[0], ids, acts); err != nil {
			t.Fatal(err)
		}
		var err error
		if ks[0], err = native.Recv(hs[0]); err != nil {
			t.Fatal(err)
		}
		if ks[1], err = native.SendRecv(hs[1], ids, acts); err != nil {
			t.Fatal(err)
		}
	}
	for i, h := range hs {
		if st, err := stats(h); err != nil || st.Steps != rounds {
			t.Errorf("pool %d: stats %v, %v: want %d steps", i, st, err, rounds)
		}
	}
}

// TestCall: the dispatcher runs the env service's methods on their
// binary protobuf messages, and replies with an *Error of the documented
// code otherwise.
func TestCall(t *testing.T) {
	call := func(method string, req, resp proto.Message) error {
		t.Helper()
		in, err := proto.Marshal(req)
		if err != nil {
			t.Fatal(err)
		}
		out, err := native.Call(method, in)
		if err != nil {
			return err
		}
		if err := proto.Unmarshal(out, resp); err != nil {
			t.Fatalf("%s: response: %v", method, err)
		}
		return nil
	}
	var games botarenav1.ListGamesResponse
	if err := call("ListGames", &botarenav1.ListGamesRequest{}, &games); err != nil || len(games.Games) != len(env.Default.Names()) || games.ServerVersion == "" {
		t.Errorf("ListGames: %v, %d games, version %q", err, len(games.Games), games.ServerVersion)
	}
	var info botarenav1.CreatePoolResponse
	err := call("CreatePool", &botarenav1.CreatePoolRequest{Game: "battlebots", NumEnvs: 2, Seed: seed(1<<64 - 1), LearnerSeats: []int32{0}, DefaultOpponent: "huggy"}, &info)
	if err != nil {
		t.Fatal(err)
	}
	h, _ := strconv.ParseInt(info.PoolId, 10, 64)
	defer native.Close(h)
	if info.Seed != 1<<64-1 || info.Rows != 2 || info.Opponents[1] != "huggy" || len(info.OutputArrays) != len(info.Spec.Observations)+8 {
		t.Errorf("info %v", &info)
	}
	if err := native.Reset(h); err != nil {
		t.Fatal(err)
	}
	var pic botarenav1.RenderResponse
	if err := call("Render", &botarenav1.RenderRequest{PoolId: info.PoolId, Env: 1, Seat: -1, Format: "rgb_array"}, &pic); err != nil || pic.Width*pic.Height*3 != int32(len(pic.Data)) || pic.Width == 0 {
		t.Errorf("Render rgb_array: %v %d×%d, %d bytes", err, pic.Width, pic.Height, len(pic.Data))
	}
	mix := &botarenav1.OpponentMix{Choices: []*botarenav1.OpponentChoice{{Spec: "random", Weight: 1}, {Spec: "huggy", Weight: 2, Name: "h"}}}
	if err := call("SetOpponents", &botarenav1.SetOpponentsRequest{PoolId: info.PoolId, Opponents: map[int32]*botarenav1.OpponentMix{1: mix}}, &botarenav1.SetOpponentsResponse{}); err != nil {
		t.Errorf("SetOpponents: %v", err)
	}
	var st botarenav1.StatsResponse
	if err := call("Stats", &botarenav1.StatsRequest{PoolId: info.PoolId, Reset_: true}, &st); err != nil || len(st.Opponents) != 3 || st.Opponents[2].Name != "h" {
		t.Errorf("Stats: %v %v", err, &st)
	}
	for _, tc := range []struct {
		method string
		req    []byte
		code   native.Code
	}{
		{"Nope", nil, native.InvalidArgument},
		{"Step", nil, native.InvalidArgument}, // the step path is not a Call
		{"CreatePool", []byte{0xff}, native.InvalidArgument},
		{"Stats", []byte("\x0a\x03777"), native.NotFound},
	} {
		_, err := native.Call(tc.method, tc.req)
		if code(err) != tc.code {
			t.Errorf("%s(%q): %v, want code %d", tc.method, tc.req, err, tc.code)
		}
	}
	if err := call("ClosePool", &botarenav1.ClosePoolRequest{PoolId: info.PoolId}, &botarenav1.ClosePoolResponse{}); err != nil {
		t.Errorf("ClosePool: %v", err)
	}
	if err := native.Reset(h); code(err) != native.NotFound {
		t.Errorf("Reset after ClosePool: %v", err)
	}
}

// TestConcurrentCalls: goroutines stepping one pool and their own pools
// at once are serialised per pool (go test -race checks the rest).
func TestConcurrentCalls(t *testing.T) {
	shared := create(t, &botarenav1.CreatePoolRequest{Game: "battlebots", NumEnvs: 4, Seed: seed(1)})
	if err := native.Reset(shared.Handle); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			resp, err := native.CreatePool(&botarenav1.CreatePoolRequest{Game: "bomberman/2p", NumEnvs: 2, Seed: seed(uint64(g))})
			if err != nil {
				t.Error(err)
				return
			}
			h, _ := strconv.ParseInt(resp.PoolId, 10, 64)
			own := info{resp, h}
			defer native.Close(own.Handle)
			mem := allocate(own, int(own.Rows), 1)
			if err := native.Bind(own.Handle, mem.ptrs); err != nil {
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
				stats(shared.Handle)
			}
		}()
	}
	wg.Wait()
	st, _ := stats(shared.Handle)
	if st.Steps != 200 {
		t.Errorf("%d steps of the shared pool, want 200", st.Steps)
	}
}
