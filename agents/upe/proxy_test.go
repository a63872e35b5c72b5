package upe

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/botarena/botarena/env/portalbomber"
)

// proxied returns a client that sends every request through the HTTP
// proxy at addr, as a UPE client with a hard-coded server URL does under
// HTTP_PROXY=http://addr: the request line carries the absolute URL
// (POST http://aicomp.io/api/games/practice HTTP/1.1).
func proxied(addr string) *http.Client {
	return &http.Client{Transport: &http.Transport{Proxy: http.ProxyURL(&url.URL{Scheme: "http", Host: addr})}}
}

// The original's hard-coded server (the Go and C++ samples'
// http://aicomp.io/api/) reached through botarena as an HTTP proxy: the
// routes are served whatever host the absolute request URI names, both
// as `botarena serve` mounts them (hosted games) and as `botarena play
// --listen` serves them (seats).
func TestThroughProxy(t *testing.T) {
	t.Parallel()
	t.Run("hosted", func(t *testing.T) {
		s, err := NewHandler(Options{Timeout: 5 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		mux := http.NewServeMux()
		mux.Handle("/api/games/", s)
		var mu sync.Mutex
		var seen []string
		ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			seen = append(seen, r.Host+" "+r.RequestURI)
			mu.Unlock()
			mux.ServeHTTP(w, r)
		}))
		t.Cleanup(func() { s.Close(); ts.Close() })
		client := proxied(ts.Listener.Addr().String())
		st := decode(t, postVia(t, t.Context(), client, "http://aicomp.io/api/games/practice", map[string]string{"devkey": key}))
		next := decode(t, postVia(t, t.Context(), client, "http://aicomp.io/api/games/submit/"+st.GameID,
			map[string]string{"devkey": key, "playerID": st.PlayerID, "move": "b"}))
		if next.GameID != st.GameID || next.MoveNumber <= st.MoveNumber {
			t.Fatalf("after a move: %+v", next)
		}
		mu.Lock()
		defer mu.Unlock()
		for _, r := range seen {
			if !strings.HasPrefix(r, "aicomp.io http://aicomp.io/api/games/") {
				t.Errorf("request %q: want the absolute form a proxy gets", r)
			}
		}
	})
	t.Run("listen", func(t *testing.T) {
		srv, seat := listenSeat(t, 5*time.Second)
		g, _ := portalbomber.New(portalbomber.DefaultConfig())
		g.Reset(3)
		seat.Reset(g, 0, 1)
		client := proxied(srv.Addr())
		done := make(chan struct{})
		go func() {
			defer close(done)
			st := decode(t, postVia(t, t.Context(), client, "http://aicomp.io/api/games/search", map[string]string{"devkey": key}))
			if st.GameID != g.GameID() {
				t.Errorf("seated in game %q, want %q", st.GameID, g.GameID())
				return
			}
			// Held until the seat's next turn; Close answers it.
			body, _ := json.Marshal(map[string]string{"devkey": key, "playerID": st.PlayerID, "move": "tr"})
			if resp, err := client.Post("http://aicomp.io/api/games/submit/"+st.GameID, "application/json", bytes.NewReader(body)); err == nil {
				resp.Body.Close()
			}
		}()
		want, _ := g.ParseCommand(0, []byte("tr"))
		if a := seat.Act(g, 0); a != want {
			t.Errorf("the seat played %d, want %d (tr)", a, want)
		}
		seat.Close()
		srv.Close()
		<-done
	})
}
