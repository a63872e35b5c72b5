package server_test

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/botarena/botarena/rpc/server"
)

// guardRequest is a request for a Guard test: method, path, Host, headers
// and the address its connection reached.
type guardRequest struct {
	method, path, host string
	header             map[string]string
	local              string // the connection's local address, "" for none
}

func (g guardRequest) serve(t *testing.T, h http.Handler) *httptest.ResponseRecorder {
	t.Helper()
	r := httptest.NewRequest(g.method, "http://x"+g.path, strings.NewReader("{}"))
	r.Host = g.host
	for k, v := range g.header {
		r.Header.Set(k, v)
	}
	if g.local != "" {
		addr, err := net.ResolveTCPAddr("tcp", g.local)
		if err != nil {
			t.Fatal(err)
		}
		r = r.WithContext(context.WithValue(r.Context(), http.LocalAddrContextKey, addr))
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

var connectJSON = map[string]string{"Content-Type": "application/json", "Connect-Protocol-Version": "1"}

// TestGuardHostWithoutToken: a server without a token answers only
// requests whose Host names it (loopback names and addresses, the address
// the connection reached, the allowed hosts), so that a page that rebinds
// its own name to 127.0.0.1 reads nothing; with a token any Host passes.
func TestGuardHostWithoutToken(t *testing.T) {
	t.Parallel()
	ok := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusTeapot) })
	opts := server.GuardOptions{Hosts: []string{"botarena.internal", "10.1.2.3"}}
	for _, tc := range []struct {
		name  string
		token bool
		req   guardRequest
		want  int
	}{
		{"localhost", false, guardRequest{"GET", "/", "localhost:50051", nil, ""}, http.StatusTeapot},
		{"localhost_upper_case_dot", false, guardRequest{"GET", "/", "LOCALHOST.:50051", nil, ""}, http.StatusTeapot},
		{"sub_localhost", false, guardRequest{"GET", "/", "viewer.localhost:50051", nil, ""}, http.StatusTeapot},
		{"ipv4_loopback", false, guardRequest{"GET", "/", "127.0.0.1:50051", nil, ""}, http.StatusTeapot},
		{"ipv4_loopback_no_port", false, guardRequest{"GET", "/metrics", "127.0.0.1", nil, ""}, http.StatusTeapot},
		{"ipv6_loopback", false, guardRequest{"GET", "/", "[::1]:50051", nil, ""}, http.StatusTeapot},
		{"empty_host", false, guardRequest{"GET", "/", "", nil, ""}, http.StatusTeapot},
		{"unspecified_address", false, guardRequest{"GET", "/", "0.0.0.0:50051", nil, "127.0.0.1:50051"}, http.StatusTeapot},
		{"address_listened_on", false, guardRequest{"GET", "/", "192.168.7.9:50051", nil, "192.168.7.9:50051"}, http.StatusTeapot},
		{"allowed_name", false, guardRequest{"GET", "/", "Botarena.Internal:50051", nil, ""}, http.StatusTeapot},
		{"allowed_address", false, guardRequest{"GET", "/", "10.1.2.3", nil, ""}, http.StatusTeapot},
		{"rebound_name", false, guardRequest{"GET", "/", "evil.example:50051", nil, "127.0.0.1:50051"}, http.StatusForbidden},
		{"rebound_name_no_port", false, guardRequest{"GET", "/api/catalog", "evil.example", nil, ""}, http.StatusForbidden},
		{"localhost_lookalike", false, guardRequest{"GET", "/", "localhost.evil.example", nil, ""}, http.StatusForbidden},
		{"loopback_lookalike", false, guardRequest{"GET", "/", "127.0.0.1.nip.io:50051", nil, ""}, http.StatusForbidden},
		{"other_address", false, guardRequest{"GET", "/", "192.168.7.10:50051", nil, "192.168.7.9:50051"}, http.StatusForbidden},
		{"rebound_name_connect_call", false, guardRequest{"POST", "/botarena.v1.EnvService/ListGames", "evil.example", connectJSON, ""}, http.StatusForbidden},
		{"rebound_name_with_token_server", true, guardRequest{"POST", "/botarena.v1.EnvService/ListGames", "evil.example", connectJSON, ""}, http.StatusTeapot},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := opts
			o.Token = tc.token
			w := tc.req.serve(t, server.Guard(ok, o))
			if w.Code != tc.want {
				t.Errorf("Host %q: %d %s, want %d", tc.req.host, w.Code, w.Body, tc.want)
			}
			if tc.want == http.StatusForbidden && !strings.Contains(w.Body.String(), "--allowed-hosts") {
				t.Errorf("the refusal does not say what to do: %s", w.Body)
			}
		})
	}
}

// TestGuardCrossOriginRequests: on every server, a request that may change
// state from a browser page of another origin is refused, and so is a form
// or text body (which pages send unasked) outside the form routes; safe
// methods, same-origin pages and clients that are not browsers pass, and
// the UPE routes take forms from clients that are not browsers.
func TestGuardCrossOriginRequests(t *testing.T) {
	t.Parallel()
	ok := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusTeapot) })
	const host = "127.0.0.1:50051"
	hdr := func(kv ...string) map[string]string {
		m := map[string]string{}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return m
	}
	for _, tc := range []struct {
		name string
		req  guardRequest
		want int
	}{
		{"connect_call", guardRequest{"POST", "/botarena.v1.EnvService/CreatePool", host, connectJSON, ""}, http.StatusTeapot},
		{"connect_proto", guardRequest{"POST", "/botarena.v1.EnvService/Step", host, hdr("Content-Type", "application/proto"), ""}, http.StatusTeapot},
		{"grpc", guardRequest{"POST", "/botarena.v1.EnvService/Step", host, hdr("Content-Type", "application/grpc+proto"), ""}, http.StatusTeapot},
		{"grpc_web", guardRequest{"POST", "/botarena.v1.EnvService/Step", host, hdr("Content-Type", "application/grpc-web+proto"), ""}, http.StatusTeapot},
		{"connect_stream", guardRequest{"POST", "/botarena.v1.EnvService/StepStream", host, hdr("Content-Type", "application/connect+proto"), ""}, http.StatusTeapot},
		{"connect_get", guardRequest{"GET", "/botarena.v1.EnvService/ListGames?encoding=json&message={}", host, hdr("Origin", "http://evil.example", "Sec-Fetch-Site", "cross-site"), ""}, http.StatusTeapot},
		{"viewer_same_origin", guardRequest{"POST", "/api/matches", host, hdr("Content-Type", "application/json", "Origin", "http://"+host, "Sec-Fetch-Site", "same-origin"), ""}, http.StatusTeapot},
		{"viewer_old_browser_same_origin", guardRequest{"POST", "/api/matches", host, hdr("Content-Type", "application/json", "Origin", "http://"+host), ""}, http.StatusTeapot},
		{"viewer_upload", guardRequest{"POST", "/api/replays/upload", host, hdr("Content-Type", "application/x-ndjson", "Sec-Fetch-Site", "same-origin"), ""}, http.StatusTeapot},
		{"cross_site_text_plain", guardRequest{"POST", "/api/matches", host, hdr("Content-Type", "text/plain;charset=UTF-8", "Origin", "http://evil.example", "Sec-Fetch-Site", "cross-site"), ""}, http.StatusForbidden},
		{"cross_site_json", guardRequest{"POST", "/api/matches", host, hdr("Content-Type", "application/json", "Sec-Fetch-Site", "cross-site"), ""}, http.StatusForbidden},
		{"same_site_other_port", guardRequest{"POST", "/api/matches", host, hdr("Content-Type", "application/json", "Origin", "http://127.0.0.1:8080", "Sec-Fetch-Site", "same-site"), ""}, http.StatusForbidden},
		{"old_browser_other_origin", guardRequest{"POST", "/botarena.v1.EnvService/CreatePool", host, hdr("Content-Type", "application/json", "Connect-Protocol-Version", "1", "Origin", "http://evil.example"), ""}, http.StatusForbidden},
		{"null_origin", guardRequest{"POST", "/api/matches", host, hdr("Content-Type", "application/json", "Origin", "null"), ""}, http.StatusForbidden},
		{"text_plain_without_origin", guardRequest{"POST", "/api/matches", host, hdr("Content-Type", "text/plain"), ""}, http.StatusUnsupportedMediaType},
		{"form_without_origin", guardRequest{"POST", "/api/replays", host, hdr("Content-Type", "application/x-www-form-urlencoded"), ""}, http.StatusUnsupportedMediaType},
		{"multipart_without_origin", guardRequest{"POST", "/api/replays/upload", host, hdr("Content-Type", "multipart/form-data; boundary=x"), ""}, http.StatusUnsupportedMediaType},
		{"no_content_type", guardRequest{"POST", "/botarena.v1.EnvService/ClosePool", host, nil, ""}, http.StatusUnsupportedMediaType},
		{"upe_form_client", guardRequest{"POST", "/api/games/submit/0a1b", host, hdr("Content-Type", "application/x-www-form-urlencoded"), ""}, http.StatusTeapot},
		{"upe_json_client", guardRequest{"POST", "/api/games/search", host, hdr("Content-Type", "application/json"), ""}, http.StatusTeapot},
		{"upe_cross_site_form", guardRequest{"POST", "/api/games/submit/0a1b", host, hdr("Content-Type", "application/x-www-form-urlencoded", "Origin", "http://evil.example", "Sec-Fetch-Site", "cross-site"), ""}, http.StatusForbidden},
		{"upe_old_browser_cross_site_text", guardRequest{"POST", "/api/games/practice", host, hdr("Content-Type", "text/plain", "Origin", "http://evil.example"), ""}, http.StatusForbidden},
		{"cross_site_get", guardRequest{"GET", "/api/catalog", host, hdr("Sec-Fetch-Site", "cross-site"), ""}, http.StatusTeapot},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, token := range []bool{false, true} {
				g := server.Guard(ok, server.GuardOptions{Token: token, FormPaths: []string{"/api/games/"}})
				if w := tc.req.serve(t, g); w.Code != tc.want {
					t.Errorf("token %v: %d %s, want %d", token, w.Code, w.Body, tc.want)
				}
			}
		})
	}
}

// TestGuardRefusesConnectCallsInTheirProtocol: a refused Connect call gets
// PermissionDenied as Connect writes it, with the reason.
func TestGuardRefusesConnectCallsInTheirProtocol(t *testing.T) {
	t.Parallel()
	g := server.Guard(http.NotFoundHandler(), server.GuardOptions{})
	w := guardRequest{"POST", "/botarena.v1.EnvService/ListGames", "evil.example:50051", connectJSON, ""}.serve(t, g)
	if w.Code != http.StatusForbidden || !strings.Contains(w.Body.String(), `"code":"permission_denied"`) || !strings.Contains(w.Body.String(), `evil.example`) {
		t.Errorf("%d %s; want 403 with a Connect permission_denied naming the host", w.Code, w.Body)
	}
}

// TestTokenRedirectStaysOnTheServer: the browser path (GET ?token=TOKEN)
// redirects only to a path of this server: a path beginning with "//"
// (another host, to a browser) loses its extra slashes.
func TestTokenRedirectStaysOnTheServer(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(server.RequireToken(http.NotFoundHandler(), "s3cret"))
	defer srv.Close()
	noFollow := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	for _, tc := range []struct {
		name, path, query, want string
	}{
		{"root", "/", "token=s3cret", "/"},
		{"keeps_the_rest_of_the_query", "/viewer/", "game=battlebots&token=s3cret", "/viewer/?game=battlebots"},
		{"protocol_relative", "//evil.example/", "token=s3cret", "/evil.example/"},
		{"protocol_relative_path", "//evil.example/phish", "x=1&token=s3cret", "/evil.example/phish?x=1"},
		{"three_slashes", "///evil.example", "token=s3cret", "/evil.example"},
		{"slash_backslash", "/\\evil.example/", "token=s3cret", "/%5Cevil.example/"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req, err := http.NewRequest("GET", srv.URL, nil)
			if err != nil {
				t.Fatal(err)
			}
			req.URL.Path, req.URL.RawQuery = tc.path, tc.query // sent as they are
			resp, err := noFollow.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			loc := resp.Header.Get("Location")
			if resp.StatusCode != http.StatusSeeOther || loc != tc.want {
				t.Fatalf("GET %s?%s: %d, Location %q; want 303 to %q", tc.path, tc.query, resp.StatusCode, loc, tc.want)
			}
			if strings.HasPrefix(loc, "//") || strings.HasPrefix(loc, "/\\") || strings.Contains(loc, "://") {
				t.Errorf("Location %q leaves the server", loc)
			}
		})
	}
}
