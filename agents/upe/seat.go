package upe

import (
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/botarena/botarena/agents"
	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/env/portalbomber"
)

// Scheme is the agent-spec prefix of [Seat]: "upe://HOST:PORT".
const Scheme = "upe://"

func init() {
	agents.RegisterScheme(agents.Scheme{
		Prefix:  Scheme,
		Games:   []string{"portalbomber"},
		Needs:   agents.CapListen,
		Summary: "a UPE HTTP client (the original's /api/games routes) plays the seat: upe://HOST:PORT, or `listen` with play --listen",
		New: func(game, spec string, envSpec *env.Spec) (env.Agent, error) {
			addr := strings.TrimSuffix(strings.TrimPrefix(spec, Scheme), "/")
			if addr == "" {
				return nil, fmt.Errorf("want upe://HOST:PORT")
			}
			return NewSeat(addr)
		},
	})
}

// submission is one submitted move for a seat.
type submission struct {
	move  string
	known bool // the body's move was a string
	reply chan response
}

// Seat is an agent whose moves come from a UPE client over HTTP. It is made
// by the agent spec "upe://ADDR" ([NewSeat]): it joins the [Listen] server
// for ADDR, or starts one of its own that it closes with the seat.
//
// Unlike other agents, Act blocks on the network (up to the server's
// timeout per move), allocates, and on a timeout ends the game
// ([portalbomber.Game.TimeOut]): the original's outcome of a client that
// stops responding. Close answers the client's held request with the final
// state; the owner must call it when the game ends.
type Seat struct {
	srv *Server
	own bool // srv is ours: Close closes it

	env    *portalbomber.Game
	seat   int
	client *client       // the seated client (nil until one asks)
	held   chan response // the client's unanswered request, if any

	awaiting bool // guarded by srv.mu: a submit is awaited
	moves    chan submission
	attach   chan *client
	closed   bool
	faults   agents.Faults
}

func newSeat(s *Server, own bool) *Seat {
	return &Seat{srv: s, own: own, moves: make(chan submission, 1), attach: make(chan *client, 1)}
}

// NewSeat returns a seat on the [Listen] server for addr, starting one with
// default [Options] when none listens there.
func NewSeat(addr string) (*Seat, error) {
	listenMu.Lock()
	s := listeners[addr]
	if s != nil {
		s.refs++
	}
	listenMu.Unlock()
	if s != nil {
		return newSeat(s, true), nil
	}
	s, err := Listen(addr, Options{})
	if err != nil {
		return nil, err
	}
	return newSeat(s, true), nil
}

// Reset starts a new game: a seated client of an earlier game keeps its
// seat only on a hosted server; here the seat waits for a new client.
func (a *Seat) Reset(e env.Env, seat int, _ uint64) {
	g := e.(*portalbomber.Game)
	if a.env != nil { // a seat of an earlier game: that client is done
		a.finish()
	}
	a.env, a.seat = g, seat
}

// Act returns the client's move on the seat's turn (0 otherwise): it sends
// the client the state, waits for its submit, and reads the move as the
// engine does (an unknown string is [portalbomber.InvalidMove]). On the
// seat's first turn it waits for a client to search; if none moves in time
// the game ends by [portalbomber.Game.TimeOut] and Act returns 0.
func (a *Seat) Act(e env.Env, seat int) int32 {
	g := e.(*portalbomber.Game)
	a.env, a.seat = g, seat
	if g.Done() || g.ToMove() != seat {
		return 0
	}
	log := a.srv.log.With("game", g.GameID(), "seat", seat)
	if a.client == nil {
		c := a.srv.waitClient(a)
		if c == nil { // the server closed
			g.Abort()
			return 0
		}
		a.srv.mu.Lock()
		ok := a.srv.registerLocked(g, seat, a)
		if ok {
			a.client = c
		}
		a.srv.mu.Unlock()
		if !ok {
			c.reply <- response{http.StatusConflict, errorBody("another game has the same id")}
			log.Warn("upe: game id in use by another game; aborting this one")
			g.Abort()
			return 0
		}
		a.held = c.reply
		log.Info("upe: client seated", "devkey", c.devkey, "playerID", g.PlayerID(seat))
	}
	// Await the move before sending the state: a client that submits as
	// soon as it has the state must find its turn open.
	a.srv.mu.Lock()
	a.awaiting = true
	a.srv.mu.Unlock()
	a.answer(g)
	t := time.NewTimer(a.srv.opts.Timeout)
	defer t.Stop()
	var sub submission
	select {
	case sub = <-a.moves:
	case <-t.C:
		a.srv.mu.Lock()
		raced := !a.awaiting
		a.awaiting = false
		a.srv.mu.Unlock()
		if !raced {
			a.faults.Count(agents.TimedOut)
			w := g.TimeOut()
			log.Info("upe: timeout: no move in time", "timeout", a.srv.opts.Timeout, "moveNumber", g.MoveNumber(), "winner", w, "aborted", w < 0)
			return 0
		}
		sub = <-a.moves
	case <-a.srv.done:
		g.Abort()
		return 0
	}
	a.held = sub.reply
	if !sub.known {
		a.faults.Count(agents.Invalid)
		log.Info("upe: invalid move: no move string", "moveNumber", g.MoveNumber())
		return int32(portalbomber.InvalidMove)
	}
	act, ok := g.ParseCommand(seat, []byte(sub.move))
	if !ok {
		a.faults.Count(agents.Invalid)
		log.Info("upe: invalid move", "move", sub.move, "moveNumber", g.MoveNumber())
	}
	return act
}

// Faults returns, by kind, the turns the seat's client lost since the
// seat was made: timed out (no move within the server's Timeout, which
// ends the game) or invalid (a submit without a move string, or a move
// the engine rejects: [portalbomber.InvalidMove]). A client never crashes
// a seat: one that goes away times out. It implements match.FaultCounter.
func (a *Seat) Faults() agents.Faults { return a.faults }

// answer sends the held request the state as the seat sees it.
func (a *Seat) answer(g *portalbomber.Game) {
	if a.held == nil {
		return
	}
	body, _ := g.AppendNative(nil, portalbomber.FormatStateJSON, a.seat)
	a.held <- response{http.StatusOK, body}
	a.held = nil
}

// finish ends the seat's game: the held request gets the final state and the
// game is forgotten.
func (a *Seat) finish() {
	a.srv.mu.Lock()
	a.awaiting = false
	a.srv.mu.Unlock()
	if a.env != nil && !a.env.Done() {
		a.env.Abort() // a game stopped early: no one will move again
	}
	// Forget the seat before answering: a client that submits again as soon
	// as it has the final state must find the game gone (the original's
	// "Game ID is undefined"), not still waiting for its turn.
	a.srv.unregister(a)
	if a.env != nil {
		a.answer(a.env)
	}
	a.held = nil
}

// Close answers the client's held request with the final state (an
// unfinished game is aborted first: [portalbomber.Game.Abort]), forgets the
// game, and closes the server if the seat started it.
func (a *Seat) Close() error {
	if a.closed {
		return nil
	}
	a.closed = true
	a.finish()
	if a.own {
		return a.srv.Close()
	}
	return nil
}
