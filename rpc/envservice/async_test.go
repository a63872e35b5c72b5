package envservice_test

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"

	"connectrpc.com/connect"

	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/observations"
	"github.com/botarena/botarena/rpc/client"
	botarenav1 "github.com/botarena/botarena/rpc/gen/botarena/v1"
	"github.com/botarena/botarena/rpc/internal/rpctest"
	"github.com/botarena/botarena/vecenv"
)

// envIDs encodes env ids as little-endian int32s, as SendRequest.env_ids:
// the encoding of actions.
func envIDs(ids []int32) []byte { return client.EncodeActions(nil, ids) }

// TestRecvMatchesAsync drives a served async pool and a local vecenv.Async
// (one worker each, so that the row order is the send order) with the
// same sends, and checks that every Recv batch message, its ended flags
// and its final batch are the local batch's, byte for byte. With
// sendInRecv the served pool gets each send inside the next Recv request
// (RecvRequest's env_ids and actions) instead of a Send.
func TestRecvMatchesAsync(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name       string
		req        *botarenav1.CreatePoolRequest
		sendInRecv bool
	}{
		{"batches_of_3_of_7", &botarenav1.CreatePoolRequest{Game: "bomberman", NumEnvs: 7, BatchSize: 3, Seed: rpctest.Seed(4),
			Workers: 1, ConfigJson: `{"max_rounds": 9}`}, false},
		{"one_learner_same_step", &botarenav1.CreatePoolRequest{Game: "bomberman/2p", NumEnvs: 4, BatchSize: 2, Seed: rpctest.Seed(9),
			Workers: 1, LearnerSeats: []int32{1}, Opponents: map[int32]string{0: "random"}, ConfigJson: `{"max_rounds": 6}`,
			AutoReset: botarenav1.AutoReset_AUTO_RESET_SAME_STEP}, false},
		{"whole_pool_shared_planes", &botarenav1.CreatePoolRequest{Game: "bomberman", NumEnvs: 3, BatchSize: 3, Seed: rpctest.Seed(2),
			Workers: 1, ConfigJson: `{"max_rounds": 5}`, SharedPlanes: true}, false},
		{"send_in_recv", &botarenav1.CreatePoolRequest{Game: "bomberman", NumEnvs: 7, BatchSize: 3, Seed: rpctest.Seed(4),
			Workers: 1, ConfigJson: `{"max_rounds": 9}`}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			raw, created, local := rpctest.ServedAndLocal(t, tc.req, opponentsOf(tc.req))
			ctx := t.Context()
			id := created.GetPoolId()
			if created.GetBatchSize() != tc.req.GetBatchSize() {
				t.Fatalf("batch_size %d, want %d", created.GetBatchSize(), tc.req.GetBatchSize())
			}
			B, L := int(tc.req.GetBatchSize()), len(local.LearnerSeats())
			a, err := vecenv.NewAsync(local, B, nil)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { a.Close() }) // before the pool's Close
			var opts []observations.Option
			if created.GetSharedPlanes() {
				opts = append(opts, observations.WithShared(L))
			}
			enc, err := observations.NewEncoder(local.Spec(), B*L, opts...)
			if err != nil {
				t.Fatal(err)
			}
			defer enc.Close()
			check := func(what string, got []byte, want *env.Buffers) {
				t.Helper()
				msg, err := enc.AppendBatchMessage(nil, want)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got, msg) {
					t.Fatalf("%s: batch message differs from vecenv.Async's (%d bytes, want %d)", what, len(got), len(msg))
				}
			}

			if _, err := raw.AsyncReset(ctx, &botarenav1.AsyncResetRequest{PoolId: id}); err != nil {
				t.Fatal(err)
			}
			if err := a.Reset(); err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(3, 4))
			ids := make([]int32, 0, B)
			actions := make([]int32, B*L)
			ends := 0
			// pending is the send a sendInRecv case puts in the next Recv.
			var pending *botarenav1.RecvRequest
			for i := range 30 {
				req := &botarenav1.RecvRequest{PoolId: id}
				if pending != nil {
					req, pending = pending, nil
				}
				resp, err := raw.Recv(ctx, req)
				if err != nil {
					t.Fatalf("recv %d: %v", i, err)
				}
				k, err := a.Recv()
				if err != nil {
					t.Fatal(err)
				}
				out := a.Batch(k)
				check("recv", resp.GetBatch(), out.Buffers)
				anyEnded := false
				for r, e := range out.Ended {
					if (resp.GetEnded()[r] == 1) != e {
						t.Fatalf("recv %d: ended[%d] = %d, want %v", i, r, resp.GetEnded()[r], e)
					}
					anyEnded = anyEnded || e
				}
				if anyEnded {
					ends++
				}
				if out.FinalObs != nil && anyEnded {
					final := *out.Buffers
					final.Obs = out.FinalObs
					check("final", resp.GetFinalBatch(), &final)
				} else if len(resp.GetFinalBatch()) != 0 {
					t.Fatalf("recv %d: final batch of %d bytes, want none", i, len(resp.GetFinalBatch()))
				}
				// Send the batch's envs back, in reverse order, so that the
				// next batches are not in env order.
				ids = ids[:0]
				for j := B - 1; j >= 0; j-- {
					ids = append(ids, out.Buffers.Env[j*L])
				}
				rpctest.RandomActions(rng, actions, local.Spec().Actions)
				if tc.sendInRecv && i < 29 {
					pending = &botarenav1.RecvRequest{PoolId: id, EnvIds: envIDs(ids), Actions: client.EncodeActions(nil, actions)}
				} else if _, err := raw.Send(ctx, &botarenav1.SendRequest{PoolId: id, EnvIds: envIDs(ids), Actions: client.EncodeActions(nil, actions)}); err != nil {
					t.Fatalf("send %d: %v", i, err)
				}
				// The server releases each batch once encoded.
				if err := a.ReleaseAndSend(ids, actions); err != nil {
					t.Fatal(err)
				}
			}
			if ends == 0 {
				t.Error("no episode ended; the test does not cover episode ends")
			}
			st, err := raw.Stats(ctx, &botarenav1.StatsRequest{PoolId: id})
			if err != nil {
				t.Fatal(err)
			}
			a.Wait()
			if want := local.Stats(); st.GetSteps() != 30 || st.GetSeats()[0].GetEpisodes() != want.Seats[0].Episodes {
				t.Errorf("stats: %d steps, %d episodes; want 30 Send calls and %d episodes", st.GetSteps(), st.GetSeats()[0].GetEpisodes(), want.Seats[0].Episodes)
			}
			if r, err := raw.Render(ctx, &botarenav1.RenderRequest{PoolId: id, Env: 0, Seat: -1}); err != nil || len(r.GetData()) == 0 {
				t.Errorf("render of an async pool: %v", err)
			}
		})
	}
}

// TestAsyncErrors checks the codes and messages of the async calls'
// errors: bounds, env ids, and calls that do not fit the pool's state.
func TestAsyncErrors(t *testing.T) {
	t.Parallel()
	ts := rpctest.New(t)
	raw := ts.Client(t).Raw()
	ctx := t.Context()
	create := func(batch int32) string {
		resp, err := raw.CreatePool(ctx, &botarenav1.CreatePoolRequest{Game: "bomberman/2p", NumEnvs: 4, BatchSize: batch, Seed: rpctest.Seed(1)})
		if err != nil {
			t.Fatal(err)
		}
		return resp.GetPoolId()
	}
	// pool is an async pool with batches of 2 envs, reset, whose first
	// batch (envs 0 and 1) was received: envs 2 and 3 are in flight.
	pool, fresh, sync := create(2), create(2), create(0)
	if _, err := raw.AsyncReset(ctx, &botarenav1.AsyncResetRequest{PoolId: pool}); err != nil {
		t.Fatal(err)
	}
	if _, err := raw.Recv(ctx, &botarenav1.RecvRequest{PoolId: pool}); err != nil {
		t.Fatal(err)
	}
	acts := func(n int) []byte { return make([]byte, 4*2*n) } // 2 learner seats per env
	send := func(ids []int32, actions []byte) func() error {
		return rpctest.Call(ctx, raw.Send, &botarenav1.SendRequest{PoolId: pool, EnvIds: envIDs(ids), Actions: actions})
	}
	for _, tc := range []struct {
		name string
		call func() error
		code connect.Code
		want []string
	}{
		{"batch_size_above_num_envs", rpctest.Call(ctx, raw.CreatePool, &botarenav1.CreatePoolRequest{Game: "bomberman", NumEnvs: 4, BatchSize: 5}), connect.CodeInvalidArgument, []string{"batch_size: got 5", "1..4 (num_envs)"}},
		{"negative_batch_size", rpctest.Call(ctx, raw.CreatePool, &botarenav1.CreatePoolRequest{Game: "bomberman", NumEnvs: 4, BatchSize: -1}), connect.CodeInvalidArgument, []string{"batch_size: got -1"}},
		{"reset_on_async_pool", rpctest.Call(ctx, raw.Reset, &botarenav1.ResetRequest{PoolId: pool}), connect.CodeFailedPrecondition, []string{"Reset on an async pool", "AsyncReset, Send and Recv"}},
		{"step_on_async_pool", rpctest.Call(ctx, raw.Step, &botarenav1.StepRequest{PoolId: pool, Actions: acts(4)}), connect.CodeFailedPrecondition, []string{"Step on an async pool"}},
		{"async_reset_on_sync_pool", rpctest.Call(ctx, raw.AsyncReset, &botarenav1.AsyncResetRequest{PoolId: sync}), connect.CodeFailedPrecondition, []string{"AsyncReset on a synchronous pool", "batch_size"}},
		{"send_on_sync_pool", rpctest.Call(ctx, raw.Send, &botarenav1.SendRequest{PoolId: sync, EnvIds: envIDs([]int32{0}), Actions: acts(1)}), connect.CodeFailedPrecondition, []string{"Send on a synchronous pool"}},
		{"recv_on_sync_pool", rpctest.Call(ctx, raw.Recv, &botarenav1.RecvRequest{PoolId: sync}), connect.CodeFailedPrecondition, []string{"Recv on a synchronous pool"}},
		{"send_before_async_reset", rpctest.Call(ctx, raw.Send, &botarenav1.SendRequest{PoolId: fresh, EnvIds: envIDs([]int32{0}), Actions: acts(1)}), connect.CodeFailedPrecondition, []string{"Send before the first AsyncReset"}},
		{"recv_before_async_reset", rpctest.Call(ctx, raw.Recv, &botarenav1.RecvRequest{PoolId: fresh}), connect.CodeFailedPrecondition, []string{"Recv before the first AsyncReset"}},
		{"recv_unknown_pool", rpctest.Call(ctx, raw.Recv, &botarenav1.RecvRequest{PoolId: "p-nope"}), connect.CodeNotFound, []string{`"p-nope"`}},
		{"empty_send", send(nil, nil), 0, nil}, // fine: it queues nothing
		{"env_ids_odd_bytes", rpctest.Call(ctx, raw.Send, &botarenav1.SendRequest{PoolId: pool, EnvIds: []byte{0, 0, 0}}), connect.CodeInvalidArgument, []string{"env_ids: got 3 bytes", "at most num_envs = 4"}},
		{"more_env_ids_than_envs", send([]int32{0, 1, 0, 1, 0}, acts(5)), connect.CodeInvalidArgument, []string{"env_ids: got 20 bytes"}},
		{"actions_byte_count", send([]int32{0}, acts(2)), connect.CodeInvalidArgument, []string{"actions: got 16 bytes for 1 envs, want 8"}},
		{"env_out_of_range", send([]int32{4}, acts(1)), connect.CodeInvalidArgument, []string{"envs[0]", "0..3"}},
		{"negative_env", send([]int32{-1}, acts(1)), connect.CodeInvalidArgument, []string{"envs[0]"}},
		{"env_in_flight", send([]int32{2}, acts(1)), connect.CodeInvalidArgument, []string{"in flight"}},
		{"env_named_twice", send([]int32{0, 0}, acts(2)), connect.CodeInvalidArgument, []string{"named twice"}},
		{"action_out_of_range", send([]int32{0}, []byte{99, 0, 0, 0, 0, 0, 0, 0}), connect.CodeInvalidArgument, []string{"action 99", "env 0"}},
		// A Recv that carries a Send fails as the Send would, and
		// receives nothing (the in-flight batch is still there below).
		{"recv_sending_env_in_flight", rpctest.Call(ctx, raw.Recv, &botarenav1.RecvRequest{PoolId: pool, EnvIds: envIDs([]int32{2}), Actions: acts(1)}), connect.CodeInvalidArgument, []string{"in flight"}},
		{"recv_sending_actions_without_envs", rpctest.Call(ctx, raw.Recv, &botarenav1.RecvRequest{PoolId: pool, Actions: acts(1)}), connect.CodeInvalidArgument, []string{"actions: got 8 bytes for 0 envs"}},
		{"recv_sending_on_sync_pool", rpctest.Call(ctx, raw.Recv, &botarenav1.RecvRequest{PoolId: sync, EnvIds: envIDs([]int32{0}), Actions: acts(1)}), connect.CodeFailedPrecondition, []string{"Send on a synchronous pool"}},
	} {
		err := tc.call()
		if tc.code == 0 { // no error wanted
			if err != nil {
				t.Errorf("%s: %v, want no error", tc.name, err)
			}
			continue
		}
		if connect.CodeOf(err) != tc.code {
			t.Errorf("%s: %v, want code %v", tc.name, err, tc.code)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: %q does not contain %q", tc.name, err.Error(), w)
			}
		}
	}

	// recv_without_send: the in-flight batch (envs 2 and 3) comes back,
	// and then none is in flight.
	_, err := raw.Recv(ctx, &botarenav1.RecvRequest{PoolId: pool})
	if err != nil {
		t.Fatal(err)
	}
	_, err = raw.Recv(ctx, &botarenav1.RecvRequest{PoolId: pool})
	if connect.CodeOf(err) != connect.CodeFailedPrecondition || !strings.Contains(err.Error(), "fewer envs in flight") {
		t.Errorf("recv_without_send: %v, want FailedPrecondition saying fewer envs are in flight", err)
	}
	// A StepStream on an async pool ends with the same code.
	stream, err := raw.StepStream(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := stream.Send(&botarenav1.StepStreamRequest{PoolId: pool, Reset_: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := stream.Receive(); connect.CodeOf(err) != connect.CodeFailedPrecondition {
		t.Errorf("StepStream reset on an async pool: %v, want FailedPrecondition", err)
	}
	stream.CloseRequest()
	stream.CloseResponse()
}
