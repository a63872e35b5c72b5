package web

import (
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/botarena/botarena/agents"
	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/env/picture"
	"github.com/botarena/botarena/match"
)

//go:embed static
var static embed.FS

// Defaults of [Options].
const (
	DefaultMaxMatches         = 8
	DefaultMaxReplays         = 16
	DefaultMaxRounds          = 5000
	DefaultMaxDuration        = 30 * time.Minute
	DefaultIdleTimeout        = 5 * time.Minute
	DefaultMaxStreamsPerMatch = 4
	DefaultMaxReplayBytes     = 1 << 30  // a recording, a replay folder's state file, a match data file
	DefaultMaxUploadBytes     = 64 << 20 // a recording sent by the page
	DefaultMaxStateBytes      = 16 << 20 // one state: a replay folder's state file, a recording's line
	DefaultMaxListed          = 1000     // replays or leagues listed at once
	DefaultMaxFramesPerMatch  = 4        // frame and recording requests at once per match or replay
	DefaultMaxClientRequests  = 8        // frames, streams, downloads, uploads and opens at once per client
	DefaultWriteTimeout       = time.Minute
	DefaultMaxMemory          = 1 << 30 // the budget of a viewer served alone (NewMemory)
)

// Options configure a [Server]; zero fields take the defaults.
type Options struct {
	Registry           *env.Registry // env.Default when nil
	MaxMatches         int           // live matches at once
	MaxReplays         int           // opened replays at once
	MaxRounds          int           // rounds a match or replay may play
	MaxDuration        time.Duration // wall-clock life of a match or replay from its creation
	IdleTimeout        time.Duration // a match or replay without requests for this long is forgotten
	MaxStreamsPerMatch int           // event streams open at once per match or replay
	MaxFramesPerMatch  int           // frame and recording requests running at once per match or replay
	MaxClientRequests  int           // frame, stream, recording, upload and open requests running at once per client (IP address)
	// WriteTimeout bounds how long a client may take to take a response,
	// and each frame of a stream or line of a download: past it the
	// request ends.
	WriteTimeout time.Duration

	// Memory is the budget the viewer charges what it reads and parses to
	// (see memory.go): serve passes the host's, --max-memory. Nil gives
	// the viewer a budget of its own of DefaultMaxMemory bytes.
	Memory Memory

	// ReplaysDir is the folder whose recordings, replay folders and match
	// data the page lists and opens (serve --replays-dir); none when
	// empty. Nothing outside it is read (see the package documentation).
	ReplaysDir string
	// MaxReplayBytes bounds a recording file, a replay folder's state file
	// and a match data file read from ReplaysDir; MaxUploadBytes a
	// recording sent by the page.
	MaxReplayBytes int64
	MaxUploadBytes int64
	// MaxStateBytes bounds one state the viewer loads into a game: a
	// replay folder's state file, a line of a recording. Reading one costs
	// up to 32 times its size (stateParseFactor), charged to Memory, so a
	// state may also have at most Memory.Limit() / 32 bytes.
	MaxStateBytes int64
	// LeaguesDir is the folder whose leagues the league page shows (serve
	// --leagues-dir): each league is a folder under it holding a league
	// store; none when empty.
	LeaguesDir string
	// MaxListed bounds the replays, the leagues and the policies listed
	// at once.
	MaxListed int
	// PolicyDirs are the folders whose policy files (*.policy.safetensors)
	// the page offers as agents of the games they fit (see policies.go):
	// serve's --bots-dir folders and the repository's policies/. None
	// when empty.
	PolicyDirs []string
}

// Server serves the viewer. It is safe for concurrent use.
type Server struct {
	opt     Options
	mux     http.Handler
	replays *os.Root // Options.ReplaysDir opened, or nil
	stats   stats
	mem     Memory
	// stateCap is the most bytes one state may have: MaxStateBytes,
	// MaxReplayBytes and what Memory can pay for.
	stateCap int64
	folders  []string // the replays and leagues folders as an error may name them

	models policyModels // policies.go

	mu       sync.Mutex
	sessions map[string]*session
	clients  map[string]int // requests running per client (admit)
	nextID   uint64
	closed   bool
}

// stats are the counters of [Server.Stats].
type stats struct {
	matchesStarted, replaysOpened, framesSent, refused atomic.Int64
}

// Stats are counters and gauges of a [Server], for metrics.
type Stats struct {
	Matches, Replays, Streams     int   // open now
	MatchesStarted, ReplaysOpened int64 // since the start
	FramesSent                    int64 // frames streamed, fetched and recorded
	Refused                       int64 // matches and replays refused at a limit
}

// NewServer returns a viewer server with opt. It returns an error when
// opt.ReplaysDir or opt.LeaguesDir is not a folder.
func NewServer(opt Options) (*Server, error) {
	if opt.Registry == nil {
		opt.Registry = env.Default
	}
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&opt.MaxMatches, DefaultMaxMatches)
	def(&opt.MaxReplays, DefaultMaxReplays)
	def(&opt.MaxRounds, DefaultMaxRounds)
	def(&opt.MaxStreamsPerMatch, DefaultMaxStreamsPerMatch)
	def(&opt.MaxListed, DefaultMaxListed)
	def(&opt.MaxFramesPerMatch, DefaultMaxFramesPerMatch)
	def(&opt.MaxClientRequests, DefaultMaxClientRequests)
	if opt.WriteTimeout <= 0 {
		opt.WriteTimeout = DefaultWriteTimeout
	}
	if opt.MaxStateBytes <= 0 {
		opt.MaxStateBytes = DefaultMaxStateBytes
	}
	if opt.Memory == nil {
		opt.Memory = NewMemory(DefaultMaxMemory)
	}
	if opt.MaxDuration <= 0 {
		opt.MaxDuration = DefaultMaxDuration
	}
	if opt.IdleTimeout <= 0 {
		opt.IdleTimeout = DefaultIdleTimeout
	}
	if opt.MaxReplayBytes <= 0 {
		opt.MaxReplayBytes = DefaultMaxReplayBytes
	}
	if opt.MaxUploadBytes <= 0 {
		opt.MaxUploadBytes = DefaultMaxUploadBytes
	}
	s := &Server{opt: opt, sessions: map[string]*session{}, clients: map[string]int{}, mem: opt.Memory,
		folders: folderNames(opt.ReplaysDir, opt.LeaguesDir)}
	s.stateCap = max(1, min(opt.MaxStateBytes, opt.MaxReplayBytes, s.mem.Limit()/stateParseFactor))
	if opt.ReplaysDir != "" {
		root, err := os.OpenRoot(opt.ReplaysDir)
		if err != nil {
			return nil, fmt.Errorf("replays folder: %w", err)
		}
		s.replays = root
	}
	if opt.LeaguesDir != "" {
		if st, err := os.Stat(opt.LeaguesDir); err != nil || !st.IsDir() {
			if s.replays != nil {
				s.replays.Close()
			}
			return nil, fmt.Errorf("leagues folder %s: not a folder", opt.LeaguesDir)
		}
	}
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
	m.HandleFunc("GET /api/replays", s.listReplays)
	m.HandleFunc("POST /api/replays", s.openReplay)
	m.HandleFunc("POST /api/replays/upload", s.uploadReplay)
	m.HandleFunc("GET /api/leagues", s.listLeagues)
	m.HandleFunc("GET /api/leagues/table", s.leagueTable)
	s.mux = s.deadlines(m)
	return s, nil
}

// Handler returns a handler that serves the viewer's routes and passes
// every other request to next (404 when next is nil).
func (s *Server) Handler(next http.Handler) http.Handler {
	if next == nil {
		next = http.NotFoundHandler()
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if viewerPath(r.URL.Path) {
			s.mux.ServeHTTP(w, r)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// viewerPath reports whether p is one of the viewer's routes.
func viewerPath(p string) bool {
	if p == "/" || strings.HasPrefix(p, "/viewer/") || p == "/api/catalog" {
		return true
	}
	for _, prefix := range []string{"/api/matches", "/api/replays", "/api/leagues"} {
		if p == prefix || strings.HasPrefix(p, prefix+"/") {
			return true
		}
	}
	return false
}

// ServeHTTP serves the viewer's routes alone (404 for anything else).
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.mux.ServeHTTP(w, r) }

// Close forgets every match and replay; open streams end at their next
// round.
func (s *Server) Close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	for _, m := range s.sessions {
		m.forget()
	}
	clear(s.sessions)
	if s.replays != nil {
		s.replays.Close()
	}
}

// Stats returns the server's counters and gauges now.
func (s *Server) Stats() Stats {
	st := Stats{MatchesStarted: s.stats.matchesStarted.Load(), ReplaysOpened: s.stats.replaysOpened.Load(),
		FramesSent: s.stats.framesSent.Load(), Refused: s.stats.refused.Load()}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, m := range s.sessions {
		if m.replay {
			st.Replays++
		} else {
			st.Matches++
		}
		m.mu.Lock()
		st.Streams += m.streams
		m.mu.Unlock()
	}
	return st
}

// GameInfo is one entry of GET /api/catalog.
type GameInfo struct {
	Name     string   `json:"name"`
	Seats    int      `json:"seats"`
	MaxSteps int      `json:"max_steps"`
	Formats  []string `json:"formats"`
	Agents   []string `json:"agents"`  // built-in agents and policies (policies.go) the viewer may play
	Default  string   `json:"default"` // the agent the page picks first
	// Legend is the key of the game's picture ([legender]).
	Legend []LegendItem `json:"legend,omitempty"`
}

// LegendItem is one entry of a game's key: a mark's colour ("#rrggbb"),
// its shape (picture.LegendMarks) and what it stands for.
type LegendItem struct {
	Colour  string `json:"colour"`
	Mark    string `json:"mark"`
	Meaning string `json:"meaning"`
}

// legender is implemented by the kit of a game whose picture has a key.
type legender interface {
	// Legend lists the marks of the game's picture and what they stand
	// for, in the order a key lists them (seat colours apart: every game
	// draws seat k in SeatColor(k)), each with a Mark of LegendMarks.
	Legend() []picture.LegendEntry
}

// legendOf returns the key of game's picture, from its kit; none for a
// game whose kit has no legend.
func (s *Server) legendOf(game string) []LegendItem {
	entry, _ := s.opt.Registry.Lookup(game)
	l, ok := entry.Kit.(legender)
	if !ok {
		return nil
	}
	legend := l.Legend()
	out := make([]LegendItem, len(legend))
	for i, l := range legend {
		out[i] = LegendItem{Colour: fmt.Sprintf("#%02x%02x%02x", l.Colour.R, l.Colour.G, l.Colour.B), Mark: l.Mark, Meaning: l.Meaning}
	}
	return out
}

// agentsOf returns the agents the viewer may play in envs of spec of
// game: the built-in agents, then the policies that fit spec (loaded for
// client), with the agent spec that plays each.
func (s *Server) agentsOf(client, game string, spec *env.Spec) (names, specs []string) {
	for _, a := range agents.Names(game) {
		if watchable(game, a) {
			names = append(names, a)
		}
	}
	specs = slices.Clone(names)
	pn, ps := s.policyAgents(client, spec)
	return append(names, pn...), append(specs, ps...)
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
		names, _ := s.agentsOf(clientOf(r), name, e.Spec())
		games = append(games, GameInfo{Name: name, Seats: e.Spec().Seats, MaxSteps: e.Spec().MaxSteps,
			Formats: c.NativeFormats(), Agents: names, Default: defaultAgent(names), Legend: s.legendOf(name)})
	}
	writeJSON(w, http.StatusOK, map[string]any{"games": games, "replays": s.replays != nil, "leagues": s.opt.LeaguesDir != "",
		"limits": map[string]any{
			"max_matches": s.opt.MaxMatches, "max_replays": s.opt.MaxReplays, "max_rounds": s.opt.MaxRounds,
			"max_duration_s": s.opt.MaxDuration.Seconds(), "max_upload_bytes": s.opt.MaxUploadBytes,
			"max_state_bytes": s.stateCap}})
}

// createRequest is the body of POST /api/matches.
type createRequest struct {
	Game   string          `json:"game"`
	Config json.RawMessage `json:"config,omitempty"` // over the game's defaults
	Agents []string        `json:"agents"`           // one per seat; missing seats get the game's default agent
	Seed   Seed            `json:"seed"`             // a string (or a JSON integer): see Seed
}

func (s *Server) create(w http.ResponseWriter, r *http.Request) {
	var req createRequest
	if !decodeBody(w, r, &req) {
		return
	}
	if _, err := s.opt.Registry.Lookup(req.Game); err != nil {
		httpError(w, http.StatusNotFound, err.Error())
		return
	}
	e, err := s.opt.Registry.Make(req.Game, req.Config)
	if err != nil {
		httpError(w, http.StatusBadRequest, err.Error())
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
	names, specs := s.agentsOf(clientOf(r), req.Game, e.Spec())
	list, resolved := make([]string, seats), make([]string, seats)
	for seat := range list {
		if seat < len(req.Agents) && req.Agents[seat] != "" {
			list[seat] = req.Agents[seat]
		} else {
			list[seat] = defaultAgent(names)
		}
		i := slices.Index(names, list[seat])
		if i < 0 {
			httpError(w, http.StatusBadRequest, fmt.Sprintf("seat %d: agent %q cannot play %s in the viewer (valid: %s)", seat, list[seat], req.Game, strings.Join(names, ", ")))
			return
		}
		resolved[seat] = specs[i]
	}
	limit := min(s.opt.MaxRounds, match.RoundLimit(e.Spec()))
	src := &liveSource{reg: s.opt.Registry, game: req.Game, config: req.Config, agents: list, specs: resolved, seed: uint64(req.Seed), limit: limit,
		held: s.policyCost(resolved)}
	m, ok := s.add(w, &session{game: req.Game, seats: seats, src: src})
	if !ok {
		return
	}
	s.stats.matchesStarted.Add(1)
	writeJSON(w, http.StatusCreated, map[string]any{"id": m.id, "game": req.Game, "agents": list, "seed": req.Seed,
		"seats": seats, "max_rounds": limit})
}

// session is one thing the viewer plays: a live match (a recipe the
// server plays again for every request) or an opened replay.
type session struct {
	id      string
	game    string
	seats   int
	replay  bool
	created time.Time
	src     source

	// held gives back the memory the session holds for its life (an
	// upload's bytes); nil when none.
	held func()

	mu      sync.Mutex
	used    time.Time
	streams int
	frames  int // frame and recording requests running
	played  int // the most rounds any request has played
}

// forget gives back what the session holds; the server forgot it.
func (m *session) forget() {
	if m.held != nil {
		m.held()
	}
}

// source makes playings of a session, each from its first round.
type source interface {
	start() (playing, error)
	// cost is the memory one playing may hold beyond its game's (see
	// memory.go): 0 for the games' own.
	cost() int64
}

// playing is one playing of a session from its first round. It is not
// safe for concurrent use; each request has its own.
type playing interface {
	// run plays the session, calling fn with every round from from on
	// (and with the last round when the playing ends before from), until
	// fn returns an error (match.ErrStop ends it without one) or there is
	// no round after. It returns ctx's error, or fn's other than
	// match.ErrStop.
	run(ctx context.Context, from int, fn func(round int) error) error
	// frame returns the current round as a frame, with seat's view when
	// seat is not -1.
	frame(seat int) (*Frame, error)
	// over reports whether there is no round after the current one.
	over() bool
	// limit is the last round the playing may reach.
	limit() int
	// record writes the recording of the rounds 0..last to the writer;
	// see record.go.
	record(ctx context.Context, rw *recordWriter, last int) error
	close()
}

// add registers m under a new id, or answers 429 (or 503), gives back
// what m holds and returns false when the server holds as many sessions
// of its kind as it may.
func (s *Server) add(w http.ResponseWriter, m *session) (*session, bool) {
	now := time.Now()
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.room(w, m.replay, now) {
		m.forget()
		return nil, false
	}
	s.nextID++
	m.id, m.created, m.used = strconv.FormatUint(s.nextID, 10), now, now
	s.sessions[m.id] = m
	return m, true
}

// room reports whether the server may hold one more session of its kind
// (a replay or a live match), or answers 429 (or 503) and returns false;
// s.mu is held.
func (s *Server) room(w http.ResponseWriter, replay bool, now time.Time) bool {
	s.prune(now)
	if s.closed {
		httpError(w, http.StatusServiceUnavailable, "the server is shutting down")
		return false
	}
	n, limit, what := 0, s.opt.MaxMatches, "live matches"
	if replay {
		limit, what = s.opt.MaxReplays, "open replays"
	}
	for _, o := range s.sessions {
		if o.replay == replay {
			n++
		}
	}
	if n >= limit {
		s.stats.refused.Add(1)
		w.Header().Set("Retry-After", "60")
		httpError(w, http.StatusTooManyRequests, fmt.Sprintf("too many %s: at most %d at once; try again when one ends (one is forgotten %v after its last request, %v after it started)", what, limit, s.opt.IdleTimeout, s.opt.MaxDuration))
		return false
	}
	return true
}

// prune forgets expired and idle sessions; s.mu is held.
func (s *Server) prune(now time.Time) {
	for id, m := range s.sessions {
		m.mu.Lock()
		idle := m.streams == 0 && now.Sub(m.used) > s.opt.IdleTimeout
		m.mu.Unlock()
		if idle || now.Sub(m.created) > s.opt.MaxDuration {
			delete(s.sessions, id)
			m.forget()
		}
	}
}

// lookup returns the session of the request's id, or answers 404.
func (s *Server) lookup(w http.ResponseWriter, r *http.Request) *session {
	now := time.Now()
	s.mu.Lock()
	s.prune(now)
	m := s.sessions[r.PathValue("id")]
	s.mu.Unlock()
	if m == nil {
		httpError(w, http.StatusNotFound, fmt.Sprintf("no live match or replay %q (they end %v after they start and %v after their last request)", r.PathValue("id"), s.opt.MaxDuration, s.opt.IdleTimeout))
		return nil
	}
	m.mu.Lock()
	m.used = now
	m.mu.Unlock()
	return m
}

func (s *Server) live(m *session) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sessions[m.id] == m && time.Since(m.created) <= s.opt.MaxDuration
}

// Frame is one round of a match or replay, as streamed and fetched.
type Frame struct {
	Game   string          `json:"game"`
	Seats  int             `json:"seats"`
	Round  int             `json:"round"`
	Format string          `json:"format"`
	State  json.RawMessage `json:"state"`
	Seat   int             `json:"seat"`
	View   json.RawMessage `json:"view,omitempty"`
	// Result is the match's result as it stands (match.Result, as play
	// --json prints it): the standings of every seat, the winner and draw
	// once done, the seat that forfeited (its agent panicked; it is last),
	// and on the last frame each external bot's faults and, where the
	// match runner played it, every seat's actions by kind.
	Result match.Result `json:"result"`
	Done   bool         `json:"done"`
	// Actions are the actions of the round that led to this state, one
	// per seat (absent in round 0 and where the replay has none).
	Actions []ActionView `json:"actions,omitempty"`
	// Policies are what the policy seats of a live match make of this
	// state (policies.go): absent for other seats and once Done.
	Policies []PolicyStep `json:"policies,omitempty"`
}

// errGone ends a playing whose client went away or whose frame failed.
var errGone = errors.New("web: the client went away")

func (m *session) reached(round int) {
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

// play starts a playing of m for a request r: it counts the request
// (admit; perMatch for a frame or a recording download), charges the
// playing's cost to the memory budget, and starts it, or answers and
// returns false. end closes the playing and ends the count and the charge.
func (s *Server) play(w http.ResponseWriter, r *http.Request, m *session, perMatch bool) (p playing, end func(), ok bool) {
	done, ok := s.admit(w, r, m, perMatch)
	if !ok {
		return nil, nil, false
	}
	what := "playing live match " + m.id
	if m.replay {
		what = "playing replay " + m.id
	}
	release, ok := s.charge(w, clientOf(r), what, m.src.cost())
	if !ok {
		done()
		return nil, nil, false
	}
	p, err := m.src.start()
	if err != nil {
		release()
		done()
		s.playError(w, r, "", err)
		return nil, nil, false
	}
	return p, func() { p.close(); release(); done() }, true
}

// playError answers a playing's error: 400 for a round of a replay whose
// data cannot be shown (badRound), else 500 prefixed with prefix; nothing
// when the client went away.
func (s *Server) playError(w http.ResponseWriter, r *http.Request, prefix string, err error) {
	if r.Context().Err() != nil {
		return
	}
	var bad *badRound
	if errors.As(err, &bad) {
		httpError(w, http.StatusBadRequest, s.errText(err))
		return
	}
	httpError(w, http.StatusInternalServerError, prefix+s.errText(err))
}

func (s *Server) frame(w http.ResponseWriter, r *http.Request) {
	m := s.lookup(w, r)
	if m == nil {
		return
	}
	seat, err := seatParam(r, m.seats)
	if err != nil {
		httpError(w, http.StatusBadRequest, err.Error())
		return
	}
	p, end, ok := s.play(w, r, m, true)
	if !ok {
		return
	}
	defer end()
	round, err := intParam(r, "round", 0, 0, p.limit())
	if err != nil {
		httpError(w, http.StatusBadRequest, err.Error())
		return
	}
	var f *Frame
	err = p.run(r.Context(), round, func(int) error {
		var ferr error
		if f, ferr = p.frame(seat); ferr != nil {
			return ferr
		}
		return match.ErrStop
	})
	if err != nil || f == nil {
		if err == nil {
			err = errors.New("the playing ended before its first round")
		}
		s.playError(w, r, "no frame: ", err)
		return
	}
	m.reached(f.Round)
	s.stats.framesSent.Add(1)
	writeJSON(w, http.StatusOK, f)
}

func (s *Server) record(w http.ResponseWriter, r *http.Request) {
	m := s.lookup(w, r)
	if m == nil {
		return
	}
	p, end, ok := s.play(w, r, m, true)
	if !ok {
		return
	}
	defer end()
	m.mu.Lock()
	last := m.played
	m.mu.Unlock()
	w.Header().Set("Content-Type", "application/x-ndjson")
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="%s-%s.jsonl"`, strings.ReplaceAll(m.game, "/", "_"), m.id))
	rw := newRecordWriter(w)
	defer rw.flush()
	p.record(r.Context(), rw, last)
	s.stats.framesSent.Add(rw.lines)
}

// events streams frames from ?from= on, at ?speed= rounds per second (0:
// as fast as the connection takes them), each with ?seat='s view when
// given, until the match is over ("end" event), the match expires, a
// round cannot be shown ("failure" event), or the client goes away or
// takes no frame for WriteTimeout.
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
	seat, err := seatParam(r, m.seats)
	if err != nil {
		httpError(w, http.StatusBadRequest, err.Error())
		return
	}
	if _, ok := w.(http.Flusher); !ok {
		httpError(w, http.StatusInternalServerError, "streaming unsupported")
		return
	}
	rc := http.NewResponseController(w)
	m.mu.Lock()
	if m.streams >= s.opt.MaxStreamsPerMatch {
		m.mu.Unlock()
		httpError(w, http.StatusTooManyRequests, fmt.Sprintf("%s already has %d streams open", m.id, s.opt.MaxStreamsPerMatch))
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

	p, end, ok := s.play(w, r, m, false)
	if !ok {
		return
	}
	defer end()
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
	// flush sends what was written, within WriteTimeout; errGone when the
	// client does not take it.
	flush := func() error {
		if err := rc.Flush(); err != nil {
			return errGone
		}
		return nil
	}
	failure := func(err error) error {
		fmt.Fprintf(w, "event: failure\ndata: %s\n\n", mustJSON(map[string]string{"error": s.errText(err)}))
		flush()
		return errGone
	}
	// send streams the current round; match.ErrStop once the stream ended.
	send := func() error {
		if !started {
			begin()
		}
		f, err := p.frame(seat)
		if err != nil {
			return failure(err)
		}
		m.reached(f.Round)
		s.stats.framesSent.Add(1)
		fmt.Fprintf(w, "id: %d\ndata: %s\n\n", f.Round, mustJSON(f))
		if f.Done {
			fmt.Fprintf(w, "event: end\ndata: %s\n\n", mustJSON(map[string]any{"reason": "over", "round": f.Round}))
			flush()
			return match.ErrStop
		}
		if err := flush(); err != nil {
			return err
		}
		if !s.live(m) {
			fmt.Fprintf(w, "event: end\ndata: %s\n\n", mustJSON(map[string]any{"reason": "it expired", "round": f.Round}))
			flush()
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
	err = p.run(ctx, from, func(int) error { return send() })
	switch {
	case err == nil || ctx.Err() != nil || errors.Is(err, errGone):
	case !started:
		s.playError(w, r, "", err)
	default: // a later round failed
		failure(err)
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

// decodeBody decodes r's JSON body, of at most 64 KiB and without unknown
// fields, into v; when it cannot, it answers 400 with the reason and
// returns false.
func decodeBody(w http.ResponseWriter, r *http.Request, v any) bool {
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<16))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		httpError(w, http.StatusBadRequest, "bad request body: "+err.Error())
		return false
	}
	return true
}
