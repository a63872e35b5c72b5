package web

import (
	"bufio"
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/botarena/botarena/agents"
	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/match"
)

//go:embed static
var static embed.FS

// Defaults of [Options].
const (
	DefaultMaxMatches         = 8
	DefaultMaxRounds          = 5000
	DefaultMaxDuration        = 30 * time.Minute
	DefaultIdleTimeout        = 5 * time.Minute
	DefaultMaxStreamsPerMatch = 4
)

// Options configure a [Server]; zero fields take the defaults.
type Options struct {
	Registry           *env.Registry // env.Default when nil
	MaxMatches         int           // matches at once
	MaxRounds          int           // rounds a match may play
	MaxDuration        time.Duration // wall-clock life of a match from its creation
	IdleTimeout        time.Duration // a match without requests for this long is forgotten
	MaxStreamsPerMatch int           // event streams open at once per match
}

// Server serves the viewer. It is safe for concurrent use.
type Server struct {
	opt Options
	mux *http.ServeMux

	mu      sync.Mutex
	matches map[string]*liveMatch
	nextID  uint64
	closed  bool
}

// liveMatch is the recipe of one live match.
type liveMatch struct {
	id      string
	game    string
	agents  []string
	seed    uint64
	created time.Time

	mu      sync.Mutex
	used    time.Time
	streams int
	played  int // the most rounds any request has played
}

// NewServer returns a viewer server with opt.
func NewServer(opt Options) *Server {
	if opt.Registry == nil {
		opt.Registry = env.Default
	}
	if opt.MaxMatches <= 0 {
		opt.MaxMatches = DefaultMaxMatches
	}
	if opt.MaxRounds <= 0 {
		opt.MaxRounds = DefaultMaxRounds
	}
	if opt.MaxDuration <= 0 {
		opt.MaxDuration = DefaultMaxDuration
	}
	if opt.IdleTimeout <= 0 {
		opt.IdleTimeout = DefaultIdleTimeout
	}
	if opt.MaxStreamsPerMatch <= 0 {
		opt.MaxStreamsPerMatch = DefaultMaxStreamsPerMatch
	}
	s := &Server{opt: opt, matches: map[string]*liveMatch{}}
	sub, _ := fs.Sub(static, "static")
	files := http.FileServerFS(sub)
	m := http.NewServeMux()
	m.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-cache")
		http.ServeFileFS(w, r, sub, "index.html")
	})
	m.Handle("GET /viewer/", http.StripPrefix("/viewer/", files))
	m.HandleFunc("GET /api/catalog", s.catalog)
	m.HandleFunc("POST /api/matches", s.create)
	m.HandleFunc("GET /api/matches/{id}/events", s.events)
	m.HandleFunc("GET /api/matches/{id}/frame", s.frame)
	m.HandleFunc("GET /api/matches/{id}/record", s.record)
	s.mux = m
	return s
}

// Handler returns a handler that serves the viewer's routes and passes
// every other request to next (404 when next is nil).
func (s *Server) Handler(next http.Handler) http.Handler {
	if next == nil {
		next = http.NotFoundHandler()
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := r.URL.Path
		if p == "/" || strings.HasPrefix(p, "/viewer/") || p == "/api/catalog" || p == "/api/matches" || strings.HasPrefix(p, "/api/matches/") {
			s.mux.ServeHTTP(w, r)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// ServeHTTP serves the viewer's routes alone (404 for anything else).
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.mux.ServeHTTP(w, r) }

// Close forgets every match; open streams end at their next round.
func (s *Server) Close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	clear(s.matches)
}

// GameInfo is one entry of GET /api/catalog.
type GameInfo struct {
	Name     string   `json:"name"`
	Seats    int      `json:"seats"`
	MaxSteps int      `json:"max_steps"`
	Formats  []string `json:"formats"`
	Agents   []string `json:"agents"`  // built-in agents the viewer may play
	Default  string   `json:"default"` // the agent the page picks first
}

// watchable reports whether agent name of game may play in the viewer:
// in-process, deterministic, and not waiting for a person.
func watchable(game, name string) bool {
	return name != "console" && agents.InProcess(game, name)
}

func defaultAgent(names []string) string {
	for _, n := range []string{"reference", "sniper", "teebot", "greedy", "random"} {
		if slices.Contains(names, n) {
			return n
		}
	}
	if len(names) > 0 {
		return names[0]
	}
	return ""
}

func (s *Server) catalog(w http.ResponseWriter, r *http.Request) {
	var games []GameInfo
	for _, name := range s.opt.Registry.Names() {
		e, err := s.opt.Registry.Make(name, nil)
		if err != nil {
			continue
		}
		c, err := env.CodecOf(e)
		if err != nil {
			continue // the viewer draws native states
		}
		var names []string
		for _, a := range agents.Names(name) {
			if watchable(name, a) {
				names = append(names, a)
			}
		}
		games = append(games, GameInfo{Name: name, Seats: e.Spec().Seats, MaxSteps: e.Spec().MaxSteps,
			Formats: c.NativeFormats(), Agents: names, Default: defaultAgent(names)})
	}
	writeJSON(w, http.StatusOK, map[string]any{"games": games, "limits": map[string]any{
		"max_matches": s.opt.MaxMatches, "max_rounds": s.opt.MaxRounds, "max_duration_s": s.opt.MaxDuration.Seconds()}})
}

// createRequest is the body of POST /api/matches.
type createRequest struct {
	Game   string   `json:"game"`
	Agents []string `json:"agents"` // one per seat; missing seats get the game's default agent
	Seed   uint64   `json:"seed"`
}

func (s *Server) create(w http.ResponseWriter, r *http.Request) {
	var req createRequest
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<16))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		httpError(w, http.StatusBadRequest, "bad request body: "+err.Error())
		return
	}
	e, err := s.opt.Registry.Make(req.Game, nil)
	if err != nil {
		httpError(w, http.StatusNotFound, err.Error())
		return
	}
	if _, err := env.CodecOf(e); err != nil {
		httpError(w, http.StatusBadRequest, err.Error())
		return
	}
	seats := e.Spec().Seats
	if len(req.Agents) > seats {
		httpError(w, http.StatusBadRequest, fmt.Sprintf("%s has %d seats, got %d agents", req.Game, seats, len(req.Agents)))
		return
	}
	var names []string
	for _, a := range agents.Names(req.Game) {
		if watchable(req.Game, a) {
			names = append(names, a)
		}
	}
	list := make([]string, seats)
	for seat := range list {
		if seat < len(req.Agents) && req.Agents[seat] != "" {
			list[seat] = req.Agents[seat]
		} else {
			list[seat] = defaultAgent(names)
		}
		if !slices.Contains(names, list[seat]) {
			httpError(w, http.StatusBadRequest, fmt.Sprintf("seat %d: agent %q cannot play %s in the viewer (valid: %s)", seat, list[seat], req.Game, strings.Join(names, ", ")))
			return
		}
	}
	now := time.Now()
	s.mu.Lock()
	s.prune(now)
	if s.closed {
		s.mu.Unlock()
		httpError(w, http.StatusServiceUnavailable, "the server is shutting down")
		return
	}
	if len(s.matches) >= s.opt.MaxMatches {
		s.mu.Unlock()
		w.Header().Set("Retry-After", "60")
		httpError(w, http.StatusTooManyRequests, fmt.Sprintf("too many live matches: at most %d at once; try again when one ends (a match is forgotten %v after its last request, %v after it started)", s.opt.MaxMatches, s.opt.IdleTimeout, s.opt.MaxDuration))
		return
	}
	s.nextID++
	m := &liveMatch{id: strconv.FormatUint(s.nextID, 10), game: req.Game, agents: list, seed: req.Seed, created: now, used: now}
	s.matches[m.id] = m
	s.mu.Unlock()
	writeJSON(w, http.StatusCreated, map[string]any{"id": m.id, "game": m.game, "agents": m.agents, "seed": m.seed,
		"seats": seats, "max_rounds": min(s.opt.MaxRounds, match.RoundLimit(e.Spec()))})
}

// prune forgets expired and idle matches; s.mu is held.
func (s *Server) prune(now time.Time) {
	for id, m := range s.matches {
		m.mu.Lock()
		idle := m.streams == 0 && now.Sub(m.used) > s.opt.IdleTimeout
		m.mu.Unlock()
		if idle || now.Sub(m.created) > s.opt.MaxDuration {
			delete(s.matches, id)
		}
	}
}

// lookup returns the match of the request's id, or answers 404.
func (s *Server) lookup(w http.ResponseWriter, r *http.Request) *liveMatch {
	now := time.Now()
	s.mu.Lock()
	s.prune(now)
	m := s.matches[r.PathValue("id")]
	s.mu.Unlock()
	if m == nil {
		httpError(w, http.StatusNotFound, fmt.Sprintf("no live match %q (matches end %v after they start and %v after their last request)", r.PathValue("id"), s.opt.MaxDuration, s.opt.IdleTimeout))
		return nil
	}
	m.mu.Lock()
	m.used = now
	m.mu.Unlock()
	return m
}

func (s *Server) live(m *liveMatch) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.matches[m.id] == m && time.Since(m.created) <= s.opt.MaxDuration
}

// Frame is one round of a match, as streamed, fetched and recorded.
type Frame struct {
	Game   string          `json:"game"`
	Seats  int             `json:"seats"`
	Round  int             `json:"round"`
	Format string          `json:"format"`
	State  json.RawMessage `json:"state"`
	Seat   int             `json:"seat"`
	View   json.RawMessage `json:"view,omitempty"`
	Result env.Result      `json:"result"`
	Done   bool            `json:"done"`
	// Forfeit is the seat whose agent forfeited (it panicked; the match
	// runner's failure policy puts it last in Result), absent when none.
	Forfeit *int `json:"forfeit,omitempty"`
}

// play is one playing of a match from its start, by the match runner.
type play struct {
	game    string
	g       *match.Match
	codec   env.Codec // g.Env's
	limit   int
	buf     []byte
	forfeit *match.Result // the result, once an agent forfeited
}

// errGone ends a playing whose client went away or whose frame failed.
var errGone = errors.New("web: the client went away")

// start makes a playing of m: its env and agents, not yet reset (see run).
// The caller closes its agents (p.g.Close).
func (s *Server) start(m *liveMatch) (*play, error) {
	e, err := s.opt.Registry.Make(m.game, nil)
	if err != nil {
		return nil, err
	}
	codec, err := env.CodecOf(e)
	if err != nil {
		return nil, err
	}
	ags, err := match.NewAgents(m.game, m.agents, e.Spec(), nil, nil)
	if err != nil {
		return nil, err
	}
	limit := min(s.opt.MaxRounds, match.RoundLimit(e.Spec()))
	return &play{game: m.game, limit: limit, codec: codec, g: &match.Match{Env: e, Agents: ags, Seed: m.seed, MaxRounds: limit}}, nil
}

// run plays the match from its start with the match runner, calling state
// with every state until it returns an error (match.ErrStop ends the
// playing there without one) or the playing is over. It returns ctx's
// error, or state's other than match.ErrStop.
func (p *play) run(ctx context.Context, state func(round int) error) error {
	p.g.Hooks.State = func(_ env.Env, round int) error { return state(round) }
	res, err := p.g.Run(ctx)
	if err == nil && res.Forfeit >= 0 {
		p.forfeit = &res
	}
	return err
}

// over reports whether the playing has no round after the current one.
func (p *play) over() bool {
	return p.forfeit != nil || p.g.Env.Done() || p.g.Env.Steps() >= p.limit
}

// native returns the canonical state as seat sees it, as JSON.
func (p *play) native(seat int) (json.RawMessage, error) {
	format := p.codec.NativeFormats()[0]
	var err error
	p.buf, err = p.codec.AppendNative(p.buf[:0], format, seat)
	if err != nil {
		return nil, err
	}
	if strings.HasSuffix(format, ".json") && json.Valid(p.buf) {
		return slices.Clone(p.buf), nil
	}
	return json.Marshal(string(p.buf))
}

// frame returns the current round as a frame, with seat's view when seat
// is not -1.
func (p *play) frame(seat int) (*Frame, error) {
	state, err := p.native(-1)
	if err != nil {
		return nil, err
	}
	e := p.g.Env
	f := &Frame{Game: p.game, Seats: e.Spec().Seats, Round: e.Steps(), Format: p.codec.NativeFormats()[0],
		State: state, Seat: seat, Result: e.Result(), Done: p.over()}
	if p.forfeit != nil {
		f.Result, f.Forfeit = p.forfeit.Result, &p.forfeit.Forfeit
	}
	if seat >= 0 {
		if f.View, err = p.native(seat); err != nil {
			return nil, err
		}
	}
	return f, nil
}

func (m *liveMatch) reached(round int) {
	m.mu.Lock()
	m.played = max(m.played, round)
	m.mu.Unlock()
}

func intParam(r *http.Request, name string, def, lo, hi int) (int, error) {
	v := r.URL.Query().Get(name)
	if v == "" {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < lo || n > hi {
		return 0, fmt.Errorf("%s: want an integer in %d..%d, got %q", name, lo, hi, v)
	}
	return n, nil
}

func seatParam(r *http.Request, seats int) (int, error) {
	return intParam(r, "seat", -1, -1, seats-1)
}

func (s *Server) frame(w http.ResponseWriter, r *http.Request) {
	m := s.lookup(w, r)
	if m == nil {
		return
	}
	p, err := s.start(m)
	if err != nil {
		httpError(w, http.StatusInternalServerError, err.Error())
		return
	}
	defer p.g.Close()
	round, err := intParam(r, "round", 0, 0, p.limit)
	if err != nil {
		httpError(w, http.StatusBadRequest, err.Error())
		return
	}
	seat, err := seatParam(r, len(m.agents))
	if err != nil {
		httpError(w, http.StatusBadRequest, err.Error())
		return
	}
	err = p.run(r.Context(), func(at int) error {
		if at >= round {
			return match.ErrStop
		}
		return nil
	})
	if err != nil {
		return // the client went away
	}
	m.reached(p.g.Env.Steps())
	f, err := p.frame(seat)
	if err != nil {
		httpError(w, http.StatusInternalServerError, err.Error())
		return
	}
	writeJSON(w, http.StatusOK, f)
}

func (s *Server) record(w http.ResponseWriter, r *http.Request) {
	m := s.lookup(w, r)
	if m == nil {
		return
	}
	p, err := s.start(m)
	if err != nil {
		httpError(w, http.StatusInternalServerError, err.Error())
		return
	}
	defer p.g.Close()
	m.mu.Lock()
	last := m.played
	m.mu.Unlock()
	w.Header().Set("Content-Type", "application/x-ndjson")
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="%s-%d.jsonl"`, strings.ReplaceAll(m.game, "/", "_"), m.seed))
	bw := bufio.NewWriter(w)
	defer bw.Flush()
	enc := json.NewEncoder(bw)
	write := func() error {
		f, err := p.frame(-1)
		if err != nil || enc.Encode(f) != nil || r.Context().Err() != nil {
			return errGone
		}
		return nil
	}
	err = p.run(r.Context(), func(round int) error {
		if err := write(); err != nil {
			return err
		}
		if p.over() || round >= last {
			return match.ErrStop
		}
		return nil
	})
	if err == nil && p.forfeit != nil {
		write() // the final frame, the forfeit in its result
	}
}

// events streams frames from ?from= on, at ?speed= rounds per second (0:
// as fast as the connection takes them), each with ?seat='s view when
// given, until the match is over ("end" event), the match expires, or the
// client goes away.
func (s *Server) events(w http.ResponseWriter, r *http.Request) {
	m := s.lookup(w, r)
	if m == nil {
		return
	}
	from, err := intParam(r, "from", 0, 0, s.opt.MaxRounds)
	if err != nil {
		httpError(w, http.StatusBadRequest, err.Error())
		return
	}
	speed, err := intParam(r, "speed", 10, 0, 1000)
	if err != nil {
		httpError(w, http.StatusBadRequest, err.Error())
		return
	}
	seat, err := seatParam(r, len(m.agents))
	if err != nil {
		httpError(w, http.StatusBadRequest, err.Error())
		return
	}
	fl, ok := w.(http.Flusher)
	if !ok {
		httpError(w, http.StatusInternalServerError, "streaming unsupported")
		return
	}
	m.mu.Lock()
	if m.streams >= s.opt.MaxStreamsPerMatch {
		m.mu.Unlock()
		httpError(w, http.StatusTooManyRequests, fmt.Sprintf("match %s already has %d streams open", m.id, s.opt.MaxStreamsPerMatch))
		return
	}
	m.streams++
	m.mu.Unlock()
	defer func() {
		m.mu.Lock()
		m.streams--
		m.used = time.Now()
		m.mu.Unlock()
	}()

	p, err := s.start(m)
	if err != nil {
		httpError(w, http.StatusInternalServerError, err.Error())
		return
	}
	defer p.g.Close()
	ctx := r.Context()
	var tick <-chan time.Time
	var ticker *time.Ticker
	defer func() {
		if ticker != nil {
			ticker.Stop()
		}
	}()
	started := false
	begin := func() {
		h := w.Header()
		h.Set("Content-Type", "text/event-stream")
		h.Set("Cache-Control", "no-cache")
		h.Set("X-Accel-Buffering", "no")
		w.WriteHeader(http.StatusOK)
		if speed > 0 {
			ticker = time.NewTicker(time.Second / time.Duration(speed))
			tick = ticker.C
		}
		started = true
	}
	// send streams the current round; match.ErrStop once the stream ended.
	send := func() error {
		f, err := p.frame(seat)
		if err != nil {
			fmt.Fprintf(w, "event: failure\ndata: %s\n\n", mustJSON(map[string]string{"error": err.Error()}))
			fl.Flush()
			return errGone
		}
		m.reached(f.Round)
		fmt.Fprintf(w, "id: %d\ndata: %s\n\n", f.Round, mustJSON(f))
		if f.Done {
			fmt.Fprintf(w, "event: end\ndata: %s\n\n", mustJSON(map[string]any{"reason": "over", "round": f.Round}))
			fl.Flush()
			return match.ErrStop
		}
		fl.Flush()
		if !s.live(m) {
			fmt.Fprintf(w, "event: end\ndata: %s\n\n", mustJSON(map[string]any{"reason": "the match expired", "round": f.Round}))
			fl.Flush()
			return match.ErrStop
		}
		if tick != nil {
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-tick:
			}
		}
		return nil
	}
	err = p.run(ctx, func(round int) error {
		if round < from && !p.over() {
			return nil // seeking
		}
		if !started {
			begin()
		}
		return send()
	})
	if err == nil && p.forfeit != nil {
		if !started {
			begin()
		}
		send() // the final frame, the forfeit in its result
	}
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		b, _ = json.Marshal(map[string]string{"error": err.Error()})
	}
	return b
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	w.Write(mustJSON(v))
}

// httpError answers code with {"error": msg}.
func httpError(w http.ResponseWriter, code int, msg string) {
	writeJSON(w, code, map[string]string{"error": msg})
}
