package connectwire

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"

	"connectrpc.com/connect"
)

// TestContextRules checks, for unary calls and streams, the timeout header
// and the codes of calls whose context ends before the response and while
// reading it (and, for a stream, of Send afterwards), and of calls that
// reach no server.
func TestContextRules(t *testing.T) {
	t.Parallel()
	for _, stream := range []bool{false, true} {
		kind := map[bool]string{false: "unary", true: "stream"}[stream]
		for _, tc := range []struct {
			name string
			// partial makes the server send the headers and part of the
			// body before waiting.
			partial bool
			// deadline gives the context a deadline; otherwise it is
			// canceled once the server has the request.
			deadline bool
			code     connect.Code
		}{
			{"deadline_before_response_is_deadline_exceeded", false, true, connect.CodeDeadlineExceeded},
			{"deadline_while_reading_is_deadline_exceeded", true, true, connect.CodeDeadlineExceeded},
			{"cancel_before_response_is_canceled", false, false, connect.CodeCanceled},
			{"cancel_while_reading_is_canceled", true, false, connect.CodeCanceled},
		} {
			t.Run(kind+"/"+tc.name, func(t *testing.T) {
				t.Parallel()
				timeouts := make(chan string, 1)
				handler := func(w http.ResponseWriter, r *http.Request) {
					// Read the request, so that the server sees the client
					// go (and ends r's context).
					if stream {
						readEnvelope(r.Body)
					} else {
						io.Copy(io.Discard, r.Body)
					}
					if tc.partial {
						if stream {
							w.Header().Set("Content-Type", contentTypeStreamProto)
							w.Write(envelope(0, []byte("message"))[:7])
						} else {
							w.Header().Set("Content-Type", contentTypeProto)
							w.Write([]byte("part"))
						}
						http.NewResponseController(w).Flush()
					}
					timeouts <- r.Header.Get("Connect-Timeout-Ms")
					<-r.Context().Done()
				}
				ctx, cancel := context.WithCancel(t.Context())
				defer cancel()
				const timeout = 300 * time.Millisecond
				if tc.deadline {
					ctx, cancel = context.WithTimeout(ctx, timeout)
					defer cancel()
				} else {
					go func() {
						<-timeouts
						cancel()
					}()
				}
				if stream {
					s, err := newStreamCaller(t, h2cClient(t), serveH2C(t, handler), 0).Stream(ctx, procedure)
					if err != nil {
						t.Fatal(err)
					}
					defer s.Close()
					if err := s.Send(streamRequest); err != nil {
						t.Fatal(err)
					}
					_, err = s.Receive(nil)
					if ce := asConnectError(t, err); ce.Code() != tc.code {
						t.Errorf("code %v (%s), want %v", ce.Code(), ce.Message(), tc.code)
					}
					if ce := asConnectError(t, s.Send(streamRequest)); ce.Code() != tc.code {
						t.Errorf("Send afterwards: code %v (%s), want %v", ce.Code(), ce.Message(), tc.code)
					}
				} else {
					_, err := newCaller(t, serve(t, handler), 0).Call(ctx, procedure, nil, []byte("req"))
					if ce := asConnectError(t, err); ce.Code() != tc.code {
						t.Errorf("code %v (%s), want %v", ce.Code(), ce.Message(), tc.code)
					}
				}
				if !tc.deadline {
					return
				}
				ms, err := strconv.Atoi(<-timeouts)
				if err != nil || ms <= 0 || ms > int(timeout/time.Millisecond) {
					t.Errorf("Connect-Timeout-Ms %d (%v), want 1 to %d", ms, err, timeout/time.Millisecond)
				}
			})
		}
		t.Run(kind+"/unreachable_server_is_unavailable", func(t *testing.T) {
			t.Parallel()
			s := httptest.NewServer(http.NotFoundHandler())
			base := s.URL
			s.Close()
			var err, want error
			if stream {
				_, err = runStream(t.Context(), newStreamCaller(t, h2cClient(t), base, 0))
				_, want = runConnectGo(t.Context(), h2cClient(t), base, 0)
			} else {
				_, err = newCaller(t, base, 0).Call(t.Context(), procedure, nil, nil)
				want = callConnectGo(t.Context(), base, 0)
			}
			if ce := asConnectError(t, err); ce.Code() != connect.CodeUnavailable {
				t.Errorf("code %v (%s), want %v", ce.Code(), ce.Message(), connect.CodeUnavailable)
			}
			if c := connect.CodeOf(want); c != connect.CodeUnavailable {
				t.Errorf("connect-go: code %v", c)
			}
		})
	}
}
