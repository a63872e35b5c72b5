package main

import (
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/botarena/botarena/agents"
	"github.com/botarena/botarena/agents/upe"
)

// upeListenAgent is the --agents name of the seats UPE clients play with
// play --listen.
const upeListenAgent = "listen"

// listenUPE starts the UPE server of play --listen and names its seats: every
// "listen" in --agents becomes "upe://ADDR" (agents/upe), a seat that waits
// for a UPE client to POST /api/games/search (or practice) to ADDR. It
// returns the function that stops the server.
func (c *cli) listenUPE(game string, o *playFlags) (func(), error) {
	names := strings.Split(o.agents, ",")
	has := false
	for _, n := range names {
		has = has || strings.TrimSpace(n) == upeListenAgent
	}
	if o.listen == "" {
		if has {
			return nil, fmt.Errorf("--agents: %q seats are played by UPE clients and need --listen HOST:PORT", upeListenAgent)
		}
		return func() {}, nil
	}
	if agents.BaseGame(game) != "portalbomber" {
		return nil, fmt.Errorf("--listen: UPE clients play portalbomber, not %s", game)
	}
	if !has {
		return nil, fmt.Errorf("--listen: name the seats UPE clients play %q in --agents (e.g. --agents %s,greedy)", upeListenAgent, upeListenAgent)
	}
	if o.listenTimeout <= 0 {
		return nil, fmt.Errorf("--listen-timeout: want more than 0, got %v", o.listenTimeout)
	}
	log := slog.New(slog.NewTextHandler(c.stderr, nil))
	srv, err := upe.Listen(o.listen, upe.Options{Timeout: o.listenTimeout, Log: log})
	if err != nil {
		return nil, fmt.Errorf("--listen: %w", err)
	}
	// The line a launcher waits for (--listen HOST:0 picks a free port).
	fmt.Fprintf(c.stderr, "botarena play: UPE clients: listening on %s\n", srv.Addr())
	for i, n := range names {
		if strings.TrimSpace(n) == upeListenAgent {
			names[i] = upe.Scheme + srv.Addr()
		}
	}
	o.agents = strings.Join(names, ",")
	return func() { srv.Close() }, nil
}

// upeServeFlags configure the UPE routes of botarena serve.
type upeServeFlags struct {
	timeout       time.Duration
	practiceDelay time.Duration
}

func (u *upeServeFlags) add(f *pflag.FlagSet) {
	f.DurationVar(&u.timeout, "upe-timeout", upe.DefaultTimeout, "UPE routes (/api/games/...): a client's time limit per move (the original's 15 s)")
	f.DurationVar(&u.practiceDelay, "upe-practice-delay", upe.DefaultPracticeDelay, "UPE routes: how long the practice bot waits before each move (the original's 1 s)")
}

// mountUPE serves the UPE routes (agents/upe: hosted practice and searched
// portalbomber games) under /api/games/ and everything else with h. Close
// the returned server before shutting down HTTP, so that held requests are
// answered.
func (u *upeServeFlags) mount(h http.Handler, log *slog.Logger) (http.Handler, *upe.Server, error) {
	if u.timeout <= 0 {
		return nil, nil, fmt.Errorf("--upe-timeout: want more than 0, got %v", u.timeout)
	}
	if u.practiceDelay < 0 {
		return nil, nil, fmt.Errorf("--upe-practice-delay: want 0 or more, got %v", u.practiceDelay)
	}
	srv, err := upe.NewHandler(upe.Options{Timeout: u.timeout, PracticeDelay: u.practiceDelay, Log: log})
	if err != nil {
		return nil, nil, err
	}
	mux := http.NewServeMux()
	mux.Handle("/api/games/", srv)
	mux.Handle("/", h)
	return mux, srv, nil
}
