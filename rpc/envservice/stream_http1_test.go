package envservice_test

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"connectrpc.com/connect"
	"google.golang.org/protobuf/proto"

	"github.com/botarena/botarena/rpc/client"
	"github.com/botarena/botarena/rpc/envservice"
	botarenav1 "github.com/botarena/botarena/rpc/gen/botarena/v1"
	"github.com/botarena/botarena/rpc/gen/botarena/v1/botarenav1connect"
	"github.com/botarena/botarena/rpc/internal/rpctest"
	"github.com/botarena/botarena/rpc/server"
)

// h1Stream is a StepStream of the Connect protocol over one HTTP/1.1
// connection, written by hand as the Python client writes it: a chunked
// request body of envelopes, one chunk each, and a chunked response read
// with net/http's reader.
type h1Stream struct {
	t    *testing.T
	conn net.Conn
	br   *bufio.Reader
	resp *http.Response
}

// openH1Stream opens a StepStream to addr over HTTP/1.1 with the request's
// headers (and "Authorization: Bearer token" unless token is "");
// contentType "" means application/connect+proto.
func openH1Stream(t *testing.T, addr, token, contentType string) *h1Stream {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	if contentType == "" {
		contentType = "application/connect+proto"
	}
	head := "POST " + botarenav1connect.EnvServiceStepStreamProcedure + " HTTP/1.1\r\nHost: " + addr +
		"\r\nContent-Type: " + contentType + "\r\nConnect-Protocol-Version: 1\r\nConnect-Accept-Encoding: identity\r\nTransfer-Encoding: chunked\r\n"
	if token != "" {
		head += "Authorization: Bearer " + token + "\r\n"
	}
	if _, err := io.WriteString(conn, head+"\r\n"); err != nil {
		t.Fatal(err)
	}
	return &h1Stream{t: t, conn: conn, br: bufio.NewReader(conn)}
}

// send writes req as one envelope in one chunk.
func (s *h1Stream) send(req *botarenav1.StepStreamRequest) {
	s.t.Helper()
	msg, err := proto.Marshal(req)
	if err != nil {
		s.t.Fatal(err)
	}
	env := binary.BigEndian.AppendUint32([]byte{0}, uint32(len(msg)))
	env = append(env, msg...)
	if _, err := fmt.Fprintf(s.conn, "%x\r\n%s\r\n", len(env), env); err != nil {
		s.t.Fatal(err)
	}
}

// closeSend ends the request body.
func (s *h1Stream) closeSend() {
	s.t.Helper()
	if _, err := io.WriteString(s.conn, "0\r\n\r\n"); err != nil {
		s.t.Fatal(err)
	}
}

// receive reads the next response message, or the end of the stream as an
// error: a *connect.Error of the end-of-stream message's code and message,
// io.EOF for an end without an error, or a protocol failure.
func (s *h1Stream) receive() (*botarenav1.StepStreamResponse, error) {
	if s.resp == nil {
		resp, err := http.ReadResponse(s.br, nil)
		if err != nil {
			return nil, err
		}
		s.resp = resp
		if resp.StatusCode != http.StatusOK {
			body, _ := io.ReadAll(resp.Body)
			return nil, fmt.Errorf("HTTP status %s: %s", resp.Status, body)
		}
		if ct := resp.Header.Get("Content-Type"); ct != "application/connect+proto" {
			return nil, fmt.Errorf("response Content-Type %q", ct)
		}
	}
	var prefix [5]byte
	if _, err := io.ReadFull(s.resp.Body, prefix[:]); err != nil {
		return nil, fmt.Errorf("envelope prefix: %w", err)
	}
	msg := make([]byte, binary.BigEndian.Uint32(prefix[1:]))
	if _, err := io.ReadFull(s.resp.Body, msg); err != nil {
		return nil, fmt.Errorf("envelope: %w", err)
	}
	switch prefix[0] {
	case 0:
		resp := new(botarenav1.StepStreamResponse)
		return resp, proto.Unmarshal(msg, resp)
	case 2:
		var end struct {
			Error *struct {
				Code    connect.Code `json:"code"`
				Message string       `json:"message"`
			} `json:"error"`
		}
		if err := json.Unmarshal(msg, &end); err != nil {
			return nil, fmt.Errorf("end of stream %q: %w", msg, err)
		}
		if rest, _ := io.ReadAll(s.resp.Body); len(rest) > 0 {
			return nil, fmt.Errorf("%d bytes after the end of the stream", len(rest))
		}
		if end.Error == nil {
			return nil, io.EOF
		}
		return nil, connect.NewError(end.Error.Code, errors.New(end.Error.Message))
	}
	return nil, fmt.Errorf("envelope flags %d", prefix[0])
}

// TestStepStreamHTTP1: the Connect StepStream over HTTP/1.1 (full duplex)
// gives the bytes of the same stream over HTTP/2 for the same seed, reset
// after reset, step after step, ends with the same errors, and ends
// cleanly when the client ends its side; the pool goes on.
func TestStepStreamHTTP1(t *testing.T) {
	t.Parallel()
	_, addr := tcpServer(t, nil)
	c := rpctest.Dial(t, addr)
	create := &botarenav1.CreatePoolRequest{Game: "bomberman", NumEnvs: 3, Seed: rpctest.Seed(33), ConfigJson: `{"max_rounds": 6}`}
	p1 := rpctest.CreatePool(t, c, create)
	p2 := rpctest.CreatePool(t, c, create)
	h2, err := c.Raw().StepStream(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	defer h2.CloseResponse()
	h1 := openH1Stream(t, addr, "", "")
	rows := p1.Rows()
	actions := make([]byte, 4*rows)
	for i := range 20 {
		req1 := &botarenav1.StepStreamRequest{Actions: actions}
		req2 := &botarenav1.StepStreamRequest{Actions: actions}
		if i == 0 || i == 12 {
			req1, req2 = &botarenav1.StepStreamRequest{Reset_: true}, &botarenav1.StepStreamRequest{Reset_: true}
		}
		if i == 0 {
			req1.PoolId, req2.PoolId = p1.ID(), p2.ID()
		}
		h1.send(req1)
		got, err := h1.receive()
		if err != nil {
			t.Fatalf("step %d over HTTP/1.1: %v", i, err)
		}
		if err := h2.Send(req2); err != nil {
			t.Fatal(err)
		}
		want, err := h2.Receive()
		if err != nil {
			t.Fatalf("step %d over HTTP/2: %v", i, err)
		}
		if len(got.GetBatch()) == 0 || !proto.Equal(got, want) {
			t.Fatalf("step %d: the HTTP/1.1 response (%d batch bytes) differs from HTTP/2's (%d)", i, len(got.GetBatch()), len(want.GetBatch()))
		}
		for row := range rows {
			binary.LittleEndian.PutUint32(actions[4*row:], uint32((i*7+row*3)%6))
		}
	}
	// A bad request ends the stream with its code, as over HTTP/2.
	h1.send(&botarenav1.StepStreamRequest{Actions: actions[:4]})
	_, err = h1.receive()
	rpctest.WantCode(t, err, connect.CodeInvalidArgument, "actions: got 4 bytes")

	for _, tc := range []struct {
		name string
		req  *botarenav1.StepStreamRequest
		code connect.Code
		want string
	}{
		{"unknown_pool", &botarenav1.StepStreamRequest{PoolId: "p-x", Reset_: true}, connect.CodeNotFound, `pool "p-x"`},
		{"no_pool", &botarenav1.StepStreamRequest{Reset_: true}, connect.CodeInvalidArgument, "must name the pool"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := openH1Stream(t, addr, "", "")
			s.send(tc.req)
			_, err := s.receive()
			rpctest.WantCode(t, err, tc.code, tc.want)
		})
	}
	t.Run("client_ends", func(t *testing.T) {
		s, err := resetH1(t, addr, "", p1)
		if err != nil {
			t.Fatal(err)
		}
		s.closeSend()
		if _, err := s.receive(); !errors.Is(err, io.EOF) {
			t.Fatalf("after the client's end: %v, want the end of the stream", err)
		}
	})
	t.Run("grpc_refused", func(t *testing.T) {
		// gRPC needs HTTP/2: connect-go's answer stays.
		s := openH1Stream(t, addr, "", "application/grpc+proto")
		s.send(&botarenav1.StepStreamRequest{PoolId: p1.ID(), Reset_: true})
		_, err := s.receive()
		if err == nil || !strings.Contains(err.Error(), "505") {
			t.Fatalf("gRPC over HTTP/1.1: %v, want HTTP status 505", err)
		}
	})
	if _, err := p1.Step(t.Context(), make([]int32, rows)); err != nil {
		t.Fatalf("the pool after its HTTP/1.1 streams: %v", err)
	}
}

// TestStepStreamHTTP1Token: over HTTP/1.1 too, a StepStream needs the
// server's token.
func TestStepStreamHTTP1Token(t *testing.T) {
	t.Parallel()
	const token = "s3cret"
	_, addr := tcpServer(t, nil, rpctest.Wrap(func(h http.Handler) http.Handler { return server.RequireToken(h, token) }))
	p := rpctest.CreatePool(t, rpctest.Dial(t, addr, client.WithToken(token)), &botarenav1.CreatePoolRequest{Game: "bomberman/2p", NumEnvs: 1})
	if _, err := resetH1(t, addr, "", p); err == nil || !strings.Contains(err.Error(), "bearer token") {
		t.Fatalf("without the token: %v, want it refused", err)
	}
	if _, err := resetH1(t, addr, "wrong", p); err == nil || !strings.Contains(err.Error(), "bearer token") {
		t.Fatalf("with another token: %v, want it refused", err)
	}
	if _, err := resetH1(t, addr, token, p); err != nil {
		t.Fatalf("with the token: %v", err)
	}
}

// resetH1 opens an HTTP/1.1 StepStream to addr with token and sends it
// the reset of p: the stream and the error of its first response.
func resetH1(t *testing.T, addr, token string, p *client.Pool) (*h1Stream, error) {
	t.Helper()
	s := openH1Stream(t, addr, token, "")
	s.send(&botarenav1.StepStreamRequest{PoolId: p.ID(), Reset_: true})
	_, err := s.receive()
	return s, err
}

// resetH1Pool opens a one-env bomberman/2p pool on addr and an HTTP/1.1
// StepStream that has reset it.
func resetH1Pool(t *testing.T, addr string) (*h1Stream, *client.Pool) {
	t.Helper()
	p := rpctest.CreatePool(t, rpctest.Dial(t, addr), &botarenav1.CreatePoolRequest{Game: "bomberman/2p", NumEnvs: 1})
	st, err := resetH1(t, addr, "", p)
	if err != nil {
		t.Fatal(err)
	}
	return st, p
}

// TestStepStreamHTTP1Ends: an HTTP/1.1 StepStream waiting for its client
// ends with DeadlineExceeded after the stream idle timeout, and one open
// when the server closes with Unavailable, each giving its place back,
// as over HTTP/2: the waiting read of the request body is interrupted
// (an HTTP/1.1 body cannot be closed while it is read).
func TestStepStreamHTTP1Ends(t *testing.T) {
	t.Parallel()
	t.Run("idle", func(t *testing.T) {
		t.Parallel()
		s, addr := tcpServer(t, nil, envservice.WithStreamIdleTimeout(20*time.Millisecond))
		st, p := resetH1Pool(t, addr)
		_, err := st.receive() // sends nothing more: waits for the timeout
		rpctest.WantCode(t, err, connect.CodeDeadlineExceeded, "--stream-idle-timeout", "20ms")
		waitStreams(t, s.Host, 0)
		if _, err := p.Reset(t.Context()); err != nil {
			t.Errorf("the pool after its stream timed out: %v", err)
		}
	})
	t.Run("server_close", func(t *testing.T) {
		t.Parallel()
		s, addr := tcpServer(t, nil)
		st, _ := resetH1Pool(t, addr)
		s.Env.Close()
		_, err := st.receive()
		rpctest.WantCode(t, err, connect.CodeUnavailable, "shutting down")
		waitStreams(t, s.Host, 0)
	})
}
