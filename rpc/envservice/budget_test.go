package envservice_test

import (
	"regexp"
	"runtime"
	"strconv"
	"testing"
	"time"

	"connectrpc.com/connect"

	_ "github.com/botarena/botarena/env/battlebots" // registers battlebots
	_ "github.com/botarena/botarena/env/battlecube" // registers battlecube
	"github.com/botarena/botarena/rpc/envservice"
	botarenav1 "github.com/botarena/botarena/rpc/gen/botarena/v1"
	"github.com/botarena/botarena/rpc/internal/rpctest"
	"github.com/botarena/botarena/rpc/server"
)

// poolCost returns what a pool of req reserves of a server's budget,
// measured on a server of its own.
func poolCost(t *testing.T, req *botarenav1.CreatePoolRequest) int64 {
	t.Helper()
	ts := rpctest.New(t)
	p := rpctest.CreatePool(t, ts.Client(t), req)
	used, _ := ts.MemoryInUse()
	if used <= 0 {
		t.Fatalf("a pool of %d envs of %s reserves %d bytes", req.GetNumEnvs(), req.GetGame(), used)
	}
	if err := p.Close(t.Context()); err != nil {
		t.Fatal(err)
	}
	if used, _ := ts.MemoryInUse(); used != 0 {
		t.Fatalf("after ClosePool, %d bytes are still reserved", used)
	}
	return used
}

var needRE = regexp.MustCompile(`would need ([0-9.]+) GiB`)

// The first repro of issue 17: this request skipped the only size check
// (the message limit, for uncompressed pools) and the server was OOM-killed
// making its envs and buffers. Against the default budget it is refused
// before anything is allocated.
func TestCreatePoolOf65536TwelvePlayerZstdEnvsIsRefused(t *testing.T) {
	// Not parallel: it measures the heap.
	req := &botarenav1.CreatePoolRequest{Game: "bomberman/12p", NumEnvs: 65536, Compression: botarenav1.Compression_COMPRESSION_ZSTD}
	// What it would need, from a server that refuses everything.
	_, err := rpctest.New(t, server.WithMaxMemory(1)).Client(t).CreatePool(t.Context(), req)
	rpctest.WantCode(t, err, connect.CodeResourceExhausted, "pool would need", "more than the server's whole memory budget (--max-memory 1 B)")
	m := needRE.FindStringSubmatch(err.Error())
	if m == nil {
		t.Fatalf("no cost in GiB in %v", err)
	}
	need, _ := strconv.ParseFloat(m[1], 64)
	t.Logf("%v", err)
	if budget := float64(server.DefaultMaxMemory()) / (1 << 30); need <= budget {
		t.Skipf("this machine's default budget (%.1f GiB) admits the pool (%.1f GiB)", budget, need)
	}

	ts := rpctest.New(t)
	c := ts.Client(t)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, err = c.CreatePool(t.Context(), req)
	runtime.ReadMemStats(&after)
	rpctest.WantCode(t, err, connect.CodeResourceExhausted, "pool would need", "65536 envs of bomberman/12p", "zstd", "--max-memory")
	if grew := int64(after.TotalAlloc - before.TotalAlloc); grew > 256<<20 {
		t.Errorf("refusing the pool allocated %d MiB", grew>>20)
	}
	rpctest.StillServes(t, c)
	rpctest.WantInUse(t, ts.Host, 0)
}

// The third repro: limits counted envs, so --max-pools admitted far more
// memory than the machine had. Pools are admitted by bytes now, and
// ClosePool gives their bytes back.
func TestPoolsAreAdmittedByBytes(t *testing.T) {
	t.Parallel()
	req := &botarenav1.CreatePoolRequest{Game: "bomberman", NumEnvs: 16}
	cost := poolCost(t, req)
	ts := rpctest.New(t, server.WithMaxMemory(2*cost+cost/2)) // the default --max-pools 64 and envs limits
	c := ts.Client(t)
	p1 := rpctest.CreatePool(t, c, req)
	rpctest.CreatePool(t, c, req)
	_, err := c.CreatePool(t.Context(), req)
	rpctest.WantCode(t, err, connect.CodeResourceExhausted, "pool would need", "16 envs of bomberman", "--max-memory", "in use")
	rpctest.StillServes(t, c)
	rpctest.WantInUse(t, ts.Host, 2*cost)

	if err := p1.Close(t.Context()); err != nil {
		t.Fatal(err)
	}
	rpctest.WantInUse(t, ts.Host, cost)
	rpctest.CreatePool(t, c, req)

	// A pool larger than the whole budget says so.
	_, err = c.CreatePool(t.Context(), &botarenav1.CreatePoolRequest{Game: "bomberman", NumEnvs: 64})
	rpctest.WantCode(t, err, connect.CodeResourceExhausted, "64 envs of bomberman", "more than the server's whole memory budget")

	// The env-count limits still hold, and come first.
	small := rpctest.New(t, envservice.WithMaxEnvsPerPool(4))
	_, err = small.Client(t).CreatePool(t.Context(), &botarenav1.CreatePoolRequest{Game: "bomberman", NumEnvs: 5})
	rpctest.WantCode(t, err, connect.CodeResourceExhausted, "at most 4 envs per pool")
	rpctest.WantInUse(t, small.Host, 0)
}

func TestIdleExpiryReleasesMemory(t *testing.T) {
	t.Parallel()
	req := &botarenav1.CreatePoolRequest{Game: "bomberman", NumEnvs: 8}
	cost := poolCost(t, req)
	ts := rpctest.New(t, server.WithMaxMemory(cost+cost/2), envservice.WithIdleTimeout(20*time.Millisecond))
	c := ts.Client(t)
	if _, err := c.CreatePool(t.Context(), req); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		if used, _ := ts.MemoryInUse(); used == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the idle pool's memory was not released")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if _, err := c.CreatePool(t.Context(), req); err != nil {
		t.Fatalf("a pool after the idle one was closed: %v", err)
	}
}

// The last part of the third repro: one client could take every pool.
func TestPerClientQuotas(t *testing.T) {
	t.Parallel()
	req := &botarenav1.CreatePoolRequest{Game: "bomberman", NumEnvs: 4}
	cost := poolCost(t, req)

	t.Run("pools", func(t *testing.T) {
		t.Parallel()
		ts := rpctest.New(t, server.WithMaxClientPools(2))
		a, b := ts.ClientFrom(t, "10.0.0.1"), ts.ClientFrom(t, "10.0.0.2")
		p := rpctest.CreatePool(t, a, req)
		rpctest.CreatePool(t, a, req)
		_, err := a.CreatePool(t.Context(), req)
		rpctest.WantCode(t, err, connect.CodeResourceExhausted, "client 10.0.0.1 has 2 pools open", "--max-client-pools 2")
		rpctest.CreatePool(t, b, req) // another client has its own quota
		if err := p.Close(t.Context()); err != nil {
			t.Fatal(err)
		}
		rpctest.CreatePool(t, a, req)
	})
	t.Run("memory", func(t *testing.T) {
		t.Parallel()
		ts := rpctest.New(t, server.WithMaxClientMemory(cost+cost/2))
		a, b := ts.ClientFrom(t, "10.0.0.1"), ts.ClientFrom(t, "10.0.0.2")
		p := rpctest.CreatePool(t, a, req)
		_, err := a.CreatePool(t.Context(), req)
		rpctest.WantCode(t, err, connect.CodeResourceExhausted, "pool would need", "--max-client-memory", "in use by client 10.0.0.1")
		rpctest.CreatePool(t, b, req)
		rpctest.WantInUse(t, ts.Host, 2*cost)
		if err := p.Close(t.Context()); err != nil {
			t.Fatal(err)
		}
		rpctest.CreatePool(t, a, req)
	})
}
