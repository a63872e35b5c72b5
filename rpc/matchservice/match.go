package matchservice

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"

	"connectrpc.com/connect"

	"github.com/botarena/botarena/agents"
	"github.com/botarena/botarena/league"
	"github.com/botarena/botarena/match"
	botarenav1 "github.com/botarena/botarena/rpc/gen/botarena/v1"
	"github.com/botarena/botarena/rpc/gen/botarena/v1/botarenav1connect"
	"github.com/botarena/botarena/rpc/server"
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
// call: a response must fit the server's send limit (server.WithMaxMessageBytes,
// 256 MiB by default), and the client's read limit (connect-go's default
// is no limit; client.Dial and [RemoteRunner] set 256 MiB,
// client.DefaultMaxMessageBytes).
// A PlayBatch response holds every game of the batch, so [RemoteRunner]
// sends fewer recorded games per call when their data could exceed its
// limit. The server refuses, before playing anything, a recorded game
// whose data bound ([dataBound]: every seat's row for every step up to the
// game's step cap or max_rounds, the bound RemoteRunner packs its calls
// by) would take the response over its limit, or whose recording does not
// fit the memory budget (see budget.go): ResourceExhausted, for Play, and
// for PlayBatch that game's outcome rather than the whole call. Recordings
// are never truncated. The actual size is still checked after the games.
// Both checks size the response in the call's encoding (budget.go's
// callEncoding): over Connect or gRPC with JSON, a recorded game's response
// is larger than in binary protobuf, and a batch admitted by its binary size
// would fail as a whole when marshalled.

// Play plays one game with league.LocalRunner and returns its result, with
// its per-step data when req.record is set: the game must exist
// (NotFound), the seats' agents must exist (NotFound) and be built-in
// unless the server allows external agents (PermissionDenied), and the
// config, seat count and max_rounds must be valid (InvalidArgument). A
// recorded game whose data could exceed the server's message limit, and a
// game that does not fit the memory budget or the client's quota, is
// ResourceExhausted before it is played.
func (s *Server) Play(ctx context.Context, req *botarenav1.PlayRequest) (*botarenav1.PlayResponse, error) {
	enc := callEncoding(ctx) // responses are sized in it (budget.go)
	ctx, done := s.matchContext(ctx)
	defer done()
	// The memory budget and message limit (budget.go): a recorded game
	// whose data could not fit is refused before it is played.
	mem, err := s.admitPlay(ctx, req, enc)
	var resp *botarenav1.PlayResponse
	if err == nil {
		resp, err = s.play(ctx, req, "")
		mem.Release()
	}
	if err == nil {
		if n, limit := enc.size(resp), s.host.MaxMessageBytes(); limit > 0 && n > limit {
			resp, err = nil, server.Markf(server.ErrLimit, "game %d: its match data makes a response of %.1f MiB, over the server's message limit of %.1f MiB; cap the rounds (league run --max-rounds) or raise the limit (serve --max-message-bytes)",
				req.GetIndex(), mib(n), mib(limit))
		}
	}
	return resp, s.connectError(botarenav1connect.MatchServicePlayProcedure, err)
}

// PlayBatch plays the request's games as a league run does, with
// league.PoolRunner: those of in-process agents on vecenv pools, one per
// worker (as many workers as the server's free MaxMatches slots, at least
// one), each playing several games with their policies' decisions
// batched, and those with external bots one per worker. It returns one outcome per game
// in request order: its result, or the error Play would have returned for it
// (its message prefixed with "matches[i]: "). The call itself fails only
// when the server is shutting down (Unavailable) or the client went away
// (Canceled). The response must fit the server's message limit in the
// call's encoding (binary or JSON): a recorded game whose data bound would
// take the response over it gets a ResourceExhausted outcome instead,
// before any game is played, as do the games after it that do not fit
// either; so does a recorded game whose recording does not fit the memory
// budget or the client's quota (and every game when the games played at
// once do not).
func (s *Server) PlayBatch(ctx context.Context, req *botarenav1.PlayBatchRequest) (*botarenav1.PlayBatchResponse, error) {
	enc := callEncoding(ctx) // responses are sized in it (budget.go)
	ctx, done := s.matchContext(ctx)
	defer done()
	proc := botarenav1connect.MatchServicePlayBatchProcedure
	if s.isClosed() {
		return nil, s.connectError(proc, server.Markf(server.ErrShuttingDown, "the server is shutting down"))
	}
	ms := req.GetMatches()
	out := make([]*botarenav1.PlayOutcome, len(ms))
	failed := func(err error) *botarenav1.PlayOutcome {
		ce := s.connectError(proc, err).(*connect.Error)
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
	mem, valid, at := s.admitBatch(ctx, enc, ms, valid, at, out, failed)
	defer mem.Release()
	if len(valid) > 0 {
		workers, err := s.takeSlots(ctx, min(len(valid), s.opts.maxMatches))
		if err != nil {
			return nil, s.connectError(proc, err)
		}
		r := league.PoolRunner{Registry: s.host.Registry(), Log: &logWriter{log: s.log}}
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
		return nil, s.connectError(proc, s.matchCtxErr(ctx))
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
		return nil, s.connectError(proc, s.matchCtxErr(ctx))
	}
	if limit := s.host.MaxMessageBytes(); limit > 0 {
		size := 16 // JSON's {"outcomes":[]}
		for i, o := range out {
			n := enc.elementSize(o)
			if o.GetResult() != nil && size+n > limit {
				err := server.Markf(server.ErrLimit, "matches[%d]: game %d: its result makes the batch's response %.1f MiB in %s, over the server's message limit of %.1f MiB; send fewer recorded games per call (league run --server-batch) or raise the limit (serve --max-message-bytes)",
					i, ms[i].GetIndex(), mib(size+n), enc, mib(limit))
				ce := s.connectError(proc, err).(*connect.Error)
				o = &botarenav1.PlayOutcome{Outcome: &botarenav1.PlayOutcome_Error{Error: &botarenav1.MatchError{
					Code: ce.Code().String(), Message: ce.Message(),
				}}}
				out[i] = o
				n = enc.elementSize(o)
			}
			size += n
		}
	}
	return &botarenav1.PlayBatchResponse{Outcomes: out}, nil
}

// mib converts bytes to MiB.
func mib(n int) float64 { return float64(n) / (1 << 20) }

// play checks req, waits for a slot and plays the game. prefix starts the
// text of every error (a batch's "matches[i]: "). A panic of the game
// becomes an Internal error.
func (s *Server) play(ctx context.Context, req *botarenav1.PlayRequest, prefix string) (resp *botarenav1.PlayResponse, err error) {
	if s.isClosed() {
		return nil, server.Markf(server.ErrShuttingDown, "the server is shutting down")
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
	r := league.LocalRunner{Registry: s.host.Registry(), Log: &logWriter{log: s.log}}
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
		return league.Match{}, server.Invalidf("%sgame: required (games: %s)", prefix, strings.Join(s.host.Registry().Names(), ", "))
	}
	if _, err := s.host.Registry().Lookup(game); err != nil {
		return league.Match{}, fmt.Errorf("%s%w", prefix, err)
	}
	if n := req.GetMaxRounds(); n < 0 {
		return league.Match{}, server.Invalidf("%smax_rounds: got %d, want 0 (play to the end) or more", prefix, n)
	}
	if len(req.GetSeats()) == 0 {
		return league.Match{}, server.Invalidf("%sseats: required, one agent per seat", prefix)
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
			return league.Match{}, server.Invalidf("%sseats[%d]: the console agent plays at botarena's own terminal (botarena play), not on a server", prefix, seat)
		}
		if !agents.Known(game, spec) {
			return league.Match{}, fmt.Errorf("%sseats[%d]: %w %q for %s (valid: %s)",
				prefix, seat, agents.ErrUnknownAgent, spec, game, strings.Join(append(agents.Names(game), agents.Schemes(game)...), ", "))
		}
		made, err := s.host.AllowAgent(game, fmt.Sprintf("%sseats[%d]", prefix, seat), spec) // capabilities.go
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
		Index:     r.Index,
		Seed:      r.Seed,
		Rounds:    int32(r.Rounds),
		Winner:    int32(r.Winner),
		Draw:      r.Draw,
		Forfeit:   int32(r.ForfeitSeat()),
		Standings: standingsProto(r.StandingLines()),
	}
	if d := r.Data; d != nil {
		resp.Data = &botarenav1.MatchData{
			Steps:      int32(d.Steps),
			Agents:     d.Agents,
			Obs:        d.Obs,
			Mask:       d.Mask,
			Action:     d.Action,
			Label:      d.Label,
			Reward:     d.Reward,
			Terminated: d.Terminated,
			Truncated:  d.Truncated,
		}
	}
	return resp
}

// leagueResult converts a PlayResponse back to a league.Result without its
// Data (see [matchRows]): [playResponse]'s inverse for what the response
// carries (league.GameLine.Record: not the game's name).
func leagueResult(resp *botarenav1.PlayResponse) league.Result {
	st := make([]league.StandingLine, len(resp.GetStandings()))
	for i, p := range resp.GetStandings() {
		f := p.GetFaults()
		st[i] = league.StandingLine{
			Seat: int(p.GetSeat()), Agent: p.GetAgent(), Rank: int(p.GetRank()), Score: p.GetScore(), Alive: p.GetAlive(), Death: p.GetDeath(),
			Faults: match.Faults{TimedOut: int(f.GetTimedOut()), Crashed: int(f.GetCrashed()), Invalid: int(f.GetInvalid())},
		}
		for _, a := range p.GetActions() {
			st[i].Actions.Kinds, st[i].Actions.N = append(st[i].Actions.Kinds, a.GetKind()), append(st[i].Actions.N, float64(a.GetCount()))
		}
	}
	line := league.GameLine{Index: resp.GetIndex(), Seed: resp.GetSeed(), Rounds: int(resp.GetRounds()), Winner: int(resp.GetWinner()),
		Draw: resp.GetDraw(), Standings: st, Forfeit: int(resp.GetForfeit())}
	return line.Record().Result
}

// standingsProto converts standings to their protobuf form, each with its
// fault counts when it has some, its actions by kind and its death cause; [leagueResult]
// converts them back.
func standingsProto(st []league.StandingLine) []*botarenav1.MatchStanding {
	out := make([]*botarenav1.MatchStanding, len(st))
	for i, s := range st {
		p := &botarenav1.MatchStanding{
			Seat: int32(s.Seat), Agent: s.Agent, Rank: int32(s.Rank), Score: s.Score, Alive: s.Alive, Death: s.Death,
		}
		if f := s.Faults; f != (match.Faults{}) {
			p.Faults = &botarenav1.SeatFaults{TimedOut: int32(f.TimedOut), Crashed: int32(f.Crashed), Invalid: int32(f.Invalid)}
		}
		for k, kind := range s.Actions.Kinds {
			p.Actions = append(p.Actions, &botarenav1.ActionCount{Kind: kind, Count: int32(s.Actions.N[k])})
		}
		out[i] = p
	}
	return out
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
