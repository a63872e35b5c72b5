package server

import (
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"net"
	"net/http"
	"strings"

	"connectrpc.com/connect"
	"connectrpc.com/grpchealth"
)

// This file guards a server with a bearer token ([RequireToken]); the Go
// client sends one with client.WithToken. TLS is set up on the http.Server
// (see [NewHTTPServer]) and, on the client side, with client.WithTLSConfig.

// healthPrefix is the path of the gRPC health service, which [RequireToken]
// leaves open so that Kubernetes gRPC probes, which cannot send a token,
// work. It tells only whether the server is serving.
const healthPrefix = "/" + grpchealth.HealthV1ServiceName + "/"

// RequireToken returns a handler that serves h only to requests carrying
// "Authorization: Bearer TOKEN" (for gRPC clients: the metadata
// `authorization` set to "Bearer TOKEN"), compared in constant time. Every
// path is guarded (EnvService, MatchService, reflection, /metrics, pprof and
// whatever else h serves) except the gRPC health service
// (/grpc.health.v1.Health/), which Kubernetes probes call without
// credentials and which reveals only whether the server is serving.
//
// A request without the token, or with another, gets Unauthenticated in its
// own protocol (Connect, gRPC or gRPC-Web, as connect.ErrorWriter writes
// it), or, for a plain HTTP request (a Connect request without its
// Connect-Protocol-Version header too), 401 with "WWW-Authenticate:
// Bearer", which Connect and gRPC clients also read as Unauthenticated.
// The message never says whether a token was sent but wrong.
//
// Browsers (the viewer at /) cannot send the header when they load a page,
// so a GET with the query parameter token=TOKEN gets the token as the
// cookie [TokenCookie] (HttpOnly, SameSite=Strict, Secure under TLS) and a
// redirect to the same path without it, on this server (a path that
// begins with "//", which browsers would read as another host, loses its
// extra slashes); later requests carrying the cookie pass. SameSite=Strict
// keeps other sites' pages from using it. A request with the token marks
// its connection as one of a client (see [Host.LimitListener]).
//
// RequireToken panics if token is empty: an empty token would admit
// everyone.
func RequireToken(h http.Handler, token string) http.Handler {
	if token == "" {
		panic("server: RequireToken: empty token")
	}
	want := sha256.Sum256([]byte(token))
	// Requests of the Connect protocol are told apart by their
	// Connect-Protocol-Version header (connect-go clients send it), so that
	// a plain GET (a Prometheus scrape of /metrics) is plain HTTP.
	errs := connect.NewErrorWriter(connect.WithRequireConnectProtocolHeader())
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if validToken(r.Header.Get("Authorization"), want) || validCookie(r, want) {
			markProven(r.Context())
			h.ServeHTTP(w, r)
			return
		}
		if strings.HasPrefix(r.URL.Path, healthPrefix) {
			h.ServeHTTP(w, r)
			return
		}
		if q := r.URL.Query(); r.Method == http.MethodGet && q.Has("token") && validToken("Bearer "+q.Get("token"), want) {
			http.SetCookie(w, &http.Cookie{
				Name: TokenCookie, Value: q.Get("token"), Path: "/",
				HttpOnly: true, SameSite: http.SameSiteStrictMode, Secure: r.TLS != nil,
			})
			q.Del("token")
			http.Redirect(w, r, sameOriginPath(r.URL.EscapedPath(), q.Encode()), http.StatusSeeOther)
			return
		}
		err := connect.NewError(connect.CodeUnauthenticated, errors.New(`missing or wrong bearer token: send the header (gRPC metadata) "authorization: Bearer TOKEN"`))
		dropUnreadBody(w, r) // a StepStream's over HTTP/1.1 may never end
		w.Header().Set("WWW-Authenticate", `Bearer realm="botarena"`)
		if errs.IsSupported(r) {
			errs.Write(w, r, err)
			return
		}
		http.Error(w, err.Message(), http.StatusUnauthorized)
	})
}

// sameOriginPath returns the redirect target of a request's path and
// query that stays on the server: a path of one leading slash. A path
// that begins with more slashes or backslashes ("//evil.example/", which
// browsers read as another host) loses them.
func sameOriginPath(path, query string) string {
	path = "/" + strings.TrimLeft(path, "/\\")
	if query != "" {
		path += "?" + query
	}
	return path
}

// TokenCookie is the cookie that carries the token for browsers (see
// [RequireToken]).
const TokenCookie = "botarena_token"

// validCookie reports whether r carries [TokenCookie] with the token.
func validCookie(r *http.Request, want [sha256.Size]byte) bool {
	c, err := r.Cookie(TokenCookie)
	return err == nil && validToken("Bearer "+c.Value, want)
}

// validToken reports whether header is "Bearer T" (the scheme in any case)
// with sha256(T) == want. Comparing digests keeps the comparison constant
// in time whatever the lengths of the two tokens.
func validToken(header string, want [sha256.Size]byte) bool {
	scheme, tok, ok := strings.Cut(header, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return false
	}
	got := sha256.Sum256([]byte(strings.TrimSpace(tok)))
	return subtle.ConstantTimeCompare(got[:], want[:]) == 1
}

// IsLoopback reports whether a listener's address is reachable only from
// its own machine: a loopback IP (127.0.0.0/8, ::1). An unspecified IP
// (0.0.0.0, ::, which listen on every interface) or any other address is
// not; neither is an address that is not TCP or IP.
func IsLoopback(addr net.Addr) bool {
	switch a := addr.(type) {
	case *net.TCPAddr:
		return a.IP.IsLoopback()
	case *net.IPAddr:
		return a.IP.IsLoopback()
	}
	return false
}
