package matchservice

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"connectrpc.com/connect"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/botarena/botarena/internal/bytesize"
	"github.com/botarena/botarena/league"
	botarenav1 "github.com/botarena/botarena/rpc/gen/botarena/v1"
	"github.com/botarena/botarena/rpc/gen/botarena/v1/botarenav1connect"
	"github.com/botarena/botarena/rpc/server"
)

// This file serves the league RPCs of botarena.v1.MatchService: thin
// handlers over league.Leagues, which holds the leagues folder, its
// confinement, the writers' turns and the operations with the semantics of
// `botarena league`. What they add is the server's: the host's agent
// capabilities for every agent added or played, the match slots and the
// host's memory budget for a run's games (as PlayBatch takes them), the
// shutdown, and the codes of league's errors ([leagueErrorKind]), which
// they mark with the kinds of the host's error table.

// leagueErrorKind returns the kind of the host's error table
// (server.ErrNotFound, ...) that league's error err is, or nil for none:
//
//	NotFound            league.ErrNoLeague, league.ErrUnknownAgent
//	AlreadyExists       league.ErrExists, league.ErrAgentExists
//	InvalidArgument     league.ErrBadMatch (a game's config, seat count or agent),
//	                    league.ErrInvalid (a league name, agent name, spec, tag, config,
//	                    count, matchmaking, request id)
//	FailedPrecondition  league.ErrBusy, league.ErrRunning, league.ErrUnfinishedRun,
//	                    league.ErrTooFewAgents, league.ErrBadStore
//	ResourceExhausted   league.ErrLimit (the folder's leagues, a league's agents,
//	                    league.ErrDiskFull)
func leagueErrorKind(err error) error {
	switch {
	case errors.Is(err, league.ErrNoLeague), errors.Is(err, league.ErrUnknownAgent):
		return server.ErrNotFound
	case errors.Is(err, league.ErrExists), errors.Is(err, league.ErrAgentExists):
		return server.ErrExists
	case errors.Is(err, league.ErrBadMatch), errors.Is(err, league.ErrInvalid):
		return server.ErrInvalid
	case errors.Is(err, league.ErrBusy), errors.Is(err, league.ErrRunning),
		errors.Is(err, league.ErrUnfinishedRun), errors.Is(err, league.ErrTooFewAgents),
		errors.Is(err, league.ErrBadStore):
		return server.ErrNotReady
	case errors.Is(err, league.ErrLimit):
		return server.ErrLimit
	}
	return nil
}

// runProgressEvery is the least time between two progress messages of a
// RunLeague stream.
const runProgressEvery = 250 * time.Millisecond

// WithLeagues serves the leagues of ls through MatchService's league RPCs
// (CreateLeague ... RunLeague; `botarena serve --leagues-dir`). Without it
// they are FailedPrecondition. Agents added to a league and every agent of
// a run must be allowed by the server's capabilities
// ([WithAgentCapabilities]), and a run's games take the server's match
// slots ([WithMaxMatches]) and memory budget as PlayBatch does. The default
// is none.
func WithLeagues(ls *league.Leagues) Option { return func(o *options) { o.leagues = ls } }

// leagues returns the server's leagues, or the error of a server without
// (FailedPrecondition).
func (s *Server) leagues() (*league.Leagues, error) {
	if s.opts.leagues == nil {
		return nil, server.Markf(server.ErrNotReady, "this server keeps no leagues: start it with --leagues-dir DIR, the folder to keep them in")
	}
	return s.opts.leagues, nil
}

// leagueCall answers a unary league RPC of procedure proc: f's response
// with the server's leagues, or f's error (or that of a server without
// leagues) as the procedure's connect error.
func leagueCall[Resp any](s *Server, proc string, f func(ls *league.Leagues) (*Resp, error)) (*Resp, error) {
	ls, err := s.leagues()
	if err == nil {
		var resp *Resp
		if resp, err = f(ls); err == nil {
			return resp, nil
		}
	}
	return nil, s.connectError(proc, err)
}

// CreateLeague makes a league (or, with open_existing, opens one).
func (s *Server) CreateLeague(ctx context.Context, req *botarenav1.CreateLeagueRequest) (*botarenav1.CreateLeagueResponse, error) {
	return leagueCall(s, botarenav1connect.MatchServiceCreateLeagueProcedure, func(ls *league.Leagues) (*botarenav1.CreateLeagueResponse, error) {
		if req.GetGame() == "" {
			return nil, server.Invalidf("game: required (games: %s)", strings.Join(s.host.Registry().Names(), ", "))
		}
		st := league.Settings{Game: req.GetGame(), Config: []byte(req.GetConfigJson()), Seed: league.NewSeed()}
		if req.Seed != nil {
			st.Seed = req.GetSeed()
		}
		info, made, err := ls.Create(ctx, req.GetLeague(), st, req.GetOpenExisting())
		if err != nil {
			return nil, err
		}
		return &botarenav1.CreateLeagueResponse{League: leagueInfo(info), Created: made}, nil
	})
}

// GetLeague describes a league.
func (s *Server) GetLeague(ctx context.Context, req *botarenav1.GetLeagueRequest) (*botarenav1.GetLeagueResponse, error) {
	return leagueCall(s, botarenav1connect.MatchServiceGetLeagueProcedure, func(ls *league.Leagues) (*botarenav1.GetLeagueResponse, error) {
		info, err := ls.Info(req.GetLeague())
		if err != nil {
			return nil, err
		}
		return &botarenav1.GetLeagueResponse{League: leagueInfo(info)}, nil
	})
}

// AddLeagueAgent adds an agent the server's capabilities allow, its path
// resolved in the bots folders. Its name, spec and tag are checked
// (league.CheckAgent) before anything else.
func (s *Server) AddLeagueAgent(ctx context.Context, req *botarenav1.AddLeagueAgentRequest) (*botarenav1.AddLeagueAgentResponse, error) {
	return leagueCall(s, botarenav1connect.MatchServiceAddLeagueAgentProcedure, func(ls *league.Leagues) (*botarenav1.AddLeagueAgentResponse, error) {
		if err := league.CheckAgent(league.Agent{Name: req.GetName(), Spec: req.GetSpec(), Tag: req.GetTag()}); err != nil {
			return nil, err
		}
		info, err := ls.Info(req.GetLeague())
		if err != nil {
			return nil, err
		}
		spec, err := s.host.AllowAgent(info.Game, "spec", req.GetSpec())
		if err != nil {
			return nil, err
		}
		a, err := ls.AddAgent(ctx, req.GetLeague(), league.Agent{Name: req.GetName(), Spec: spec, Tag: req.GetTag()})
		if err != nil {
			return nil, err
		}
		return &botarenav1.AddLeagueAgentResponse{Agent: leagueAgent(a)}, nil
	})
}

// RemoveLeagueAgent removes an agent.
func (s *Server) RemoveLeagueAgent(ctx context.Context, req *botarenav1.RemoveLeagueAgentRequest) (*botarenav1.RemoveLeagueAgentResponse, error) {
	return leagueCall(s, botarenav1connect.MatchServiceRemoveLeagueAgentProcedure, func(ls *league.Leagues) (*botarenav1.RemoveLeagueAgentResponse, error) {
		return &botarenav1.RemoveLeagueAgentResponse{}, ls.RemoveAgent(ctx, req.GetLeague(), req.GetName())
	})
}

// ListLeagueAgents lists a league's agents.
func (s *Server) ListLeagueAgents(ctx context.Context, req *botarenav1.ListLeagueAgentsRequest) (*botarenav1.ListLeagueAgentsResponse, error) {
	return leagueCall(s, botarenav1connect.MatchServiceListLeagueAgentsProcedure, func(ls *league.Leagues) (*botarenav1.ListLeagueAgentsResponse, error) {
		ags, err := ls.Agents(req.GetLeague())
		if err != nil {
			return nil, err
		}
		resp := &botarenav1.ListLeagueAgentsResponse{}
		for _, a := range ags {
			resp.Agents = append(resp.Agents, leagueAgent(a))
		}
		return resp, nil
	})
}

// LeagueTable returns a league's leaderboard, its text and, when asked,
// its chart.
func (s *Server) LeagueTable(ctx context.Context, req *botarenav1.LeagueTableRequest) (*botarenav1.LeagueTableResponse, error) {
	return leagueCall(s, botarenav1connect.MatchServiceLeagueTableProcedure, func(ls *league.Leagues) (*botarenav1.LeagueTableResponse, error) {
		snap, err := ls.Table(req.GetLeague())
		if err != nil {
			return nil, err
		}
		var text bytes.Buffer
		if err := league.WriteTable(&text, snap.Rows); err != nil {
			return nil, err
		}
		resp := &botarenav1.LeagueTableResponse{
			Game: snap.Game, Games: snap.Games, Text: text.String(), Live: snap.Live, AsOf: timestamppb.New(snap.Time),
		}
		for _, r := range snap.Rows {
			row := &botarenav1.LeagueRow{
				Rank: int32(r.Rank), Agent: r.Agent, Spec: r.Spec, Tag: r.Tag,
				Rating: r.Rating.Rating, Rd: r.RD, Volatility: r.Volatility, Elo: r.Elo,
				Games: int32(r.Games), Wins: int32(r.Wins), Draws: int32(r.Draws), Losses: int32(r.Losses),
				Lower: r.Lower, Upper: r.Upper, WinRate: r.WinRate,
			}
			for i, k := range r.MeanActions.Kinds {
				row.MeanActions = append(row.MeanActions, &botarenav1.ActionMean{Kind: k, Mean: r.MeanActions.N[i]})
			}
			resp.Rows = append(resp.Rows, row)
		}
		if req.GetPng() && len(snap.Rows) > 0 {
			var png bytes.Buffer
			if err := ls.Chart(&png, req.GetLeague(), snap); err != nil {
				return nil, err
			}
			resp.Png = png.Bytes()
		}
		return resp, nil
	})
}

// LeagueGames returns stored games, in the league's compact form
// (league.GameLine).
func (s *Server) LeagueGames(ctx context.Context, req *botarenav1.LeagueGamesRequest) (*botarenav1.LeagueGamesResponse, error) {
	return leagueCall(s, botarenav1connect.MatchServiceLeagueGamesProcedure, func(ls *league.Leagues) (*botarenav1.LeagueGamesResponse, error) {
		games, total, err := ls.Games(req.GetLeague(), req.GetLast(), req.GetStart(), int(req.GetLimit()))
		if err != nil {
			return nil, err
		}
		resp := &botarenav1.LeagueGamesResponse{Total: total}
		for _, g := range games {
			line := g.Line()
			lg := &botarenav1.LeagueGame{
				Index: line.Index, Seed: line.Seed, Rounds: int32(line.Rounds), Winner: int32(line.Winner), Draw: line.Draw,
				Standings: standingsProto(line.Standings), Forfeit: int32(line.Forfeit), Run: int32(line.Run), Time: timestamppb.New(line.Time),
			}
			for _, e := range line.Seats {
				lg.Seats = append(lg.Seats, &botarenav1.MatchSeat{Name: e.Name, Spec: e.Spec})
			}
			resp.Games = append(resp.Games, lg)
		}
		return resp, nil
	})
}

// RunLeague plays a run of a league and streams its progress, then its
// summary.
func (s *Server) RunLeague(ctx context.Context, req *botarenav1.RunLeagueRequest, stream *connect.ServerStream[botarenav1.RunLeagueResponse]) error {
	proc := botarenav1connect.MatchServiceRunLeagueProcedure
	ctx, done := s.matchContext(ctx)
	defer done()
	fail := func(err error) error { return s.connectError(proc, err) }
	ls, err := s.leagues()
	if err != nil {
		return fail(err)
	}
	if s.isClosed() {
		return fail(server.Markf(server.ErrShuttingDown, "the server is shutting down"))
	}
	if n := req.GetWorkers(); n < 0 {
		return fail(server.Invalidf("workers: got %d, want 0 (as many as are free) or more", n))
	}
	if n := req.GetEnvsPerWorker(); n < 0 {
		return fail(server.Invalidf("envs_per_worker: got %d, want 0 (the default, %d) or more", n, league.DefaultEnvsPerWorker))
	}
	info, err := ls.Info(req.GetLeague())
	if err != nil {
		return fail(err)
	}
	workers := int(req.GetWorkers())
	if workers == 0 || workers > s.opts.maxMatches {
		workers = s.opts.maxMatches
	}
	runner := &leagueRunner{s: s, client: server.ClientKey(ctx), pool: league.PoolRunner{
		Registry: s.host.Registry(), Log: &logWriter{log: s.log}, EnvsPerWorker: int(req.GetEnvsPerWorker()),
	}}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var sendErr error
	var sent time.Time
	progress := func(p league.Progress) {
		if sendErr != nil || (!sent.IsZero() && time.Since(sent) < runProgressEvery && p.Done < p.Total) {
			return
		}
		sent = time.Now()
		sendErr = stream.Send(&botarenav1.RunLeagueResponse{Event: &botarenav1.RunLeagueResponse_Progress{Progress: &botarenav1.LeagueRunProgress{
			Run: int32(p.Run), Done: int32(p.Done), Total: int32(p.Total), Played: int32(p.Played), Seconds: p.Elapsed.Seconds(),
		}}})
		if sendErr != nil {
			cancel() // the client is gone: stop the run
		}
	}
	allow := func(a league.Agent) (string, error) {
		return s.host.AllowAgent(info.Game, "agent "+a.Name, a.Spec) // the host's capabilities
	}
	sum, err := ls.Run(ctx, req.GetLeague(), league.RunOptions{
		Games:     int(req.GetGames()),
		Match:     league.Matchmaking(req.GetMatch()),
		Target:    req.GetTarget(),
		Workers:   workers,
		MaxRounds: int(req.GetMaxRounds()),
		Runner:    runner,
		Registry:  s.host.Registry(),
		Fresh:     req.GetFresh(),
		RequestID: req.GetRequestId(),
		Progress:  progress,
	}, allow)
	if err != nil {
		if ctx.Err() != nil && s.isClosed() {
			err = server.Markf(server.ErrShuttingDown, "the server is shutting down: run %d of league %q stopped after %d of %d games, all stored; RunLeague with the same options finishes it",
				sum.Run.ID, server.Clip(req.GetLeague()), sum.Skipped+sum.Played, sum.Run.Games)
		} else if ctx.Err() != nil && sendErr != nil {
			err = sendErr
		} else if errors.Is(err, league.ErrDiskFull) {
			// The cause and the games kept, without the store's path.
			err = server.Markf(server.ErrLimit, "the server's disk is full: run %d of league %q stopped after %d of %d games, all stored; RunLeague with the same options finishes it when there is space",
				sum.Run.ID, server.Clip(req.GetLeague()), sum.Skipped+sum.Played, sum.Run.Games)
		}
		return fail(err)
	}
	if sendErr != nil {
		return fail(sendErr)
	}
	out := &botarenav1.LeagueRunSummary{
		Run: int32(sum.Run.ID), Match: sum.Run.Match, Target: sum.Run.Target, Start: sum.Run.Start, Games: int32(sum.Run.Games),
		Resumed: sum.Resumed, Skipped: int32(sum.Skipped), Played: int32(sum.Played), Seconds: sum.Elapsed.Seconds(),
		Duplicate: sum.Duplicate,
	}
	if req.GetPng() {
		if out.Png, err = ls.DrawChart(req.GetLeague()); err != nil {
			return fail(err)
		}
	}
	return stream.Send(&botarenav1.RunLeagueResponse{Event: &botarenav1.RunLeagueResponse_Summary{Summary: out}})
}

// leagueRunner plays a RunLeague's games: each block with
// league.PoolRunner, on match slots taken and memory booked as PlayBatch
// takes and books them, so that league runs, Play and PlayBatch share the
// server's limits.
type leagueRunner struct {
	s      *Server
	client string
	pool   league.PoolRunner
}

var _ league.BatchRunner = (*leagueRunner)(nil)

// Play plays one match as a block of one.
func (r *leagueRunner) Play(ctx context.Context, m league.Match) (res league.Result, err error) {
	err = context.Canceled
	r.PlayBatch(ctx, []league.Match{m}, 1, func(_ int, got league.Result, gerr error) { res, err = got, gerr })
	return res, err
}

// PlayBatch books the block's memory, takes up to workers match slots
// (waiting for the first) and plays the block on them.
func (r *leagueRunner) PlayBatch(ctx context.Context, matches []league.Match, workers int, done func(j int, res league.Result, err error)) {
	s := r.s
	if len(matches) == 0 {
		return
	}
	var each int64
	for _, m := range matches {
		each = max(each, s.matchCost(playRequest(m)))
	}
	envs := r.pool.EnvsPerWorker
	if envs <= 0 {
		envs = league.DefaultEnvsPerWorker
	}
	want := max(1, min(len(matches), workers, s.opts.maxMatches))
	inFlight := min(int64(len(matches)), int64(want)*int64(envs+1))
	mem, err := s.host.Budget().Reserve(r.client, fmt.Sprintf("a league block of %d games", len(matches)),
		fmt.Sprintf("%d at once × %s", inFlight, bytesize.Format(each)), inFlight*each, false)
	if err != nil {
		done(0, league.Result{}, err)
		return
	}
	defer mem.Release()
	n, err := s.takeSlots(ctx, want)
	if err != nil {
		done(0, league.Result{}, err)
		return
	}
	defer func() {
		for range n {
			<-s.matchSlots
		}
	}()
	s.metrics.gamesStarted(len(matches))
	finished := 0
	r.pool.PlayBatch(ctx, matches, n, func(j int, res league.Result, err error) {
		s.metrics.gameFinished()
		finished++
		done(j, res, err)
	})
	s.metrics.gamesDropped(len(matches) - finished)
}

// leagueInfo converts a league's description.
func leagueInfo(info league.Info) *botarenav1.LeagueInfo {
	return &botarenav1.LeagueInfo{
		League: info.Name, Game: info.Game, ConfigJson: string(info.Config), Seed: info.Seed,
		Created: timestamppb.New(info.Created), Agents: int32(info.Agents), Games: info.Games,
	}
}

// leagueAgent converts an agent.
func leagueAgent(a league.Agent) *botarenav1.LeagueAgent {
	return &botarenav1.LeagueAgent{Name: a.Name, Spec: a.Spec, Tag: a.Tag, Added: timestamppb.New(a.Added)}
}
