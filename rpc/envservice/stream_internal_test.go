package envservice

import (
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"connectrpc.com/connect"

	_ "github.com/botarena/botarena/games" // every game
	botarenav1 "github.com/botarena/botarena/rpc/gen/botarena/v1"
	"github.com/botarena/botarena/rpc/gen/botarena/v1/botarenav1connect"
	"github.com/botarena/botarena/rpc/server"
)

// fakeTimer is a stream idle timer the test fires: it records what the
// stream did with it.
type fakeTimer struct {
	mu    sync.Mutex
	f     func()
	armed bool
	log   []string
}

func (f *fakeTimer) Stop() bool               { return f.arm(false, "stop") }
func (f *fakeTimer) Reset(time.Duration) bool { return f.arm(true, "run") }

// arm sets armed, logs what, and returns whether the timer was armed.
func (f *fakeTimer) arm(armed bool, what string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	was := f.armed
	f.armed = armed
	f.log = append(f.log, what)
	return was
}

// fire runs the timer's function, as its expiry would, if it is armed.
func (f *fakeTimer) fire() bool {
	f.mu.Lock()
	fn, armed := f.f, f.armed
	f.armed = false
	f.mu.Unlock()
	if armed {
		fn()
	}
	return armed
}

func (f *fakeTimer) state() (bool, string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.armed, strings.Join(f.log, " ")
}

// TestStreamIdleTimerRunsOnlyWhileWaiting: a StepStream's idle timer runs
// while the stream waits for its client (from when it opens, and from
// each response on) and is stopped while it steps, so that only the
// client's silence ends it: once fired, the stream ends with
// DeadlineExceeded.
func TestStreamIdleTimerRunsOnlyWhileWaiting(t *testing.T) {
	t.Parallel()
	h := server.New()
	s := New(h)
	timers := make(chan *fakeTimer, 1)
	s.newIdleTimer = func(d time.Duration, f func()) idleTimer {
		ft := &fakeTimer{f: f, armed: true, log: []string{"run"}}
		timers <- ft
		return ft
	}
	hs := server.NewHTTPServer("", h.Handler(s))
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go hs.Serve(ln)
	t.Cleanup(func() {
		hs.Close()
		h.Close()
	})
	var p http.Protocols
	p.SetUnencryptedHTTP2(true)
	hc := &http.Client{Transport: &http.Transport{Protocols: &p}}
	defer hc.CloseIdleConnections()
	c := botarenav1connect.NewEnvServiceClient(hc, "http://"+ln.Addr().String())
	ctx := t.Context()
	created, err := c.CreatePool(ctx, &botarenav1.CreatePoolRequest{Game: "bomberman/2p", NumEnvs: 1})
	if err != nil {
		t.Fatal(err)
	}
	id := created.GetPoolId()
	st, err := c.StepStream(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer st.CloseResponse()
	if err := st.Send(nil); err != nil {
		t.Fatal(err)
	}
	timer := <-timers // the stream's, started when it opened
	if armed, log := timer.state(); !armed {
		t.Fatalf("a stream waiting for its first request: idle timer not running (%s)", log)
	}
	for i, req := range []*botarenav1.StepStreamRequest{
		{PoolId: id, Reset_: true},
		{Actions: make([]byte, 4*2)},
		{Actions: make([]byte, 4*2)},
	} {
		if err := st.Send(req); err != nil {
			t.Fatal(err)
		}
		if _, err := st.Receive(); err != nil {
			t.Fatal(err)
		}
		// The handler restarts the timer before it sends the response.
		armed, log := timer.state()
		if want := strings.TrimSpace("run" + strings.Repeat(" stop run", i+1)); !armed || log != want {
			t.Fatalf("after response %d: timer armed %v, %q; want armed, %q (stopped for each step, run again for the response)", i, armed, log, want)
		}
	}
	if !timer.fire() {
		t.Fatal("the timer was not running")
	}
	_, err = st.Receive()
	if connect.CodeOf(err) != connect.CodeDeadlineExceeded || !strings.Contains(err.Error(), "--stream-idle-timeout") {
		t.Fatalf("after the idle timeout: %v, want DeadlineExceeded naming --stream-idle-timeout", err)
	}
	if _, err := c.Reset(ctx, &botarenav1.ResetRequest{PoolId: id}); err != nil {
		t.Errorf("the pool after its stream timed out: %v", err)
	}
}
