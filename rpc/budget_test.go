package rpc_test

import (
	"context"
	"net"
	"net/http"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"connectrpc.com/connect"

	_ "github.com/botarena/botarena/env/battlebots" // registers battlebots
	_ "github.com/botarena/botarena/env/battlecube" // registers battlecube
	"github.com/botarena/botarena/rpc"
	botarenav1 "github.com/botarena/botarena/rpc/gen/botarena/v1"
)

// addrConn is the server's end of an in-memory connection, coming from
// addr.
type addrConn struct {
	net.Conn
	addr net.Addr
}

func (c addrConn) RemoteAddr() net.Addr { return c.addr }

// clientFrom returns a Go client of the in-memory server whose connections
// come from ip (the server's client key), over h2c.
func (ts *testServer) clientFrom(t testing.TB, ip string) *rpc.Client {
	t.Helper()
	var p http.Protocols
	p.SetUnencryptedHTTP2(true)
	addr := &net.TCPAddr{IP: net.ParseIP(ip), Port: 40000}
	tr := &http.Transport{Protocols: &p, DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
		server, client := net.Pipe()
		select {
		case ts.ln.conns <- addrConn{Conn: server, addr: addr}:
			return client, nil
		case <-ts.ln.done:
			return nil, net.ErrClosed
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}}
	t.Cleanup(tr.CloseIdleConnections)
	c, err := rpc.Dial("http://memory", rpc.WithHTTPClient(&http.Client{Transport: tr}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// poolCost returns what a pool of req reserves of a server's budget,
// measured on a server of its own.
func poolCost(t *testing.T, req *botarenav1.CreatePoolRequest) int64 {
	t.Helper()
	ts := newTestServer(t)
	p := createPool(t, ts.client(t), req)
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

// wantInUse fails t unless the server's budget has want bytes in use.
func wantInUse(t *testing.T, ts *testServer, want int64) {
	t.Helper()
	if used, _ := ts.MemoryInUse(); used != want {
		t.Errorf("%d bytes in use, want %d", used, want)
	}
}

// stillServes fails t unless the server answers a call.
func stillServes(t *testing.T, c *rpc.Client) {
	t.Helper()
	if _, err := c.ListGames(t.Context()); err != nil {
		t.Fatalf("the server no longer answers: %v", err)
	}
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
	_, err := newTestServer(t, rpc.WithMaxMemory(1)).client(t).CreatePool(t.Context(), req)
	wantCode(t, err, connect.CodeResourceExhausted, "pool would need", "more than the server's whole memory budget (--max-memory 1 B)")
	m := needRE.FindStringSubmatch(err.Error())
	if m == nil {
		t.Fatalf("no cost in GiB in %v", err)
	}
	need, _ := strconv.ParseFloat(m[1], 64)
	t.Logf("%v", err)
	if budget := float64(rpc.DefaultMaxMemory()) / (1 << 30); need <= budget {
		t.Skipf("this machine's default budget (%.1f GiB) admits the pool (%.1f GiB)", budget, need)
	}

	ts := newTestServer(t)
	c := ts.client(t)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, err = c.CreatePool(t.Context(), req)
	runtime.ReadMemStats(&after)
	wantCode(t, err, connect.CodeResourceExhausted, "pool would need", "65536 envs of bomberman/12p", "zstd", "--max-memory")
	if grew := int64(after.TotalAlloc - before.TotalAlloc); grew > 256<<20 {
		t.Errorf("refusing the pool allocated %d MiB", grew>>20)
	}
	stillServes(t, c)
	wantInUse(t, ts, 0)
}

// The third repro: limits counted envs, so --max-pools admitted far more
// memory than the machine had. Pools are admitted by bytes now, and
// ClosePool gives their bytes back.
func TestPoolsAreAdmittedByBytes(t *testing.T) {
	t.Parallel()
	req := &botarenav1.CreatePoolRequest{Game: "bomberman", NumEnvs: 16}
	cost := poolCost(t, req)
	ts := newTestServer(t, rpc.WithMaxMemory(2*cost+cost/2)) // the default --max-pools 64 and envs limits
	c := ts.client(t)
	p1 := createPool(t, c, req)
	createPool(t, c, req)
	_, err := c.CreatePool(t.Context(), req)
	wantCode(t, err, connect.CodeResourceExhausted, "pool would need", "16 envs of bomberman", "--max-memory", "in use")
	stillServes(t, c)
	wantInUse(t, ts, 2*cost)

	if err := p1.Close(t.Context()); err != nil {
		t.Fatal(err)
	}
	wantInUse(t, ts, cost)
	createPool(t, c, req)

	// A pool larger than the whole budget says so.
	_, err = c.CreatePool(t.Context(), &botarenav1.CreatePoolRequest{Game: "bomberman", NumEnvs: 64})
	wantCode(t, err, connect.CodeResourceExhausted, "64 envs of bomberman", "more than the server's whole memory budget")

	// The env-count limits still hold, and come first.
	small := newTestServer(t, rpc.WithMaxEnvsPerPool(4))
	_, err = small.client(t).CreatePool(t.Context(), &botarenav1.CreatePoolRequest{Game: "bomberman", NumEnvs: 5})
	wantCode(t, err, connect.CodeResourceExhausted, "at most 4 envs per pool")
	wantInUse(t, small, 0)
}

func TestIdleExpiryReleasesMemory(t *testing.T) {
	t.Parallel()
	req := &botarenav1.CreatePoolRequest{Game: "bomberman", NumEnvs: 8}
	cost := poolCost(t, req)
	ts := newTestServer(t, rpc.WithMaxMemory(cost+cost/2), rpc.WithIdleTimeout(20*time.Millisecond))
	c := ts.client(t)
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
		ts := newTestServer(t, rpc.WithMaxClientPools(2))
		a, b := ts.clientFrom(t, "10.0.0.1"), ts.clientFrom(t, "10.0.0.2")
		p := createPool(t, a, req)
		createPool(t, a, req)
		_, err := a.CreatePool(t.Context(), req)
		wantCode(t, err, connect.CodeResourceExhausted, "client 10.0.0.1 has 2 pools open", "--max-client-pools 2")
		createPool(t, b, req) // another client has its own quota
		if err := p.Close(t.Context()); err != nil {
			t.Fatal(err)
		}
		createPool(t, a, req)
	})
	t.Run("memory", func(t *testing.T) {
		t.Parallel()
		ts := newTestServer(t, rpc.WithMaxClientMemory(cost+cost/2))
		a, b := ts.clientFrom(t, "10.0.0.1"), ts.clientFrom(t, "10.0.0.2")
		p := createPool(t, a, req)
		_, err := a.CreatePool(t.Context(), req)
		wantCode(t, err, connect.CodeResourceExhausted, "pool would need", "--max-client-memory", "in use by client 10.0.0.1")
		createPool(t, b, req)
		wantInUse(t, ts, 2*cost)
		if err := p.Close(t.Context()); err != nil {
			t.Fatal(err)
		}
		createPool(t, a, req)
	})
}

// The second repro, a recorded Play: a 64-player Battle³ game on edge 32
// recorded every seat's 98 kB observation every step, and the size was
// checked only after the whole game. It is refused before it is played.
func TestRecordedPlayOverTheMessageLimitIsRefusedUpFront(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	c := ts.matchClient(t)
	var specs []string
	for range 64 {
		specs = append(specs, "idle")
	}
	start := time.Now()
	_, err := c.Play(t.Context(), &botarenav1.PlayRequest{Game: "battlecube", ConfigJson: `{"players":64,"edge":32}`, Seats: seats(specs...), Index: 7, Record: true})
	wantCode(t, err, connect.CodeResourceExhausted, "game 7: its recorded data could make a response of up to", "64 seats × 1000 steps", "message limit of 256.0 MiB", "--max-rounds")
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("the refusal took %v: was the game played?", d)
	}
	wantInUse(t, ts, 0)
	// The server still plays games.
	if _, err := c.Play(t.Context(), &botarenav1.PlayRequest{Game: "battlebots", Seats: seats("nop", "nop"), MaxRounds: 3, Record: true}); err != nil {
		t.Fatal(err)
	}
	wantInUse(t, ts, 0)
}

func TestRecordedPlayOverTheBudgetIsRefused(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t, rpc.WithMaxMemory(256<<10))
	c := ts.matchClient(t)
	// 200 recorded BattleBots rounds are about 0.8 MB.
	_, err := c.Play(t.Context(), &botarenav1.PlayRequest{Game: "battlebots", Seats: seats("nop", "nop"), Index: 3, MaxRounds: 200, Record: true})
	wantCode(t, err, connect.CodeResourceExhausted, "game 3 would need", "recording up to", "--max-memory 256.0 KiB")
	if _, err := c.Play(t.Context(), &botarenav1.PlayRequest{Game: "battlebots", Seats: seats("nop", "nop"), MaxRounds: 5, Record: true}); err != nil {
		t.Fatalf("a short recorded game: %v", err)
	}
	wantInUse(t, ts, 0)
}

// The second repro, a PlayBatch of 2,000 recorded BattleBots games (scaled
// down to 50 rounds each): the games whose data cannot fit the message
// limit or the budget get ResourceExhausted outcomes before any game is
// played, and the others are played.
func TestPlayBatchOfRecordedGamesIsAdmittedUpFront(t *testing.T) {
	t.Parallel()
	batch := func() *botarenav1.PlayBatchRequest {
		req := &botarenav1.PlayBatchRequest{}
		for i := range 2000 {
			req.Matches = append(req.Matches, &botarenav1.PlayRequest{Game: "battlebots", Seats: seats("nop", "nop"), Index: int64(i), Seed: uint64(i), MaxRounds: 50, Record: true})
		}
		return req
	}
	for _, tc := range []struct {
		name string
		opts []rpc.Option
		want []string
	}{
		{"message_limit", []rpc.Option{rpc.WithMaxMessageBytes(4 << 20)}, []string{"its recorded data could make the batch's response up to", "message limit of 4.0 MiB", "--server-batch"}},
		{"budget", []rpc.Option{rpc.WithMaxMemory(4 << 20)}, []string{"would need", "recording up to", "--max-memory 4.0 MiB", "in use"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ts := newTestServer(t, append(tc.opts, rpc.WithMaxMatches(2))...)
			c := ts.matchClient(t)
			resp, err := c.PlayBatch(t.Context(), batch())
			if err != nil {
				t.Fatal(err)
			}
			played := 0
			for i, o := range resp.GetOutcomes() {
				if o.GetResult() != nil {
					if played != i {
						t.Fatalf("game %d played after a refused one", i)
					}
					if o.GetResult().GetData().GetSteps() != 50 {
						t.Fatalf("game %d: %d recorded steps, want 50", i, o.GetResult().GetData().GetSteps())
					}
					played++
					continue
				}
				e := o.GetError()
				if e.GetCode() != connect.CodeResourceExhausted.String() {
					t.Fatalf("game %d: %v, want resource_exhausted", i, o)
				}
				for _, s := range append([]string{"matches[" + strconv.Itoa(i) + "]: game " + strconv.Itoa(i)}, tc.want...) {
					if !strings.Contains(e.GetMessage(), s) {
						t.Fatalf("game %d: message %q does not contain %q", i, e.GetMessage(), s)
					}
				}
			}
			t.Logf("%d of 2000 games played", played)
			if played < 1 || played > 20 {
				t.Errorf("%d games played, want a few", played)
			}
			wantInUse(t, ts, 0)
		})
	}
}

func TestByteSize(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in   string
		want int64
		out  string
	}{
		{"8GiB", 8 << 30, "8GiB"},
		{"512MiB", 512 << 20, "512MiB"},
		{"1.5GiB", 3 << 29, "1.5GiB"},
		{"1.5 G", 3 << 29, "1.5GiB"},
		{"2048", 2048, "2KiB"},
		{"1000", 1000, "1000"},
		{"2GB", 2e9, "1953125KiB"},
		{"0", 0, "0"},
	} {
		var b rpc.ByteSize
		if err := b.Set(tc.in); err != nil {
			t.Errorf("Set(%q): %v", tc.in, err)
			continue
		}
		if int64(b) != tc.want || b.String() != tc.out {
			t.Errorf("Set(%q) = %d (%s), want %d (%s)", tc.in, int64(b), b, tc.want, tc.out)
		}
	}
	for _, bad := range []string{"", "GiB", "-1GiB", "8 parsecs", "1e400"} {
		var b rpc.ByteSize
		if err := b.Set(bad); err == nil {
			t.Errorf("Set(%q) = %d, want an error", bad, int64(b))
		}
	}
	if d := rpc.DefaultMaxMemory(); d < 64<<20 {
		t.Errorf("DefaultMaxMemory() = %d, want a share of the machine's memory", d)
	}
}
