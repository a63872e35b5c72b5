package rpc

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"

	"connectrpc.com/connect"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	"github.com/botarena/botarena/agents"
	"github.com/botarena/botarena/league"
	botarenav1 "github.com/botarena/botarena/rpc/gen/botarena/v1"
	"github.com/botarena/botarena/rpc/gen/botarena/v1/botarenav1connect"
)

// This file serves botarena.v1.MatchService: whole games played with
// league.LocalRunner (Play) and league.PoolRunner (PlayBatch), the code
// paths of a local league run, so that a game played here has the result
// it would have had on the coordinator.
//
// A request with record set gets the game's per-step data
// (PlayResponse.data, league.Result.Data): about seats × steps ×
// (observation bytes + actions + 10) bytes, 3.9 MB for a BattleBots game
// that runs to its 1000-step cap. Connect limits every message, not the
// call: a response must fit the server's send limit (WithMaxMessageBytes,
// 256 MiB by default), and the client's read limit (connect-go's default
// is no limit; [Dial] and [RemoteRunner] set [DefaultMaxMessageBytes]).
// A PlayBatch response holds every game of the batch, so [RemoteRunner]
// sends fewer recorded games per call when their data could exceed its
// limit. The server refuses, before playing anything, a recorded game
// whose data bound ([dataBound]: every seat's row for every step up to the
// game's step cap or max_rounds, the bound RemoteRunner packs its calls
// by) would take the response over its limit, or whose recording does not
// fit the memory budget (see budget.go): ResourceExhausted, for Play, and
// for PlayBatch that game's outcome rather than the whole call. Recordings
// are never truncated. The actual size is still checked after the games.

var _ botarenav1connect.MatchServiceHandler = (*Server)(nil)

// WithMaxMatches sets the most goroutines MatchService plays games on at
// once, over all its calls: a Play call takes one for its game, a
// PlayBatch call one per worker of its pool (each playing several games);
// further calls wait for a slot (a cancelled call stops waiting). The
// default is runtime.GOMAXPROCS(0) at NewServer: a game of built-in agents
// is CPU-bound.
func WithMaxMatches(n int) Option { return func(o *options) { o.maxMatches = n } }

// Play plays one game with league.LocalRunner and returns its result, with
// its per-step data when req.record is set: the game must exist
// (NotFound), the seats' agents must exist (NotFound) and be built-in
// unless the server allows external agents (PermissionDenied), and the
// config, seat count and max_rounds must be valid (InvalidArgument). A
// recorded game whose data could exceed the server's message limit, and a
// game that does not fit the memory budget or the client's quota, is
// ResourceExhausted before it is played.
func (s *Server) Play(ctx context.Context, req *botarenav1.PlayRequest) (*botarenav1.PlayResponse, error) {
	ctx, done := s.matchContext(ctx)
	defer done()
	// The memory budget and message limit (budget.go): a recorded game
	// whose data could not fit is refused before it is played.
	mem, err := s.admitPlay(ctx, req)
	var resp *botarenav1.PlayResponse
	if err == nil {
		resp, err = s.play(ctx, req, "")
		mem.release()
	}
	if err == nil {
		if n, limit := proto.Size(resp), s.opts.maxMessageBytes; limit > 0 && n > limit {
			resp, err = nil, markf(errLimit, "game %d: its match data makes a response of %.1f MiB, over the server's message limit of %.1f MiB; cap the rounds (league run --max-rounds) or raise the limit (serve --max-message-bytes)",
				req.GetIndex(), mib(n), mib(limit))
		}
	}
	return resp, connectError(s.log, botarenav1connect.MatchServicePlayProcedure, err)
}

// PlayBatch plays the request's games as a league run does, with
// league.PoolRunner: those of in-process agents on vecenv pools, one per
// worker (as many workers as the server's free MaxMatches slots, at least
// one), each playing several games with their policies' decisions
// batched, and those with external bots one per worker. It returns one outcome per game
// in request order: its result, or the error Play would have returned for it
// (its message prefixed with "matches[i]: "). The call itself fails only
// when the server is shutting down (Unavailable) or the client went away
// (Canceled). The response must fit the server's message limit: a recorded
// game whose data bound would take the response over it gets a
// ResourceExhausted outcome instead, before any game is played, as do the
// games after it that do not fit either; so does a recorded game whose
// recording does not fit the memory budget or the client's quota (and
// every game when the games played at once do not).
func (s *Server) PlayBatch(ctx context.Context, req *botarenav1.PlayBatchRequest) (*botarenav1.PlayBatchResponse, error) {
	ctx, done := s.matchContext(ctx)
	defer done()
	proc := botarenav1connect.MatchServicePlayBatchProcedure
	if s.isClosed() {
		return nil, connectError(s.log, proc, markf(errShuttingDown, "the server is shutting down"))
	}
	ms := req.GetMatches()
	out := make([]*botarenav1.PlayOutcome, len(ms))
	failed := func(err error) *botarenav1.PlayOutcome {
		ce := connectError(s.log, proc, err).(*connect.Error)
		return &botarenav1.PlayOutcome{Outcome: &botarenav1.PlayOutcome_Error{Error: &botarenav1.MatchError{
			Code: ce.Code().String(), Message: ce.Message(),
		}}}
	}
	var valid []league.Match
	var at []int // valid[k] is ms[at[k]]
	for i, req := range ms {
		m, err := s.match(req, fmt.Sprintf("matches[%d]: ", i))
		if err != nil {
			out[i] = failed(err)
			continue
		}
		valid, at = append(valid, m), append(at, i)
	}
	// The memory budget and message limit (budget.go): the games that
	// could not fit are refused before any is played.
	mem, valid, at := s.admitBatch(ctx, ms, valid, at, out, failed)
	defer mem.release()
	if len(valid) > 0 {
		workers, err := s.takeSlots(ctx, min(len(valid), s.opts.maxMatches))
		if err != nil {
			return nil, connectError(s.log, proc, err)
		}
		r := league.PoolRunner{Registry: s.opts.reg, Log: &logWriter{log: s.log}}
		s.metrics.gamesStarted(len(valid))
		finished := 0
		r.PlayBatch(ctx, valid, workers, func(k int, res league.Result, err error) {
			s.metrics.gameFinished()
			finished++
			i := at[k]
			switch {
			case ctx.Err() != nil:
			case err != nil:
				out[i] = failed(fmt.Errorf("matches[%d]: %w", i, err))
			default:
				out[i] = &botarenav1.PlayOutcome{Outcome: &botarenav1.PlayOutcome_Result{Result: playResponse(res)}}
			}
		})
		s.metrics.gamesDropped(len(valid) - finished)
		for range workers {
			<-s.matchSlots
		}
	}
	if ctx.Err() != nil {
		return nil, connectError(s.log, proc, s.matchCtxErr(ctx))
	}
	// The pool runner stops at a game it cannot play (an agent that cannot
	// be made): the games it left get their own outcome, played alone.
	for i, o := range out {
		if o != nil {
			continue
		}
		resp, err := s.play(ctx, ms[i], fmt.Sprintf("matches[%d]: ", i))
		if err != nil {
			out[i] = failed(err)
			continue
		}
		out[i] = &botarenav1.PlayOutcome{Outcome: &botarenav1.PlayOutcome_Result{Result: resp}}
	}
	if ctx.Err() != nil {
		return nil, connectError(s.log, proc, s.matchCtxErr(ctx))
	}
	if limit := s.opts.maxMessageBytes; limit > 0 {
		size := 0
		for i, o := range out {
			n := protowire.SizeTag(1) + protowire.SizeBytes(proto.Size(o))
			if o.GetResult() != nil && size+n > limit {
				err := markf(errLimit, "matches[%d]: game %d: its result makes the batch's response %.1f MiB, over the server's message limit of %.1f MiB; send fewer recorded games per call (league run --server-batch) or raise the limit (serve --max-message-bytes)",
					i, ms[i].GetIndex(), mib(size+n), mib(limit))
				ce := connectError(s.log, proc, err).(*connect.Error)
				o = &botarenav1.PlayOutcome{Outcome: &botarenav1.PlayOutcome_Error{Error: &botarenav1.MatchError{
					Code: ce.Code().String(), Message: ce.Message(),
				}}}
				out[i] = o
				n = protowire.SizeTag(1) + protowire.SizeBytes(proto.Size(o))
			}
			size += n
		}
	}
	return &botarenav1.PlayBatchResponse{Outcomes: out}, nil
}

// takeSlots waits for one of the server's match slots and takes up to
// want-1 more that are free, returning how many it holds; the caller gives
// them back. Taking the others without waiting keeps concurrent calls from
// deadlocking on each other's partial holdings.
func (s *Server) takeSlots(ctx context.Context, want int) (int, error) {
	select {
	case s.matchSlots <- struct{}{}:
	case <-ctx.Done():
		return 0, s.matchCtxErr(ctx)
	}
	n := 1
	for n < want {
		select {
		case s.matchSlots <- struct{}{}:
			n++
		default:
			return n, nil
		}
	}
	return n, nil
}

// mib converts bytes to MiB.
func mib(n int) float64 { return float64(n) / (1 << 20) }

// matchContext returns ctx, also cancelled by Close before it returns, so
// that every game running then sees the shutdown at its next round; it is
// cancelled at once when the server is closed already. The caller calls
// the returned function when its call ends.
func (s *Server) matchContext(ctx context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(ctx)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		cancel()
		return ctx, cancel
	}
	s.matchCalls++
	id := s.matchCalls
	s.matchCancels[id] = cancel
	return ctx, func() {
		s.mu.Lock()
		delete(s.matchCancels, id)
		s.mu.Unlock()
		cancel()
	}
}

// matchCtxErr is the error of a game stopped by its cancelled context:
// Unavailable when the server is closing (another server may play it),
// else ctx's error.
func (s *Server) matchCtxErr(ctx context.Context) error {
	if s.isClosed() {
		return markf(errShuttingDown, "the server is shutting down")
	}
	return ctx.Err()
}

func (s *Server) isClosed() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.closed
}

// play checks req, waits for a slot and plays the game. prefix starts the
// text of every error (a batch's "matches[i]: "). A panic of the game
// becomes an Internal error.
func (s *Server) play(ctx context.Context, req *botarenav1.PlayRequest, prefix string) (resp *botarenav1.PlayResponse, err error) {
	if s.isClosed() {
		return nil, markf(errShuttingDown, "the server is shutting down")
	}
	m, err := s.match(req, prefix)
	if err != nil {
		return nil, err
	}
	select {
	case s.matchSlots <- struct{}{}:
	case <-ctx.Done():
		return nil, s.matchCtxErr(ctx)
	}
	defer func() { <-s.matchSlots }()
	s.metrics.gamesStarted(1)
	defer s.metrics.gameFinished()
	defer func() {
		if p := recover(); p != nil {
			resp, err = nil, fmt.Errorf("panic in game %d of %s (seed %d): %v", m.Index, m.Game, m.Seed, p)
		}
	}()
	r := league.LocalRunner{Registry: s.opts.reg, Log: &logWriter{log: s.log}}
	res, err := r.Play(ctx, m)
	if err != nil {
		if ctx.Err() != nil {
			return nil, s.matchCtxErr(ctx)
		}
		return nil, fmt.Errorf("%s%w", prefix, err)
	}
	return playResponse(res), nil
}

// match checks req and turns it into a league.Match.
func (s *Server) match(req *botarenav1.PlayRequest, prefix string) (league.Match, error) {
	game := req.GetGame()
	if game == "" {
		return league.Match{}, invalidf("%sgame: required (games: %s)", prefix, strings.Join(s.opts.reg.Names(), ", "))
	}
	if _, err := s.opts.reg.Lookup(game); err != nil {
		return league.Match{}, fmt.Errorf("%s%w", prefix, err)
	}
	if n := req.GetMaxRounds(); n < 0 {
		return league.Match{}, invalidf("%smax_rounds: got %d, want 0 (play to the end) or more", prefix, n)
	}
	if len(req.GetSeats()) == 0 {
		return league.Match{}, invalidf("%sseats: required, one agent per seat", prefix)
	}
	m := league.Match{
		Index:     req.GetIndex(),
		Seed:      req.GetSeed(),
		Game:      game,
		MaxRounds: int(req.GetMaxRounds()),
		Record:    req.GetRecord(),
	}
	if c := req.GetConfigJson(); c != "" {
		m.Config = json.RawMessage(c)
	}
	for seat, st := range req.GetSeats() {
		spec := st.GetSpec()
		if spec == "console" {
			// It would wait for input at the server's terminal.
			return league.Match{}, invalidf("%sseats[%d]: the console agent plays at botarena's own terminal (botarena play), not on a server", prefix, seat)
		}
		if !agents.Known(game, spec) {
			return league.Match{}, fmt.Errorf("%sseats[%d]: %w %q for %s (valid: %s)",
				prefix, seat, agents.ErrUnknownAgent, spec, game, strings.Join(append(agents.Names(game), agents.Schemes(game)...), ", "))
		}
		made, err := s.allowAgent(game, fmt.Sprintf("%sseats[%d]", prefix, seat), spec) // capabilities.go
		if err != nil {
			return league.Match{}, err
		}
		m.Seats = append(m.Seats, league.Entrant{Name: st.GetName(), Spec: made})
	}
	return m, nil
}

// playRequest returns the request that plays m.
func playRequest(m league.Match) *botarenav1.PlayRequest {
	req := &botarenav1.PlayRequest{
		Game:       m.Game,
		ConfigJson: string(m.Config),
		Seed:       m.Seed,
		MaxRounds:  int32(m.MaxRounds),
		Index:      m.Index,
		Record:     m.Record,
	}
	for _, e := range m.Seats {
		req.Seats = append(req.Seats, &botarenav1.MatchSeat{Name: e.Name, Spec: e.Spec})
	}
	return req
}

// playResponse converts a result to its protobuf form, with its Data when
// it has some. The response aliases Data's slices.
func playResponse(r league.Result) *botarenav1.PlayResponse {
	resp := &botarenav1.PlayResponse{
		Index:   r.Index,
		Seed:    r.Seed,
		Rounds:  int32(r.Rounds),
		Winner:  int32(r.Winner),
		Draw:    r.Draw,
		Forfeit: int32(r.Forfeit),
	}
	for _, st := range r.Standings {
		resp.Standings = append(resp.Standings, &botarenav1.MatchStanding{
			Seat: int32(st.Seat), Agent: st.Agent, Rank: int32(st.Rank), Score: st.Score, Alive: st.Alive,
		})
	}
	if d := r.Data; d != nil {
		resp.Data = &botarenav1.MatchData{
			Steps:      int32(d.Steps),
			Agents:     d.Agents,
			Obs:        d.Obs,
			Mask:       d.Mask,
			Action:     d.Action,
			Reward:     d.Reward,
			Terminated: d.Terminated,
			Truncated:  d.Truncated,
		}
	}
	return resp
}

// leagueResult converts a PlayResponse back to a league.Result without its
// Data (see [matchRows]); it is the inverse of [playResponse].
func leagueResult(resp *botarenav1.PlayResponse) league.Result {
	r := league.Result{
		Index:   resp.GetIndex(),
		Seed:    resp.GetSeed(),
		Rounds:  int(resp.GetRounds()),
		Winner:  int(resp.GetWinner()),
		Draw:    resp.GetDraw(),
		Forfeit: int(resp.GetForfeit()),
	}
	for _, st := range resp.GetStandings() {
		r.Standings = append(r.Standings, league.Standing{
			Seat: int(st.GetSeat()), Agent: st.GetAgent(), Rank: int(st.GetRank()), Score: st.GetScore(), Alive: st.GetAlive(),
		})
	}
	return r
}

// matchError turns a batch outcome's error back into the *connect.Error
// the unary Play would have returned.
func matchError(e *botarenav1.MatchError) error {
	var code connect.Code
	if err := code.UnmarshalText([]byte(e.GetCode())); err != nil {
		code = connect.CodeUnknown
	}
	return connect.NewError(code, errors.New(e.GetMessage()))
}

// logWriter logs external bots' fault lines (league.LocalRunner.Log) at
// Warn, one record per write.
type logWriter struct{ log *slog.Logger }

func (w *logWriter) Write(p []byte) (int, error) {
	w.log.Warn("bot", "line", strings.TrimRight(string(p), "\n"))
	return len(p), nil
}
