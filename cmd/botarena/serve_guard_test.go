package main

import (
	"io"
	"maps"
	"net/http"
	"strings"
	"testing"
	"time"

	botarenav1 "github.com/botarena/botarena/rpc/gen/botarena/v1"
)

// refused reports whether an answer is the guard's refusal.
func refused(code int) bool {
	return code == http.StatusForbidden || code == http.StatusUnsupportedMediaType
}

// TestServeRefusesOtherSites: serve answers, without a token, only
// requests for its own host names (a page that rebinds its name to
// 127.0.0.1 gets nothing), and on every server refuses state-changing
// requests of other sites' pages and form or text bodies (which such pages
// send unasked) but on the UPE routes, whose clients post forms.
func TestServeRefusesOtherSites(t *testing.T) {
	t.Setenv(authTokenEnv, "")
	open, _, _ := startServe(t)
	guarded, _, _ := startServe(t, "--auth-token", edgeToken)
	const listGames = "/botarena.v1.EnvService/ListGames"
	connectJSON := map[string]string{"Content-Type": "application/json", "Connect-Protocol-Version": "1"}
	crossSite := maps.Clone(connectJSON)
	crossSite["Origin"] = "http://evil.example"
	for _, tc := range []struct {
		name         string
		token        bool
		method, path string
		host         string // "" for the address served
		header       map[string]string
		body         string
		want         int // 0: not refused
	}{
		{"rebound_host_call", false, "POST", listGames, "evil.example", connectJSON, "{}", http.StatusForbidden},
		{"rebound_host_with_port", false, "POST", listGames, "evil.example:50051", connectJSON, "{}", http.StatusForbidden},
		{"rebound_host_viewer", false, "GET", "/api/catalog", "evil.example", nil, "", http.StatusForbidden},
		{"rebound_host_metrics", false, "GET", "/metrics", "evil.example", nil, "", http.StatusForbidden},
		{"localhost", false, "POST", listGames, "localhost:50051", connectJSON, "{}", 0},
		{"loopback_address", false, "POST", listGames, "", connectJSON, "{}", 0},
		{"ipv6_loopback", false, "GET", "/api/catalog", "[::1]:50051", nil, "", 0},
		{"cross_site_text_plain_match", false, "POST", "/api/matches", "", map[string]string{"Content-Type": "text/plain", "Origin": "http://evil.example"}, `{"game":"battlebots"}`, http.StatusForbidden},
		{"cross_site_fetch_metadata", false, "POST", "/api/matches", "", map[string]string{"Content-Type": "application/json", "Sec-Fetch-Site": "cross-site"}, `{"game":"battlebots"}`, http.StatusForbidden},
		{"text_plain_match", false, "POST", "/api/matches", "", map[string]string{"Content-Type": "text/plain"}, `{"game":"battlebots"}`, http.StatusUnsupportedMediaType},
		{"form_replay", false, "POST", "/api/replays", "", map[string]string{"Content-Type": "application/x-www-form-urlencoded"}, `path=x`, http.StatusUnsupportedMediaType},
		{"cross_site_call", false, "POST", "/botarena.v1.EnvService/CreatePool", "", crossSite, `{"game":"bomberman","numEnvs":1}`, http.StatusForbidden},
		{"viewer_same_origin", false, "POST", "/api/matches", "", map[string]string{"Content-Type": "application/json", "Sec-Fetch-Site": "same-origin"}, `{}`, 0},
		{"upe_client_form", false, "POST", "/api/games/search", "", map[string]string{"Content-Type": "application/x-www-form-urlencoded"}, "devkey=", 0},
		{"upe_cross_site_form", false, "POST", "/api/games/search", "", map[string]string{"Content-Type": "application/x-www-form-urlencoded", "Origin": "http://evil.example", "Sec-Fetch-Site": "cross-site"}, "devkey=", http.StatusForbidden},
		{"token_any_host", true, "POST", listGames, "botarena.example", connectJSON, "{}", 0},
		{"token_cross_site_call", true, "POST", listGames, "", crossSite, "{}", http.StatusForbidden},
		{"token_text_plain", true, "POST", "/api/matches", "", map[string]string{"Content-Type": "text/plain"}, `{"game":"battlebots"}`, http.StatusUnsupportedMediaType},
	} {
		t.Run(tc.name, func(t *testing.T) {
			addr := open
			if tc.token {
				addr = guarded
			}
			req, err := http.NewRequest(tc.method, "http://"+addr+tc.path, strings.NewReader(tc.body))
			if err != nil {
				t.Fatal(err)
			}
			if tc.host != "" {
				req.Host = tc.host
			}
			for k, v := range tc.header {
				req.Header.Set(k, v)
			}
			if tc.token {
				req.Header.Set("Authorization", "Bearer "+edgeToken)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			switch {
			case tc.want == 0 && refused(resp.StatusCode):
				t.Errorf("%s %s (Host %q): refused: %s %s", tc.method, tc.path, tc.host, resp.Status, b)
			case tc.want != 0 && resp.StatusCode != tc.want:
				t.Errorf("%s %s (Host %q): %s %.200s; want %d", tc.method, tc.path, tc.host, resp.Status, b, tc.want)
			}
		})
	}
}

// TestServeAllowedHosts: --allowed-hosts names the host names a server
// without a token answers beyond loopback.
func TestServeAllowedHosts(t *testing.T) {
	t.Setenv(authTokenEnv, "")
	addr, _, _ := startServe(t, "--allowed-hosts", "botarena.internal,arena.lan")
	for _, tc := range []struct {
		host string
		want int
	}{
		{"botarena.internal:50051", http.StatusOK},
		{"ARENA.LAN", http.StatusOK},
		{"evil.example", http.StatusForbidden},
	} {
		req, _ := http.NewRequest("GET", "http://"+addr+"/api/catalog", nil)
		req.Host = tc.host
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != tc.want {
			t.Errorf("Host %q: %s, want %d", tc.host, resp.Status, tc.want)
		}
	}
}

// TestServeStreamIdleTimeout: --stream-idle-timeout ends a StepStream
// that waits for its client with deadline_exceeded naming the flag.
func TestServeStreamIdleTimeout(t *testing.T) {
	addr, _, _ := startServe(t, "--stream-idle-timeout", "20ms")
	c := dialServe(t, addr)
	p := createPool(t, c, &botarenav1.CreatePoolRequest{Game: "testgame", NumEnvs: 2})
	st, err := p.Stream(t.Context()) // opened: its headers are sent
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	// The server counts the stream, and, once it has timed out, no more.
	metric := func() string {
		resp, err := http.Get("http://" + addr + "/metrics")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return string(b)
	}
	deadline := time.Now().Add(time.Minute)
	for !strings.Contains(metric(), "botarena_rpc_errors_total{code=\"deadline_exceeded\",procedure=\"/botarena.v1.EnvService/StepStream\"} 1") {
		if time.Now().After(deadline) {
			t.Fatalf("the stream did not time out:\n%s", metric())
		}
		time.Sleep(5 * time.Millisecond)
	}
	_, err = st.Reset()
	wantErrCode(t, err, "deadline_exceeded")
	if err == nil || !strings.Contains(err.Error(), "--stream-idle-timeout") {
		t.Errorf("the error does not name the flag: %v", err)
	}
}
