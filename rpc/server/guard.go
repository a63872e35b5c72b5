package server

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"

	"connectrpc.com/connect"
)

// This file keeps web pages of other sites away from a server
// ([Guard]): a page can make a browser send requests to any address,
// 127.0.0.1 included, and a name it controls can resolve to 127.0.0.1
// (DNS rebinding), so that its script reads the answers as its own.

// GuardOptions configure [Guard].
type GuardOptions struct {
	// Token tells Guard that the handler it guards requires a token
	// ([RequireToken]). Without one, Guard also checks the Host header (the
	// name a DNS rebinding page was loaded from) and counts a request it
	// admits as its connection's proof of a client (see
	// [Host.LimitListener]); with one, [RequireToken] does that.
	Token bool
	// Hosts are further host names (or IP addresses) a server without a
	// token answers to, without a port, compared without case: the names
	// its clients reach it by beyond loopback (serve --allowed-hosts).
	Hosts []string
	// FormPaths are path prefixes whose requests may carry the bodies an
	// HTML form or a script sends without asking first (text/plain,
	// application/x-www-form-urlencoded, multipart/form-data, none): the
	// UPE routes ("/api/games/"), which original UPE clients post forms to.
	// Browsers' cross-site requests are refused there too.
	FormPaths []string
}

// Guard returns a handler that serves h only requests a page of another
// site cannot have made its visitor's browser send:
//
//   - On a server without a token (o.Token false), the Host header must
//     name the server: localhost, a name ending in .localhost, a loopback
//     address (127.0.0.1, [::1]), the address the connection reached or the
//     one it listens on (0.0.0.0, [::] included), or one of o.Hosts, with
//     any port; an empty Host (not sent by browsers) passes. A page that rebinds its own name to
//     127.0.0.1 sends its own name, and is refused.
//   - A request that may change state (any method but GET, HEAD and
//     OPTIONS) from a browser page of another origin is refused: one with
//     Sec-Fetch-Site other than same-origin or none, or, from a browser
//     without it, an Origin whose host is not the request's Host
//     (http.CrossOriginProtection). Clients that are not browsers send
//     neither header and pass; so do Connect's GETs of idempotent calls.
//   - Outside o.FormPaths, such a request must declare a content type that
//     no HTML form or script can send without the browser asking the
//     server first (CORS preflight, which this server never answers):
//     text/plain, application/x-www-form-urlencoded, multipart/form-data
//     and no Content-Type are refused. Connect, gRPC and gRPC-Web
//     (application/proto, application/json, application/grpc...,
//     application/connect+...) and the viewer's JSON pass.
//
// A refusal is PermissionDenied in the caller's protocol for a Connect,
// gRPC or gRPC-Web request, else 403 Forbidden (415 Unsupported Media Type
// for the content type) with a message saying why. Wrap it around
// [RequireToken] when there is a token, so that refusals need no token.
func Guard(h http.Handler, o GuardOptions) http.Handler {
	hosts := map[string]bool{}
	for _, name := range o.Hosts {
		hosts[normalHost(name)] = true
	}
	var forms []string
	for _, p := range o.FormPaths {
		if p != "" {
			forms = append(forms, p)
		}
	}
	g := &guard{next: h, token: o.Token, hosts: hosts, forms: forms,
		cross: http.NewCrossOriginProtection(),
		errs:  connect.NewErrorWriter(connect.WithRequireConnectProtocolHeader())}
	return g
}

// guard is the handler of [Guard].
type guard struct {
	next  http.Handler
	token bool
	hosts map[string]bool
	forms []string
	cross *http.CrossOriginProtection
	errs  *connect.ErrorWriter
}

func (g *guard) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !g.token && !g.allowedHost(r) {
		g.refuse(w, r, http.StatusForbidden, fmt.Sprintf("host %q is not this server's: a server without a token answers only requests "+
			"for localhost, 127.0.0.1, [::1] or the address it listens on (a page of another site may have rebound its name to this "+
			"address); reach it by one of those, name the host with serve --allowed-hosts, or set a token", Clip(r.Host)))
		return
	}
	if safeMethod(r.Method) {
		g.admit(w, r)
		return
	}
	if err := g.cross.Check(r); err != nil {
		g.refuse(w, r, http.StatusForbidden, fmt.Sprintf("cross-origin request refused: a page of another site (Origin %q, Sec-Fetch-Site %q) "+
			"may not call this server; use a client that is not a browser, or the viewer this server serves",
			Clip(r.Header.Get("Origin")), Clip(r.Header.Get("Sec-Fetch-Site"))))
		return
	}
	if ct, simple := simpleContentType(r.Header.Get("Content-Type")); simple && !g.formPath(r.URL.Path) {
		g.refuse(w, r, http.StatusUnsupportedMediaType, fmt.Sprintf("content type %q refused: %s takes Connect, gRPC or JSON "+
			"(application/json, application/proto, application/grpc...), which pages of other sites cannot send unasked", Clip(ct), Clip(r.Method+" "+r.URL.Path)))
		return
	}
	g.admit(w, r)
}

// admit serves r, counting it as its connection's proof of a client when
// no token does.
func (g *guard) admit(w http.ResponseWriter, r *http.Request) {
	if !g.token {
		markProven(r.Context())
	}
	g.next.ServeHTTP(w, r)
}

// refuse answers r with msg: PermissionDenied for Connect, gRPC and
// gRPC-Web requests, else status.
func (g *guard) refuse(w http.ResponseWriter, r *http.Request, status int, msg string) {
	dropUnreadBody(w, r)
	if g.errs.IsSupported(r) {
		g.errs.Write(w, r, connect.NewError(connect.CodePermissionDenied, errors.New(msg)))
		return
	}
	http.Error(w, msg, status)
}

// allowedHost reports whether r's Host names the server (see [Guard]).
func (g *guard) allowedHost(r *http.Request) bool {
	if r.Host == "" {
		return true
	}
	name := normalHost(r.Host)
	if name == "localhost" || strings.HasSuffix(name, ".localhost") || g.hosts[name] {
		return true
	}
	ip := net.ParseIP(name)
	if ip == nil {
		return false
	}
	if ip.IsLoopback() || ip.IsUnspecified() { // 0.0.0.0: what --addr 0.0.0.0:PORT listens on
		return true
	}
	local, _ := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	if a, ok := local.(*net.TCPAddr); ok {
		return a.IP.Equal(ip)
	}
	return false
}

// formPath reports whether path is under one of g.forms.
func (g *guard) formPath(path string) bool {
	for _, p := range g.forms {
		if strings.HasPrefix(path, p) {
			return true
		}
	}
	return false
}

// normalHost returns the host name of a Host header or a name: without
// the port, the brackets of an IPv6 address and a final dot, in lower
// case.
func normalHost(host string) string {
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	return strings.ToLower(strings.TrimSuffix(host, "."))
}

// safeMethod reports whether a request of method may not change state
// (Fetch's "safe" methods, which browsers send across sites freely).
func safeMethod(method string) bool {
	return method == http.MethodGet || method == http.MethodHead || method == http.MethodOptions
}

// simpleContentType returns the media type of a Content-Type header and
// whether a page may send it across sites without a CORS preflight: the
// three of HTML forms, or none.
func simpleContentType(header string) (string, bool) {
	ct, _, _ := strings.Cut(header, ";") // the essence, as Fetch parses it
	ct = strings.ToLower(strings.TrimSpace(ct))
	switch ct {
	case "", "text/plain", "application/x-www-form-urlencoded", "multipart/form-data":
		return ct, true
	}
	return ct, false
}
