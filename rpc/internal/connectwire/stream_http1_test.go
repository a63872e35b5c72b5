package connectwire

import (
	"bytes"
	"fmt"
	"net/http"
	"sync"
	"testing"
)

// http1Client returns an HTTP client that speaks HTTP/1.1 only, as
// package client's streams' client does.
func http1Client(t *testing.T) *http.Client {
	t.Helper()
	var p http.Protocols
	p.SetHTTP1(true)
	tr := &http.Transport{Protocols: &p}
	t.Cleanup(tr.CloseIdleConnections)
	return &http.Client{Transport: tr}
}

// echoServer serves a stream that answers every request envelope with its
// message, over HTTP/2 and over HTTP/1.1 in full duplex, or answers an
// HTTP/1.1 request 505 without reading it (refuse1, as connect-go does).
// It returns its base URL and the HTTP major versions of the requests it
// got, in order.
func echoServer(t *testing.T, refuse1 bool) (string, func() []int) {
	t.Helper()
	var mu sync.Mutex
	var protos []int
	base := serveH2C(t, func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		protos = append(protos, r.ProtoMajor)
		mu.Unlock()
		if r.ProtoMajor == 1 {
			if refuse1 {
				w.Header().Set("Connection", "close")
				w.WriteHeader(http.StatusHTTPVersionNotSupported)
				return
			}
			if err := http.NewResponseController(w).EnableFullDuplex(); err != nil {
				t.Error(err)
				return
			}
		}
		w.Header().Set("Content-Type", contentTypeStreamProto)
		w.WriteHeader(http.StatusOK)
		for {
			_, msg, err := readEnvelope(r.Body)
			if err != nil {
				w.Write(endStream(`{}`))
				return
			}
			w.Write(envelope(0, msg))
			http.NewResponseController(w).Flush()
		}
	})
	return base, func() []int {
		mu.Lock()
		defer mu.Unlock()
		return append([]int(nil), protos...)
	}
}

// TestStreamOverHTTP1 checks that a stream of a caller with an HTTP/1.1
// client goes over HTTP/1.1 where the server serves it in full duplex, and
// over HTTP/2 after a 505, the messages sent before the 505 sent again
// first, in order, whether the client waits for each answer (lock_step)
// or sends several before the first answer (ahead).
func TestStreamOverHTTP1(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		refuse1 bool
		ahead   int // messages sent before the first Receive
		protos  []int
	}{
		{"served/lock_step", false, 1, []int{1}},
		{"served/ahead", false, 3, []int{1}},
		{"refused_505/lock_step", true, 1, []int{1, 2}},
		{"refused_505/ahead", true, 3, []int{1, 2}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			base, protos := echoServer(t, tc.refuse1)
			c := newStreamCaller(t, h2cClient(t), base, 0)
			c.StreamOverHTTP1(http1Client(t))
			s, err := c.Stream(t.Context(), procedure)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			msg := func(i int) []byte { return fmt.Appendf(nil, "message %d", i) }
			const n = 6
			var buf []byte
			sent := 0
			for got := 0; got < n; got++ {
				for sent < n && sent < got+tc.ahead {
					if err := s.Send(msg(sent)); err != nil {
						t.Fatalf("Send %d: %v", sent, err)
					}
					sent++
				}
				if buf, err = s.Receive(buf); err != nil {
					t.Fatalf("Receive %d: %v", got, err)
				}
				if !bytes.Equal(buf, msg(got)) {
					t.Fatalf("Receive %d = %q, want %q", got, buf, msg(got))
				}
			}
			if err := s.CloseSend(); err != nil {
				t.Fatal(err)
			}
			if _, err := s.Receive(buf); err == nil {
				t.Fatal("Receive after CloseSend: no error, want the end of the stream")
			}
			if got := protos(); fmt.Sprint(got) != fmt.Sprint(tc.protos) {
				t.Errorf("requests' HTTP versions %v, want %v", got, tc.protos)
			}
		})
	}
}
