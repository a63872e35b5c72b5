package envservice

import (
	"context"
	"encoding/binary"
	"runtime"
	"testing"

	_ "github.com/botarena/botarena/games" // every game
	"github.com/botarena/botarena/internal/bytesize"
	"github.com/botarena/botarena/observations"
	botarenav1 "github.com/botarena/botarena/rpc/gen/botarena/v1"
	"github.com/botarena/botarena/rpc/server"
)

// liveHeap returns the bytes of live heap objects after a full collection.
func liveHeap() int64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}

// TestPoolCostBoundsTheHeap calibrates the cost model: for pools of every
// game, autoreset mode, compression and some opponents, the estimate
// reserved before the pool is made is at least the live heap the pool
// holds after a Reset and some Steps (with the last response still
// referenced), and at most twice it; an async pool (batch_size) is driven
// with AsyncReset and as many Recv and Send calls. Measured with 2 workers; the zstd
// share grows with the workers as the model says.
func TestPoolCostBoundsTheHeap(t *testing.T) {
	// Not parallel: it measures the heap.
	if testing.Short() {
		t.Skip("measures the heap of a dozen pools")
	}
	for _, tc := range []struct {
		req   *botarenav1.CreatePoolRequest
		steps int
	}{
		{&botarenav1.CreatePoolRequest{Game: "bomberman", NumEnvs: 128}, 30},
		{&botarenav1.CreatePoolRequest{Game: "bomberman/12p", NumEnvs: 16}, 30},
		{&botarenav1.CreatePoolRequest{Game: "bomberman", NumEnvs: 128, AutoReset: botarenav1.AutoReset_AUTO_RESET_SAME_STEP}, 30},
		{&botarenav1.CreatePoolRequest{Game: "bomberman", NumEnvs: 128, Compression: botarenav1.Compression_COMPRESSION_ZSTD}, 30},
		{&botarenav1.CreatePoolRequest{Game: "bomberman", NumEnvs: 32, LearnerSeats: []int32{0}, Opponents: map[int32]string{1: "reference", 2: "reference", 3: "reference"}}, 30},
		{&botarenav1.CreatePoolRequest{Game: "battlecube", NumEnvs: 256}, 30},
		{&botarenav1.CreatePoolRequest{Game: "battlecube", NumEnvs: 2, ConfigJson: `{"players":64,"edge":32}`}, 10},
		{&botarenav1.CreatePoolRequest{Game: "battlecube", NumEnvs: 8, LearnerSeats: []int32{0}, Opponents: map[int32]string{1: "teebot", 2: "dumb", 3: "teebot"}}, 30},
		{&botarenav1.CreatePoolRequest{Game: "battlebots", NumEnvs: 1024}, 30},
		{&botarenav1.CreatePoolRequest{Game: "bomberman", NumEnvs: 128, SharedPlanes: true, AutoReset: botarenav1.AutoReset_AUTO_RESET_SAME_STEP}, 30},
		// Its games end within 54 steps, so that the final batch's encoder
		// compresses too.
		{&botarenav1.CreatePoolRequest{Game: "battleships/small", NumEnvs: 256, Compression: botarenav1.Compression_COMPRESSION_ZSTD, AutoReset: botarenav1.AutoReset_AUTO_RESET_SAME_STEP}, 60},
		{&botarenav1.CreatePoolRequest{Game: "portalbomber", NumEnvs: 128, LearnerSeats: []int32{0}, Opponents: map[int32]string{1: "greedy"}}, 30},
		{&botarenav1.CreatePoolRequest{Game: "bomberman", NumEnvs: 128, BatchSize: 32}, 30},
		{&botarenav1.CreatePoolRequest{Game: "bomberman", NumEnvs: 128, BatchSize: 128, AutoReset: botarenav1.AutoReset_AUTO_RESET_SAME_STEP}, 30},
	} {
		req := tc.req
		h := server.New()
		s := New(h, WithIdleTimeout(0), WithMaxWorkers(2))
		ctx := context.Background()
		cfg, err := s.poolConfig(req)
		if err != nil {
			t.Fatal(err)
		}
		cost, err := s.poolCost(cfg, req.GetCompression() == botarenav1.Compression_COMPRESSION_ZSTD, req.GetSharedPlanes(), int(req.GetBatchSize()))
		if err != nil {
			t.Fatal(err)
		}
		before := liveHeap()
		resp, err := s.CreatePool(ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		var last any
		if req.BatchSize > 0 {
			last = driveAsync(t, s, resp, tc.steps)
		} else {
			if _, err := s.Reset(ctx, &botarenav1.ResetRequest{PoolId: resp.PoolId}); err != nil {
				t.Fatal(err)
			}
			for range tc.steps {
				last, err = s.Step(ctx, &botarenav1.StepRequest{PoolId: resp.PoolId, Actions: make([]byte, 4*resp.Rows)})
				if err != nil {
					t.Fatal(err)
				}
			}
		}
		measured := liveHeap() - before
		runtime.KeepAlive(last)
		s.Close()
		est := cost.total()
		ratio := float64(est) / float64(measured)
		t.Logf("%s %d envs %s %v %v: estimate %s, measured %s (%.2f×): %v", req.Game, req.NumEnvs, req.ConfigJson,
			req.AutoReset, req.Compression, bytesize.Format(est), bytesize.Format(measured), ratio, cost)
		if est < measured || ratio > 2 {
			t.Errorf("%s %d envs %s: estimate %s, measured %s: want an upper bound within 2×", req.Game, req.NumEnvs, req.ConfigJson, bytesize.Format(est), bytesize.Format(measured))
		}
	}
}

// driveAsync resets the async pool of resp and then receives a batch and
// sends its envs back, with actions 0, recvs times; it returns the last
// Recv response.
func driveAsync(t *testing.T, s *Server, resp *botarenav1.CreatePoolResponse, recvs int) *botarenav1.RecvResponse {
	t.Helper()
	ctx := context.Background()
	id := resp.PoolId
	if _, err := s.AsyncReset(ctx, &botarenav1.AsyncResetRequest{PoolId: id}); err != nil {
		t.Fatal(err)
	}
	L := len(resp.LearnerSeats)
	ids := make([]byte, 4*resp.BatchSize)
	dec, err := observations.NewDecoder(resp.ArrowSchema)
	if err != nil {
		t.Fatal(err)
	}
	var last *botarenav1.RecvResponse
	for range recvs {
		var err error
		if last, err = s.Recv(ctx, &botarenav1.RecvRequest{PoolId: id}); err != nil {
			t.Fatal(err)
		}
		b, err := dec.Decode(last.Batch)
		if err != nil {
			t.Fatal(err)
		}
		for j := range int(resp.BatchSize) {
			binary.LittleEndian.PutUint32(ids[4*j:], uint32(b.Env[j*L]))
		}
		if _, err := s.Send(ctx, &botarenav1.SendRequest{PoolId: id, EnvIds: ids, Actions: make([]byte, len(ids)*L)}); err != nil {
			t.Fatal(err)
		}
	}
	return last
}
