package main

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/league"
	"github.com/botarena/botarena/rpc/envservice"
	"github.com/botarena/botarena/rpc/matchservice"
	"github.com/botarena/botarena/rpc/server"
)

type serveFlags struct {
	addr            string
	maxEnvsPerPool  int
	maxPools        int
	maxTotalEnvs    int
	maxWorkers      int
	maxMatches      int
	maxMessageBytes int
	maxMemory       server.ByteSize // the memory budget and quotas (rpc/server/budget.go)
	maxClientMemory server.ByteSize
	maxClientPools  int
	idleTimeout     time.Duration
	shutdownTimeout time.Duration
	logFormat       string
	logLevel        string
	bots            botFlags // who may name external bots (servebots.go)
	leaguesDir      string   // the leagues folder: MatchService's league RPCs and the viewer's league page
	maxLeagues      int      // the most leagues CreateLeague makes in it
	exitOnStdinEOF  bool
	upe             upeServeFlags // the UPE routes (upe.go)
	edge            edgeServeFlags
	web             webServeFlags // the viewer at / (serveweb.go)
}

func newServeCmd(c *cli) *cobra.Command {
	var o serveFlags
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Serve pools of envs and whole games over Connect, gRPC and gRPC-Web (botarena.v1.EnvService, MatchService)",
		Long: "serve runs the environment server: clients create pools of envs, reset and step them, and read\n" +
			"every step as an Arrow record batch (see rpc/proto/botarena/v1/env.proto). One port speaks Connect,\n" +
			"gRPC and gRPC-Web over HTTP/1.1 and HTTP/2 without TLS (h2c), or with --tls-cert/--tls-key over TLS\n" +
			"(h2 and http/1.1 by ALPN), with the gRPC health service, server reflection (grpcurl -plaintext ADDR\n" +
			"list) and Prometheus metrics at /metrics. Once listening it prints\n" +
			"\"botarena serve: listening on HOST:PORT\" on stderr (--addr HOST:0 picks a free port); logs go to\n" +
			"stderr too. SIGINT or SIGTERM stops it gracefully: running calls get --shutdown-timeout to finish,\n" +
			"then every pool is closed.\n\n" +
			"The same port serves botarena.v1.MatchService (rpc/proto/botarena/v1/match.proto): whole games for\n" +
			"a league coordinator (botarena league run DIR --servers HOST:PORT,...), at most --max-matches at once;\n" +
			"see docs/scale-out.md. With --leagues-dir DIR it also keeps leagues in DIR for its clients\n" +
			"(CreateLeague ... RunLeague; Python's botarena.League): `botarena league` run by the server, each\n" +
			"league named by its path inside DIR; their games take the same --max-matches slots, and their\n" +
			"agents need the same flags as Play's (--bots-dir, --allow-cmd-bots, ...).\n\n" +
			"The same port serves the UPE portal Bomberman routes under /api/games/ (search, practice,\n" +
			"submit/<id>; see agents/upe): original UPE clients play hosted games there.\n\n" +
			"The same port serves the viewer at / in a browser: live matches between built-in agents, the\n" +
			"replays under --replays-dir (recordings, replay folders, league match data) and the leagues\n" +
			"under --leagues-dir (each a folder holding a league store: table and ratings chart).\n\n" +
			"With a token (BOTARENA_AUTH_TOKEN, or --auth-token, which other users see in ps) every call and\n" +
			"route but the gRPC health service needs \"authorization: Bearer TOKEN\". serve refuses to listen\n" +
			"beyond loopback (--addr 0.0.0.0:PORT, a LAN address) without a token unless --insecure is given;\n" +
			"see docs/operations.md.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return c.serve(&o) },
	}
	f := cmd.Flags()
	f.StringVar(&o.addr, "addr", "127.0.0.1:50051", "address to listen on, HOST:PORT (port 0 picks a free one)")
	f.IntVar(&o.maxEnvsPerPool, "max-envs-per-pool", envservice.DefaultMaxEnvsPerPool, "most envs one pool may have")
	f.IntVar(&o.maxPools, "max-pools", envservice.DefaultMaxPools, "most pools open at once")
	o.bots.add(f) // --bots-dir, --allow-cmd-bots, --allow-http-bots, --allow-upe-bots, --allow-external-bots
	f.IntVar(&o.maxTotalEnvs, "max-total-envs", envservice.DefaultMaxTotalEnvs, "most envs of all pools together")
	f.IntVar(&o.maxWorkers, "max-workers", 0, "most worker goroutines per pool, 0 for GOMAXPROCS")
	f.IntVar(&o.maxMatches, "max-matches", 0, "most games MatchService plays at once (more wait), 0 for GOMAXPROCS")
	f.StringVar(&o.leaguesDir, "leagues-dir", "", "keep leagues in this folder (made if missing): MatchService's league RPCs and the viewer's league page (a folder under it per league); none without it")
	f.IntVar(&o.maxLeagues, "max-leagues", league.DefaultMaxLeagues, "most leagues clients may keep in --leagues-dir (CreateLeague beyond: RESOURCE_EXHAUSTED)")
	f.IntVar(&o.maxMessageBytes, "max-message-bytes", server.DefaultMaxMessageBytes, "largest request or response message in bytes (a 4096-env Bomberman batch is about 88 MB)")
	o.maxMemory = server.ByteSize(server.DefaultMaxMemory())
	f.Var(&o.maxMemory, "max-memory", "memory budget of all pools and MatchService games together, by their estimated cost before they are made, in bytes or with a unit (512MiB, 8GiB); the default is half the machine's memory or cgroup limit")
	f.Var(&o.maxClientMemory, "max-client-memory", "most of --max-memory one client (IP address) may hold at once, pools and games together; 0 for no quota")
	f.IntVar(&o.maxClientPools, "max-client-pools", server.DefaultMaxClientPools, "most pools one client (IP address) may have open at once; 0 for no quota")
	f.DurationVar(&o.idleTimeout, "idle-timeout", envservice.DefaultIdleTimeout, "close pools unused for this long (0 never)")
	f.DurationVar(&o.shutdownTimeout, "shutdown-timeout", 5*time.Second, "how long running calls and streams get to finish on SIGINT/SIGTERM")
	f.StringVar(&o.logFormat, "log-format", "text", "log format: text or json")
	f.StringVar(&o.logLevel, "log-level", "info", "log level: debug, info, warn or error")
	f.BoolVar(&o.exitOnStdinEOF, "exit-on-stdin-eof", false, "shut down (as on SIGTERM) when standard input reaches end of file: a launcher that keeps a pipe to it open makes the server die with it, even when the launcher is killed (Python's botarena.Server does)")
	o.upe.add(f)
	o.edge.add(f)
	o.web.add(f)
	return cmd
}

// logger returns the slog logger the flags ask for, writing to w.
func (o *serveFlags) logger(w io.Writer) (*slog.Logger, error) {
	var level slog.Level
	if err := level.UnmarshalText([]byte(o.logLevel)); err != nil {
		return nil, fmt.Errorf("--log-level: want debug, info, warn or error, got %q", o.logLevel)
	}
	hopts := &slog.HandlerOptions{Level: level, ReplaceAttr: durationsAsText}
	switch strings.ToLower(o.logFormat) {
	case "text":
		return slog.New(slog.NewTextHandler(w, hopts)), nil
	case "json":
		return slog.New(slog.NewJSONHandler(w, hopts)), nil
	}
	return nil, fmt.Errorf("--log-format: want text or json, got %q", o.logFormat)
}

func (o *serveFlags) check() error {
	if err := checkAtLeast(
		intFlag{"--max-envs-per-pool", o.maxEnvsPerPool, 1},
		intFlag{"--max-pools", o.maxPools, 1},
		intFlag{"--max-total-envs", o.maxTotalEnvs, 1},
		intFlag{"--max-workers", o.maxWorkers, 0},
		intFlag{"--max-matches", o.maxMatches, 0},
		intFlag{"--max-message-bytes", o.maxMessageBytes, 1 << 10},
	); err != nil {
		return err
	}
	if o.idleTimeout < 0 {
		return fmt.Errorf("--idle-timeout: want 0 (never) or more, got %v", o.idleTimeout)
	}
	if o.shutdownTimeout < 0 {
		return fmt.Errorf("--shutdown-timeout: want 0 or more, got %v", o.shutdownTimeout)
	}
	return o.edge.check()
}

// intFlag is an integer flag's name, its value and the least value it
// may have.
type intFlag struct {
	flag   string
	n, min int
}

// checkAtLeast returns an error naming the first of flags whose value is
// below its least, or nil.
func checkAtLeast(flags ...intFlag) error {
	for _, v := range flags {
		if v.n < v.min {
			return fmt.Errorf("%s: want at least %d, got %d", v.flag, v.min, v.n)
		}
	}
	return nil
}

func (c *cli) serve(o *serveFlags) error {
	if err := o.check(); err != nil {
		return err
	}
	log, err := o.logger(c.stderr)
	if err != nil {
		return err
	}
	caps, err := o.bots.capabilities(log) // servebots.go
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(c.ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	if o.exitOnStdinEOF {
		var cancel context.CancelFunc
		ctx, cancel = context.WithCancel(ctx)
		defer cancel()
		go func() {
			io.Copy(io.Discard, c.stdin) // returns at EOF: the launcher closed its end, or died
			log.Info("standard input closed; shutting down")
			cancel()
		}()
	}

	token := o.edge.token()
	tlsConfig, err := o.edge.tlsConfig(log)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", o.addr)
	if err != nil {
		return fmt.Errorf("--addr: %w", err)
	}
	if err := o.edge.guard(ln.Addr(), token, tlsConfig != nil, log); err != nil {
		ln.Close()
		return err
	}
	v := version()
	// One host (limits, memory budget, capabilities, metrics) serves both
	// services on one handler; host.Close closes them.
	host := server.New(
		server.WithVersion(v.String()),
		server.WithLogger(log),
		server.WithRegistry(c.reg),
		server.WithMaxMessageBytes(o.maxMessageBytes),
		server.WithAgentCapabilities(caps),
		server.WithMaxMemory(int64(o.maxMemory)),
		server.WithMaxClientMemory(int64(o.maxClientMemory)),
		server.WithMaxClientPools(o.maxClientPools),
		server.WithMaxClientConnections(o.edge.maxClientConns),
		server.WithMaxClientStreams(o.edge.maxClientStreams),
		server.WithMaxConnStreams(o.edge.maxConnStreams),
	)
	envOpts := []envservice.Option{
		envservice.WithMaxEnvsPerPool(o.maxEnvsPerPool),
		envservice.WithMaxPools(o.maxPools),
		envservice.WithMaxTotalEnvs(o.maxTotalEnvs),
		envservice.WithIdleTimeout(o.idleTimeout),
		envservice.WithStreamIdleTimeout(o.edge.streamIdle()),
	}
	if o.maxWorkers > 0 {
		envOpts = append(envOpts, envservice.WithMaxWorkers(o.maxWorkers))
	}
	var matchOpts []matchservice.Option
	if o.maxMatches > 0 {
		matchOpts = append(matchOpts, matchservice.WithMaxMatches(o.maxMatches))
	}
	if o.leaguesDir != "" {
		ls, err := serveLeagues(o.leaguesDir, o.maxLeagues, c.reg)
		if err != nil {
			ln.Close()
			host.Close()
			return err
		}
		matchOpts = append(matchOpts, matchservice.WithLeagues(ls))
	}
	rpcHandler := host.Handler(envservice.New(host, envOpts...), matchservice.New(host, matchOpts...))
	handler, upeSrv, err := o.upe.mount(rpcHandler, log)
	if err != nil {
		ln.Close()
		host.Close()
		return err
	}
	defer upeSrv.Close()
	// The viewer (package web) at /, behind the same token as the rest.
	webSrv, err := o.web.newWeb(c.reg, o.leaguesDir, caps.BotDirs, host.Metrics(), host.Budget())
	if err != nil {
		ln.Close()
		host.Close()
		return err
	}
	defer webSrv.Close()
	handler = webSrv.Handler(handler)
	hs := server.NewHTTPServer(o.addr, o.edge.wrap(handler, token))
	hs.ErrorLog = slog.NewLogLogger(log.Handler(), slog.LevelWarn)
	hs.IdleTimeout = o.edge.connIdleTimeout
	hs.TLSConfig = tlsConfig
	ln = host.LimitListener(ln, hs, o.edge.maxConnections)

	addr := ln.Addr().String()
	// The line a launcher (Python's botarena.Server) waits for.
	fmt.Fprintf(c.stderr, "botarena serve: listening on %s\n", addr)
	log.Info("serving", "addr", addr, "version", v.String(), "games", c.reg.Names(),
		"max_envs_per_pool", o.maxEnvsPerPool, "max_pools", o.maxPools, "max_total_envs", o.maxTotalEnvs,
		"max_message_bytes", o.maxMessageBytes, "idle_timeout", o.idleTimeout,
		"auth", token != "", "tls", tlsConfig != nil, "max_connections", o.edge.maxConnections,
		"max_client_connections", host.MaxClientConnections(o.edge.maxConnections), "max_client_streams", o.edge.maxClientStreams,
		"max_conn_streams", o.edge.maxConnStreams, "stream_idle_timeout", o.edge.streamIdle(), "pprof", o.edge.pprof,
		"replays_dir", o.web.replaysDir, "leagues_dir", o.leaguesDir)

	served := make(chan error, 1)
	go func() {
		if tlsConfig != nil {
			served <- hs.ServeTLS(ln, "", "") // the certificate comes from hs.TLSConfig
			return
		}
		served <- hs.Serve(ln)
	}()
	select {
	case err := <-served: // the listener failed
		host.Close()
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	stop() // a second signal kills the process the default way
	log.Info("shutting down", "timeout", o.shutdownTimeout)
	upeSrv.Close() // answers held UPE requests, ends hosted games
	sctx, cancel := context.WithTimeout(context.Background(), o.shutdownTimeout)
	defer cancel()
	shut := make(chan error, 1)
	go func() { shut <- hs.Shutdown(sctx) }() // closes the listener, waits for running calls
	// Ends open StepStreams and MatchService games with Unavailable now
	// rather than when the timeout closes their connections; calls running
	// on pools finish first.
	host.Close()
	if err := <-shut; err != nil {
		log.Warn("calls still running after the shutdown timeout; closing their connections", "err", err)
		hs.Close()
	}
	if err := <-served; err != nil && !errors.Is(err, http.ErrServerClosed) {
		log.Error("serve", "err", err)
	}
	host.Close()
	log.Info("stopped")
	return nil
}

// edgeServeFlags configure who may call botarena serve and how: the bearer
// token, TLS, the host names and origins it answers, the connection and
// stream caps and pprof (see docs/operations.md).
type edgeServeFlags struct {
	authToken         string
	tlsCert, tlsKey   string
	insecure          bool
	allowedHosts      []string
	maxConnections    int
	maxClientConns    int
	connIdleTimeout   time.Duration
	maxClientStreams  int
	maxConnStreams    int
	streamIdleTimeout time.Duration
	pprof             bool
}

// upeRoutes is the path prefix of the UPE routes (upe.go's mount), whose
// original clients post forms.
const upeRoutes = "/api/games/"

// authTokenEnv is the environment variable that holds the token; league
// run --servers sends it too.
const authTokenEnv = "BOTARENA_AUTH_TOKEN"

func (e *edgeServeFlags) add(f *pflag.FlagSet) {
	f.StringVar(&e.authToken, "auth-token", "", "require \"authorization: Bearer TOKEN\" on every call and route but the gRPC health check; prefer the environment variable "+authTokenEnv+" (flags show in ps)")
	f.StringVar(&e.tlsCert, "tls-cert", "", "serve TLS (HTTP/2 and HTTP/1.1 by ALPN) with this PEM certificate chain file; needs --tls-key; reloaded when the files change")
	f.StringVar(&e.tlsKey, "tls-key", "", "the PEM private key file of --tls-cert")
	f.BoolVar(&e.insecure, "insecure", false, "allow listening beyond loopback without a token (anyone who reaches the port may use the server)")
	f.StringSliceVar(&e.allowedHosts, "allowed-hosts", nil, "without a token, answer requests for these host names too (comma-separated, no port), besides localhost, loopback addresses and the address listened on: the names clients reach an --insecure server by; other names are refused (a page of another site may have rebound its name to this address)")
	f.IntVar(&e.maxConnections, "max-connections", server.DefaultMaxConnections, "most connections open at once; at the cap a new one replaces an idle connection (one that never sent a request with the token first, then the one idle longest), or is closed when every one is in use")
	f.IntVar(&e.maxClientConns, "max-client-connections", 0, "most connections one client (IP address) may have open at once, replaced as at --max-connections; 0 for a quarter of --max-connections, at least 64")
	f.DurationVar(&e.connIdleTimeout, "conn-idle-timeout", server.DefaultConnIdleTimeout, "close connections without a call for this long; a request's body must arrive within it too")
	f.IntVar(&e.maxClientStreams, "max-client-streams", server.DefaultMaxClientStreams, "most StepStreams one client (IP address) may have open at once")
	f.IntVar(&e.maxConnStreams, "max-conn-streams", server.DefaultMaxConnStreams, "most StepStreams one connection may have open at once")
	f.DurationVar(&e.streamIdleTimeout, "stream-idle-timeout", 0, "end a StepStream that waits this long for its client's next request (DeadlineExceeded); 0 for --conn-idle-timeout")
	f.BoolVar(&e.pprof, "pprof", false, "serve Go's profiler at /debug/pprof/ (behind the token, if any)")
}

func (e *edgeServeFlags) check() error {
	if e.maxConnections < 1 {
		return fmt.Errorf("--max-connections: want at least 1, got %d", e.maxConnections)
	}
	if e.connIdleTimeout <= 0 {
		return fmt.Errorf("--conn-idle-timeout: want more than 0, got %v", e.connIdleTimeout)
	}
	if err := checkAtLeast(
		intFlag{"--max-client-connections", e.maxClientConns, 0},
		intFlag{"--max-client-streams", e.maxClientStreams, 1},
		intFlag{"--max-conn-streams", e.maxConnStreams, 1},
	); err != nil {
		return err
	}
	if e.streamIdleTimeout < 0 {
		return fmt.Errorf("--stream-idle-timeout: want 0 (--conn-idle-timeout) or more, got %v", e.streamIdleTimeout)
	}
	for _, h := range e.allowedHosts {
		if h = strings.TrimSpace(h); h == "" || strings.ContainsAny(h, "/ \t") {
			return fmt.Errorf("--allowed-hosts: want host names such as botarena.internal, without a scheme or path, got %q", h)
		}
	}
	if (e.tlsCert == "") != (e.tlsKey == "") {
		return errors.New("--tls-cert and --tls-key: give both or neither")
	}
	if strings.ContainsFunc(e.token(), func(r rune) bool { return r <= ' ' || r == 0x7f }) {
		return fmt.Errorf("--auth-token (or %s): the token may not contain spaces or control characters", authTokenEnv)
	}
	return nil
}

// token returns --auth-token, else $BOTARENA_AUTH_TOKEN without the spaces
// around it (a trailing newline of a file read into it); "" for none.
func (e *edgeServeFlags) token() string {
	if e.authToken != "" {
		return e.authToken
	}
	return strings.TrimSpace(os.Getenv(authTokenEnv))
}

// guard refuses to serve on addr beyond loopback without a token unless
// --insecure is given, and warns about what stays open.
func (e *edgeServeFlags) guard(addr net.Addr, token string, tls bool, log *slog.Logger) error {
	if server.IsLoopback(addr) {
		return nil
	}
	switch {
	case token == "" && !e.insecure:
		return fmt.Errorf("--addr %s: refusing to listen beyond loopback without a token: anyone who reaches the port could create pools and play games on this machine; set %s (or --auth-token) so that clients must send it, or give --insecure to serve them all anyway", addr, authTokenEnv)
	case token == "":
		log.Warn("serving beyond loopback without a token (--insecure): anyone who reaches the port may use this server", "addr", addr.String())
	case !tls:
		log.Warn("serving beyond loopback without TLS: the token and the traffic travel in clear text; give --tls-cert and --tls-key, or keep the port on a trusted network", "addr", addr.String())
	}
	return nil
}

// streamIdle returns --stream-idle-timeout, or --conn-idle-timeout for 0.
func (e *edgeServeFlags) streamIdle() time.Duration {
	if e.streamIdleTimeout > 0 {
		return e.streamIdleTimeout
	}
	return e.connIdleTimeout
}

// wrap adds pprof (with --pprof), the token check (with a token) and the
// guard against other sites' pages (server.Guard: the host names without
// a token, cross-origin requests and form bodies but on the UPE routes)
// to h.
func (e *edgeServeFlags) wrap(h http.Handler, token string) http.Handler {
	if e.pprof {
		mux := http.NewServeMux()
		mux.HandleFunc("/debug/pprof/", pprof.Index)
		mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
		mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
		mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
		mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
		mux.Handle("/", h)
		h = mux
	}
	if token != "" {
		h = server.RequireToken(h, token)
	}
	var hosts []string
	for _, name := range e.allowedHosts {
		hosts = append(hosts, strings.TrimSpace(name))
	}
	return server.Guard(h, server.GuardOptions{Token: token != "", Hosts: hosts, FormPaths: []string{upeRoutes}})
}

// tlsConfig returns the TLS config of --tls-cert and --tls-key, nil
// without them. The files are read now (an error stops serve) and again
// when they change (checked at most every 10 seconds, on a handshake), so
// that a renewed certificate is served without a restart; a renewed pair
// that does not load is logged and the old one kept.
func (e *edgeServeFlags) tlsConfig(log *slog.Logger) (*tls.Config, error) {
	if e.tlsCert == "" {
		return nil, nil
	}
	r := &certReloader{certFile: e.tlsCert, keyFile: e.tlsKey, log: log}
	if err := r.load(); err != nil {
		return nil, fmt.Errorf("--tls-cert, --tls-key: %w", err)
	}
	return &tls.Config{MinVersion: tls.VersionTLS12, GetCertificate: r.get}, nil
}

// certReloader serves a certificate from files, reloading them when their
// modification times change.
type certReloader struct {
	certFile, keyFile string
	log               *slog.Logger

	mu      sync.Mutex
	cert    *tls.Certificate
	mtimes  [2]time.Time
	checked time.Time
}

// load reads the pair; the caller holds mu or is the only user.
func (r *certReloader) load() error {
	var mtimes [2]time.Time
	for i, name := range []string{r.certFile, r.keyFile} {
		fi, err := os.Stat(name)
		if err != nil {
			return err
		}
		mtimes[i] = fi.ModTime()
	}
	cert, err := tls.LoadX509KeyPair(r.certFile, r.keyFile)
	if err != nil {
		return err
	}
	r.cert, r.mtimes, r.checked = &cert, mtimes, time.Now()
	return nil
}

func (r *certReloader) get(*tls.ClientHelloInfo) (*tls.Certificate, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if time.Since(r.checked) < 10*time.Second {
		return r.cert, nil
	}
	r.checked = time.Now()
	for i, name := range []string{r.certFile, r.keyFile} {
		if fi, err := os.Stat(name); err == nil && !fi.ModTime().Equal(r.mtimes[i]) {
			if err := r.load(); err != nil {
				r.log.Warn("TLS certificate changed but does not load; serving the previous one", "cert", r.certFile, "key", r.keyFile, "err", err)
			} else {
				r.log.Info("TLS certificate reloaded", "cert", r.certFile)
			}
			break
		}
	}
	return r.cert, nil
}

// serveLeagues returns the leagues of serve --leagues-dir dir, made if
// missing, at most maxLeagues of them (--max-leagues), charted as
// `botarena league` charts them.
func serveLeagues(dir string, maxLeagues int, reg *env.Registry) (*league.Leagues, error) {
	if maxLeagues < 1 {
		return nil, fmt.Errorf("--max-leagues: want 1 or more, got %d", maxLeagues)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("--leagues-dir: %w", err)
	}
	ls, err := league.NewLeagues(dir, league.LeaguesOptions{Registry: reg, Chart: ratingsPNG, MaxLeagues: maxLeagues})
	if err != nil {
		return nil, fmt.Errorf("--leagues-dir: %w", err)
	}
	return ls, nil
}
