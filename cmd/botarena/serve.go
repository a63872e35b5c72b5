package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/botarena/botarena/rpc"
)

type serveFlags struct {
	addr            string
	maxEnvsPerPool  int
	maxPools        int
	maxTotalEnvs    int
	maxWorkers      int
	maxMatches      int
	maxMessageBytes int
	idleTimeout     time.Duration
	shutdownTimeout time.Duration
	logFormat       string
	logLevel        string
	externalBots    bool
	exitOnStdinEOF  bool
	upe             upeServeFlags // the UPE routes (upe.go)
}

func newServeCmd(c *cli) *cobra.Command {
	var o serveFlags
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Serve pools of envs and whole games over Connect, gRPC and gRPC-Web (botarena.v1.EnvService, MatchService)",
		Long: "serve runs the environment server: clients create pools of envs, reset and step them, and read\n" +
			"every step as an Arrow record batch (see rpc/proto/botarena/v1/env.proto). One port speaks Connect,\n" +
			"gRPC and gRPC-Web over HTTP/1.1 and HTTP/2 without TLS (h2c), with the gRPC health service and\n" +
			"server reflection (grpcurl -plaintext ADDR list). Once listening it prints\n" +
			"\"botarena serve: listening on HOST:PORT\" on stderr (--addr HOST:0 picks a free port); logs go to\n" +
			"stderr too. SIGINT or SIGTERM stops it gracefully: running calls get --shutdown-timeout to finish,\n" +
			"then every pool is closed.\n\n" +
			"The same port serves botarena.v1.MatchService (rpc/proto/botarena/v1/match.proto): whole games for\n" +
			"a league coordinator (botarena league run DIR --servers HOST:PORT,...), at most --max-matches at once;\n" +
			"see docs/scale-out.md.\n\n" +
			"The same port serves the UPE portal Bomberman routes under /api/games/ (search, practice,\n" +
			"submit/<id>; see agents/upe): original UPE clients play hosted games there.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return c.serve(&o) },
	}
	f := cmd.Flags()
	f.StringVar(&o.addr, "addr", "127.0.0.1:50051", "address to listen on, HOST:PORT (port 0 picks a free one)")
	f.IntVar(&o.maxEnvsPerPool, "max-envs-per-pool", rpc.DefaultMaxEnvsPerPool, "most envs one pool may have")
	f.IntVar(&o.maxPools, "max-pools", rpc.DefaultMaxPools, "most pools open at once")
	f.BoolVar(&o.externalBots, "allow-external-bots", false, "let clients name external bots (dir:, cmd:, http://, upe://) and policy files (policy:PATH) as pool opponents and match agents: the server then runs processes, makes requests and reads files for them; trusted clients only")
	f.IntVar(&o.maxTotalEnvs, "max-total-envs", rpc.DefaultMaxTotalEnvs, "most envs of all pools together")
	f.IntVar(&o.maxWorkers, "max-workers", 0, "most worker goroutines per pool, 0 for GOMAXPROCS")
	f.IntVar(&o.maxMatches, "max-matches", 0, "most games MatchService plays at once (more wait), 0 for GOMAXPROCS")
	f.IntVar(&o.maxMessageBytes, "max-message-bytes", rpc.DefaultMaxMessageBytes, "largest request or response message in bytes (a 4096-env Bomberman batch is about 88 MB)")
	f.DurationVar(&o.idleTimeout, "idle-timeout", rpc.DefaultIdleTimeout, "close pools unused for this long (0 never)")
	f.DurationVar(&o.shutdownTimeout, "shutdown-timeout", 5*time.Second, "how long running calls and streams get to finish on SIGINT/SIGTERM")
	f.StringVar(&o.logFormat, "log-format", "text", "log format: text or json")
	f.StringVar(&o.logLevel, "log-level", "info", "log level: debug, info, warn or error")
	f.BoolVar(&o.exitOnStdinEOF, "exit-on-stdin-eof", false, "shut down (as on SIGTERM) when standard input reaches end of file: a launcher that keeps a pipe to it open makes the server die with it, even when the launcher is killed (Python's botarena.Server does)")
	o.upe.add(f)
	return cmd
}

// logger returns the slog logger the flags ask for, writing to w.
func (o *serveFlags) logger(w io.Writer) (*slog.Logger, error) {
	var level slog.Level
	if err := level.UnmarshalText([]byte(o.logLevel)); err != nil {
		return nil, fmt.Errorf("--log-level: want debug, info, warn or error, got %q", o.logLevel)
	}
	hopts := &slog.HandlerOptions{Level: level}
	switch strings.ToLower(o.logFormat) {
	case "text":
		return slog.New(slog.NewTextHandler(w, hopts)), nil
	case "json":
		return slog.New(slog.NewJSONHandler(w, hopts)), nil
	}
	return nil, fmt.Errorf("--log-format: want text or json, got %q", o.logFormat)
}

func (o *serveFlags) check() error {
	for _, v := range []struct {
		flag string
		n    int
		min  int
	}{
		{"--max-envs-per-pool", o.maxEnvsPerPool, 1},
		{"--max-pools", o.maxPools, 1},
		{"--max-total-envs", o.maxTotalEnvs, 1},
		{"--max-workers", o.maxWorkers, 0},
		{"--max-matches", o.maxMatches, 0},
		{"--max-message-bytes", o.maxMessageBytes, 1 << 10},
	} {
		if v.n < v.min {
			return fmt.Errorf("%s: want at least %d, got %d", v.flag, v.min, v.n)
		}
	}
	if o.idleTimeout < 0 {
		return fmt.Errorf("--idle-timeout: want 0 (never) or more, got %v", o.idleTimeout)
	}
	if o.shutdownTimeout < 0 {
		return fmt.Errorf("--shutdown-timeout: want 0 or more, got %v", o.shutdownTimeout)
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

	ln, err := net.Listen("tcp", o.addr)
	if err != nil {
		return fmt.Errorf("--addr: %w", err)
	}
	opts := []rpc.Option{
		rpc.WithLogger(log),
		rpc.WithRegistry(c.reg),
		rpc.WithMaxEnvsPerPool(o.maxEnvsPerPool),
		rpc.WithMaxPools(o.maxPools),
		rpc.WithMaxTotalEnvs(o.maxTotalEnvs),
		rpc.WithMaxMessageBytes(o.maxMessageBytes),
		rpc.WithIdleTimeout(o.idleTimeout),
		rpc.WithExternalAgents(o.externalBots),
	}
	if o.maxWorkers > 0 {
		opts = append(opts, rpc.WithMaxWorkers(o.maxWorkers))
	}
	if o.maxMatches > 0 {
		opts = append(opts, rpc.WithMaxMatches(o.maxMatches))
	}
	srv := rpc.NewServer(opts...)
	handler, upeSrv, err := o.upe.mount(srv.Handler(), log)
	if err != nil {
		ln.Close()
		srv.Close()
		return err
	}
	defer upeSrv.Close()
	hs := rpc.NewHTTPServer(o.addr, handler)
	hs.ErrorLog = slog.NewLogLogger(log.Handler(), slog.LevelWarn)

	addr := ln.Addr().String()
	// The line a launcher (Python's botarena.Server) waits for.
	fmt.Fprintf(c.stderr, "botarena serve: listening on %s\n", addr)
	log.Info("serving", "addr", addr, "games", c.reg.Names(),
		"max_envs_per_pool", o.maxEnvsPerPool, "max_pools", o.maxPools, "max_total_envs", o.maxTotalEnvs,
		"max_message_bytes", o.maxMessageBytes, "idle_timeout", o.idleTimeout)

	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	select {
	case err := <-served: // the listener failed
		srv.Close()
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	stop() // a second signal kills the process the default way
	log.Info("shutting down", "timeout", o.shutdownTimeout)
	upeSrv.Close() // answers held UPE requests, ends hosted games
	sctx, cancel := context.WithTimeout(context.Background(), o.shutdownTimeout)
	defer cancel()
	if err := hs.Shutdown(sctx); err != nil {
		log.Warn("calls still running after the shutdown timeout; closing their connections", "err", err)
		hs.Close()
	}
	if err := <-served; err != nil && !errors.Is(err, http.ErrServerClosed) {
		log.Error("serve", "err", err)
	}
	srv.Close()
	log.Info("stopped")
	return nil
}
