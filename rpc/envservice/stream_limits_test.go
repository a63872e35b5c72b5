package envservice_test

import (
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"connectrpc.com/connect"

	"github.com/botarena/botarena/rpc/client"
	"github.com/botarena/botarena/rpc/envservice"
	botarenav1 "github.com/botarena/botarena/rpc/gen/botarena/v1"
	"github.com/botarena/botarena/rpc/gen/botarena/v1/botarenav1connect"
	"github.com/botarena/botarena/rpc/internal/rpctest"
	"github.com/botarena/botarena/rpc/server"
)

// rawStream is a StepStream opened with its headers only: the server has
// admitted it, or refused it, without a request.
type rawStream = *connect.BidiStreamForClientSimple[botarenav1.StepStreamRequest, botarenav1.StepStreamResponse]

// tcpServer serves [rpctest.Compose] of opts over loopback TCP (h2c) and
// returns the stack and its address; setup changes the http.Server first.
func tcpServer(t *testing.T, setup func(*http.Server), opts ...any) (*rpctest.Stack, string) {
	t.Helper()
	s := rpctest.Compose(t, opts...)
	return s, s.ServeTCP(t, setup, 0)
}

// h2cFrom returns an h2c client whose connection (one) comes from ip, a
// loopback address (127.0.0.0/8), the server's client key.
func h2cFrom(t *testing.T, ip string) *http.Client {
	t.Helper()
	var p http.Protocols
	p.SetUnencryptedHTTP2(true)
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}}
	tr := &http.Transport{Protocols: &p, DialContext: d.DialContext}
	t.Cleanup(tr.CloseIdleConnections)
	return &http.Client{Transport: tr}
}

// openStream opens a StepStream on hc without sending a request.
func openStream(t *testing.T, hc *http.Client, addr string) rawStream {
	t.Helper()
	st, err := botarenav1connect.NewEnvServiceClient(hc, "http://"+addr).StepStream(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Send(nil); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		st.CloseRequest()
		st.CloseResponse()
	})
	return st
}

// waitStreams waits until the host has n streams open.
func waitStreams(t *testing.T, h *server.Host, n int) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for h.StreamsOpen() != n {
		if time.Now().After(deadline) {
			t.Fatalf("%d streams open, want %d", h.StreamsOpen(), n)
		}
		time.Sleep(time.Millisecond)
	}
}

// TestStepStreamLimits: each open StepStream, before its first request,
// counts against its connection's and its client's stream limits and is
// charged to the memory budget; a stream beyond one is ResourceExhausted
// naming the limit, and a closed stream gives its place and bytes back.
func TestStepStreamLimits(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		opts []any
		// open are the clients (loopback IP addresses, each its own
		// connection, or "" for one connection the test shares) of the
		// streams admitted, then refused the client of the stream refused.
		open    []string
		refused string
		want    string
		other   string // a client whose stream is admitted after the refusal
	}{
		{"per_connection", []any{server.WithMaxConnStreams(2)}, []string{"", ""}, "", "--max-conn-streams 2", ""},
		{"per_client", []any{server.WithMaxClientStreams(2)}, []string{"127.0.0.2", "127.0.0.2"}, "127.0.0.2", "--max-client-streams 2", "127.0.0.3"},
		{"memory_budget", []any{server.WithMaxMemory(2*server.StreamBytes + server.StreamBytes/2)}, []string{"127.0.0.2", "127.0.0.3"}, "127.0.0.4", "--max-memory", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s, addr := tcpServer(t, nil, tc.opts...)
			shared := h2cFrom(t, "127.0.0.1")
			client := func(ip string) *http.Client {
				if ip == "" {
					return shared
				}
				return h2cFrom(t, ip)
			}
			var streams []rawStream
			for i, ip := range tc.open {
				streams = append(streams, openStream(t, client(ip), addr))
				waitStreams(t, s.Host, i+1)
			}
			rpctest.WantInUse(t, s.Host, int64(len(tc.open))*server.StreamBytes)
			_, err := openStream(t, client(tc.refused), addr).Receive()
			rpctest.WantCode(t, err, connect.CodeResourceExhausted, tc.want)
			if tc.other != "" {
				openStream(t, client(tc.other), addr)
				waitStreams(t, s.Host, len(tc.open)+1)
			}
			// Closing streams gives their places and bytes back.
			for _, st := range streams {
				st.CloseRequest()
				st.Receive()
			}
			want := 0
			if tc.other != "" {
				want = 1
			}
			waitStreams(t, s.Host, want)
			rpctest.WantInUse(t, s.Host, int64(want)*server.StreamBytes)
		})
	}
}

// TestStepStreamIdleTimeout: a StepStream that waits for its client's
// first request longer than the stream idle timeout ends with
// DeadlineExceeded naming the flag, in the client's protocol, and gives
// its place and bytes back; its pool stays open. (That it waits as long
// after each response, and never while it steps, is
// TestStreamIdleTimerRunsOnlyWhileWaiting.)
func TestStepStreamIdleTimeout(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		opts []connect.ClientOption
	}{
		{"connect", nil},
		{"grpc", []connect.ClientOption{connect.WithGRPC()}},
		{"grpc_web", []connect.ClientOption{connect.WithGRPCWeb()}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s, addr := tcpServer(t, nil, envservice.WithStreamIdleTimeout(20*time.Millisecond))
			c, err := client.Dial(addr)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			p := rpctest.CreatePool(t, c, &botarenav1.CreatePoolRequest{Game: "bomberman/2p", NumEnvs: 1})
			poolBytes, _ := s.MemoryInUse()
			st, err := botarenav1connect.NewEnvServiceClient(h2cFrom(t, "127.0.0.1"), "http://"+addr, tc.opts...).StepStream(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			defer st.CloseResponse()
			if err := st.Send(nil); err != nil {
				t.Fatal(err)
			}
			_, err = st.Receive() // sends nothing: waits for the timeout
			rpctest.WantCode(t, err, connect.CodeDeadlineExceeded, "--stream-idle-timeout", "20ms")
			waitStreams(t, s.Host, 0)
			rpctest.WantInUse(t, s.Host, poolBytes)
			if _, err := p.Reset(t.Context()); err != nil {
				t.Errorf("the pool after its stream timed out: %v", err)
			}
		})
	}
}

// TestStreamsOutliveTheBodyDeadline: the deadline server.NewHTTPServer
// gives request bodies (IdleTimeout) does not end a StepStream, which
// waits for its client under its own idle timeout.
func TestStreamsOutliveTheBodyDeadline(t *testing.T) {
	t.Parallel()
	idle := 20 * time.Millisecond
	_, addr := tcpServer(t, func(hs *http.Server) { hs.IdleTimeout = idle })
	c, err := client.Dial(addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	p := rpctest.CreatePool(t, c, &botarenav1.CreatePoolRequest{Game: "bomberman/2p", NumEnvs: 1})
	// The connection, idle for IdleTimeout, may be closing as the stream
	// opens (GOAWAY); once a stream is open it stays.
	var st *client.Stream
	for try := 0; ; try++ {
		if st, err = p.Stream(t.Context()); err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		if _, err = st.Reset(); err == nil {
			break
		}
		if try == 10 || !strings.Contains(err.Error(), "GOAWAY") {
			t.Fatal(err)
		}
	}
	time.Sleep(10 * idle) // past the body deadline; a slower machine only waits longer
	if _, err := st.Step(make([]int32, p.Rows())); err != nil {
		t.Fatalf("a step after the body deadline: %v", err)
	}
}
