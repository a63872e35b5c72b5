package upe

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/env/portalbomber"
)

// DefaultTimeout is the original's turn time limit (Handler.js checks 15 s
// after every answer; the docs said 5 s, "currently 15").
const DefaultTimeout = 15 * time.Second

// DefaultPracticeDelay is how long the original's practice bot waits before
// it moves.
const DefaultPracticeDelay = time.Second

// GameUndefined is the original's reply (a JSON string) to a submit for a
// game that is over or does not exist.
const GameUndefined = "Game ID is undefined, maybe the game ended or does not exist!"

// Options configure a [Server].
type Options struct {
	// Timeout is the turn time limit; 0 means [DefaultTimeout].
	Timeout time.Duration
	// PracticeDelay is how long the practice bot of hosted practice games
	// waits before each move (the original: [DefaultPracticeDelay]); 0
	// moves at once.
	PracticeDelay time.Duration
	// Config is the portalbomber configuration of hosted games; nil is the
	// original's ([portalbomber.DefaultConfig]).
	Config *portalbomber.Config
	// Log receives a line per game start, end, timeout, invalid move and
	// refused request; nil discards them.
	Log *slog.Logger
}

// response is one HTTP answer.
type response struct {
	status int
	body   []byte
}

// client is one search or practice request waiting for its game.
type client struct {
	devkey string
	reply  chan response // buffered: answering never blocks
}

// game is a game whose seats clients play, by id.
type game struct {
	env       *portalbomber.Game
	seats     [portalbomber.Seats]*Seat
	playerIDs [portalbomber.Seats]string
}

// Server serves the UPE routes. It is an http.Handler for paths under
// /api/games/; it is safe for concurrent use.
type Server struct {
	opts Options
	log  *slog.Logger
	host bool // search and practice start hosted games

	mu      sync.Mutex
	closed  bool
	done    chan struct{}
	games   map[string]*game
	search  *client   // host: the held searcher
	pending []*client // listen: clients waiting for a seat
	waiting []*Seat   // listen: seats waiting for a client
	hosted  sync.WaitGroup

	// listen mode
	hs    *http.Server
	addrs []string
	refs  int
}

func newServer(opts Options, host bool) *Server {
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	if opts.Config == nil {
		opts.Config = portalbomber.DefaultConfig()
	}
	log := opts.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Server{opts: opts, log: log, host: host, done: make(chan struct{}), games: map[string]*game{}}
}

// NewHandler returns a server that hosts games itself: practice games
// against the practice bot and searched games between two clients. Mount
// it under /api/games/; Close it on shutdown.
func NewHandler(opts Options) (*Server, error) {
	if err := configOK(opts.Config); err != nil {
		return nil, err
	}
	return newServer(opts, true), nil
}

func configOK(cfg *portalbomber.Config) error {
	if cfg == nil {
		return nil
	}
	if err := cfg.Validate(); err != nil {
		return err
	}
	if cfg.Simultaneous {
		return errors.New("upe: the UPE routes need alternating moves (simultaneous is set)")
	}
	return nil
}

var (
	listenMu  sync.Mutex
	listeners = map[string]*Server{}
)

// Listen serves the UPE routes on addr (HOST:PORT; port 0 picks one) for
// [Seat] agents: agent specs "upe://ADDR" with this address (as given or as
// [Server.Addr] reports it) take seats on this server until it is closed.
func Listen(addr string, opts Options) (*Server, error) {
	if err := configOK(opts.Config); err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	s := newServer(opts, false)
	mux := http.NewServeMux()
	mux.Handle("/api/games/", s)
	s.hs = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	s.addrs = []string{addr, ln.Addr().String()}
	s.refs = 1
	listenMu.Lock()
	for _, a := range s.addrs {
		listeners[a] = s
	}
	listenMu.Unlock()
	go s.hs.Serve(ln)
	s.log.Info("upe: listening for UPE clients", "addr", ln.Addr().String())
	return s, nil
}

// Addr returns the address a [Listen] server listens on ("" for a handler).
func (s *Server) Addr() string {
	if len(s.addrs) < 2 {
		return ""
	}
	return s.addrs[1]
}

// Close stops the server: held requests get 503, hosted games end, and a
// [Listen] server stops listening (once every [Seat] that shares it is
// closed too). It waits for hosted games to finish.
func (s *Server) Close() error {
	listenMu.Lock()
	if s.hs != nil {
		s.refs--
		if s.refs > 0 {
			listenMu.Unlock()
			return nil
		}
		for _, a := range s.addrs {
			if listeners[a] == s {
				delete(listeners, a)
			}
		}
	}
	listenMu.Unlock()
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	close(s.done)
	gone := errorBody("the server is shutting down")
	for _, c := range s.pending {
		c.reply <- response{http.StatusServiceUnavailable, gone}
	}
	if s.search != nil {
		s.search.reply <- response{http.StatusServiceUnavailable, gone}
	}
	s.pending, s.search, s.waiting = nil, nil, nil
	s.mu.Unlock()
	s.hosted.Wait()
	if s.hs != nil {
		// Let answered requests (final states, 503s) be written first.
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		if err := s.hs.Shutdown(ctx); err != nil {
			return s.hs.Close()
		}
	}
	return nil
}

func errorBody(msg string) []byte {
	b, _ := json.Marshal(map[string]string{"message": msg})
	return b
}

func jsonBody(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}

// ServeHTTP serves POST /api/games/search, /api/games/practice and
// /api/games/submit/<gameID>.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	path := strings.TrimSuffix(r.URL.Path, "/")
	var route, id string
	switch {
	case path == "/api/games/search", path == "/api/games/practice":
		route = strings.TrimPrefix(path, "/api/games/")
	case strings.HasPrefix(path, "/api/games/submit/"):
		route, id = "submit", strings.TrimPrefix(path, "/api/games/submit/")
	default:
		write(w, response{http.StatusNotFound, errorBody("no such route: " + r.URL.Path)})
		return
	}
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		write(w, response{http.StatusMethodNotAllowed, errorBody(r.Method + " " + r.URL.Path + ": want POST")})
		return
	}
	body, err := readBody(r)
	if err != nil {
		write(w, response{bodyStatus(err), errorBody(err.Error())})
		return
	}
	if route == "submit" {
		s.submit(w, r, id, body)
		return
	}
	devkey, _ := body["devkey"].(string)
	if devkey == "" {
		write(w, response{http.StatusBadRequest, errorBody("Account ID is invalid")})
		return
	}
	c := &client{devkey: devkey, reply: make(chan response, 1)}
	if !s.enqueue(c, route) {
		write(w, response{http.StatusServiceUnavailable, errorBody("the server is shutting down")})
		return
	}
	select {
	case resp := <-c.reply:
		write(w, resp)
	case <-r.Context().Done():
		s.drop(c)
	}
}

// enqueue starts or joins a game for c (route "search" or "practice"); it
// reports false once the server is closed.
func (s *Server) enqueue(c *client, route string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return false
	}
	switch {
	case !s.host:
		if len(s.waiting) > 0 {
			seat := s.waiting[0]
			s.waiting = s.waiting[1:]
			seat.attach <- c
		} else {
			s.pending = append(s.pending, c)
		}
	case route == "practice":
		s.startHosted(c, nil)
	case s.search == nil:
		s.search = c
	case s.search.devkey == c.devkey:
		s.search.reply <- response{http.StatusConflict, errorBody("replaced by a newer search with the same devkey")}
		s.search = c
	default:
		first := s.search
		s.search = nil
		s.startHosted(first, c)
	}
	return true
}

// drop forgets a client whose request went away before it was seated.
func (s *Server) drop(c *client) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.search == c {
		s.search = nil
	}
	for i, p := range s.pending {
		if p == c {
			s.pending = append(s.pending[:i], s.pending[i+1:]...)
			break
		}
	}
}

// waitClient returns the client for seat: a pending one, or the next to
// ask; nil once the server is closed.
func (s *Server) waitClient(seat *Seat) *client {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	if len(s.pending) > 0 {
		c := s.pending[0]
		s.pending = s.pending[1:]
		s.mu.Unlock()
		return c
	}
	s.waiting = append(s.waiting, seat)
	s.mu.Unlock()
	select {
	case c := <-seat.attach:
		return c
	case <-s.done:
		return nil
	}
}

// registerLocked records seat as playing g's seat i; false if another game
// holds the id. Called with s.mu held.
func (s *Server) registerLocked(g *portalbomber.Game, i int, seat *Seat) bool {
	id := g.GameID()
	e := s.games[id]
	if e == nil {
		e = &game{env: g}
		for k := range e.playerIDs {
			e.playerIDs[k] = g.PlayerID(k)
		}
		s.games[id] = e
	} else if e.env != g {
		return false
	}
	e.seats[i] = seat
	return true
}

// unregister forgets seat (and its game once no seat is left), and takes it
// off the waiting list.
func (s *Server) unregister(seat *Seat) {
	s.mu.Lock()
	defer s.mu.Unlock()
	seat.client = nil
	for i, w := range s.waiting {
		if w == seat {
			s.waiting = append(s.waiting[:i], s.waiting[i+1:]...)
			break
		}
	}
	for id, e := range s.games {
		left := false
		for i, st := range e.seats {
			if st == seat {
				e.seats[i] = nil
			} else if st != nil {
				left = true
			}
		}
		if !left {
			delete(s.games, id)
		}
	}
}

// submit handles POST /api/games/submit/<id>.
func (s *Server) submit(w http.ResponseWriter, r *http.Request, id string, body map[string]any) {
	if !isObjectID(id) {
		write(w, response{http.StatusBadRequest, errorBody("Game is invalid")})
		return
	}
	devkey, _ := body["devkey"].(string)
	playerID, _ := body["playerID"].(string)
	move, isString := body["move"].(string)
	s.mu.Lock()
	e := s.games[id]
	if e == nil {
		s.mu.Unlock()
		s.log.Info("upe: submit to an unknown or finished game", "game", id)
		write(w, response{http.StatusOK, jsonBody(GameUndefined)})
		return
	}
	var seat *Seat
	for i, st := range e.seats {
		if st != nil && st.client != nil && e.playerIDs[i] == playerID && st.client.devkey == devkey {
			seat = st
		}
	}
	if seat == nil {
		s.mu.Unlock()
		s.log.Info("upe: submit with a playerID and devkey of no player", "game", id, "playerID", playerID)
		write(w, response{http.StatusBadRequest, errorBody("no player of this game has that playerID and devkey")})
		return
	}
	if !seat.awaiting {
		s.mu.Unlock()
		s.log.Info("upe: submit out of turn", "game", id, "playerID", playerID)
		write(w, response{http.StatusOK, []byte(`{"err":"Not your turn."}`)})
		return
	}
	seat.awaiting = false
	reply := make(chan response, 1)
	seat.moves <- submission{move: move, known: isString, reply: reply}
	s.mu.Unlock()
	select {
	case resp := <-reply:
		write(w, resp)
	case <-r.Context().Done():
	}
}

// isObjectID reports whether id is 24 hex digits, as Mongo's ObjectId.isValid
// accepts game ids.
func isObjectID(id string) bool {
	if len(id) != 24 {
		return false
	}
	for _, c := range id {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}

func write(w http.ResponseWriter, resp response) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(resp.status)
	w.Write(resp.body)
}

// startHosted starts a hosted game: c0 is player 0; c1 player 1, or the
// practice bot when nil. Called with s.mu held.
func (s *Server) startHosted(c0, c1 *client) {
	g, err := portalbomber.New(s.opts.Config)
	if err != nil { // checked in NewHandler
		c0.reply <- response{http.StatusInternalServerError, errorBody(err.Error())}
		return
	}
	seed := rand.Uint64N(1 << 31)
	for g.Reset(seed); s.games[g.GameID()] != nil; g.Reset(seed) {
		seed = rand.Uint64N(1 << 31)
	}
	var players [portalbomber.Seats]env.Agent
	var seats []*Seat
	for i, c := range []*client{c0, c1} {
		if c == nil {
			players[i] = &practiceBot{delay: s.opts.PracticeDelay, done: s.done}
			continue
		}
		st := newSeat(s, false)
		st.client, st.held = c, c.reply
		s.registerLocked(g, i, st)
		players[i] = st
		seats = append(seats, st)
	}
	kind := "practice"
	if c1 != nil {
		kind = "search"
	}
	s.log.Info("upe: game started", "game", g.GameID(), "kind", kind, "seed", seed)
	s.hosted.Add(1)
	go func() {
		defer s.hosted.Done()
		s.run(g, players, seed)
		for _, st := range seats {
			st.Close()
		}
	}()
}

// run plays a hosted game to its end.
func (s *Server) run(g *portalbomber.Game, players [portalbomber.Seats]env.Agent, seed uint64) {
	for i, a := range players {
		a.Reset(g, i, seed+uint64(i)+1)
	}
	var (
		actions    [portalbomber.Seats]int32
		rewards    [portalbomber.Seats]float32
		terminated [portalbomber.Seats]bool
		truncated  [portalbomber.Seats]bool
	)
	limit := 10*g.Spec().MaxSteps + 10
	for step := 0; !g.Done() && step < limit; step++ {
		for i, a := range players {
			actions[i] = a.Act(g, i)
		}
		g.Step(actions[:], rewards[:], terminated[:], truncated[:])
	}
	if !g.Done() {
		g.TimeOut()
	}
	w, _ := g.Outcome()
	s.log.Info("upe: game over", "game", g.GameID(), "winner", w, "moves", g.MoveNumber())
}

// practiceBot is the original's practice bot, moving after a delay.
type practiceBot struct {
	portalbomber.Practice
	delay time.Duration
	done  <-chan struct{}
}

func (p *practiceBot) Act(e env.Env, seat int) int32 {
	if g := e.(*portalbomber.Game); p.delay > 0 && g.ToMove() == seat && !g.Done() {
		t := time.NewTimer(p.delay)
		select {
		case <-t.C:
		case <-p.done:
			t.Stop()
		}
	}
	return p.Practice.Act(e, seat)
}
