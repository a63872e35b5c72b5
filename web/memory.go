package web

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/botarena/botarena/internal/bytesize"
)

// The viewer charges what it reads and parses to a memory budget
// ([Options.Memory]), the one botarena serve shares with its services
// (--max-memory, --max-client-memory), before it reads anything:
//
//   - an upload, by its Content-Length: the body the replay keeps for its
//     life, plus the work of parsing it (stateCost of its longest possible
//     line) until it is opened;
//   - opening a recording or a replay folder of the replays folder: the
//     work of parsing its largest state, for the moment of the request;
//   - every request that plays a replay of states (a frame, a stream, a
//     recording download): stateCost of the replay's largest state, for as
//     long as the request runs.
//
// Live matches and replays of actions play in the game's own memory,
// bounded by its config (what EnvService charges a pool for one env); they
// are bounded by the counts below, not charged.

// stateParseFactor is what one state costs per byte while the viewer reads
// it, loads it into its game and sends it as a frame: the file or line
// itself, the game's parser (the worst measured, BattleBots' on a file of
// line breaks, holds 24 bytes per byte while it splits the lines) and the
// frame's JSON (a text state escaped, then the frame around it).
const stateParseFactor = 32

// stateCost returns what reading a state of n bytes may hold at once.
func stateCost(n int64) int64 { return n * stateParseFactor }

// Memory is a memory budget in bytes, shared by whatever charges it. It
// must be safe for concurrent use. botarena serve passes the host's
// (rpc/server.Budget, --max-memory), so that the viewer and the services
// never hold more than it together.
type Memory interface {
	// Reserve books bytes for client (the peer's IP address) for what (a
	// phrase such as "a frame of replay 3"), or returns an error whose text
	// says what would need them and what is in use, for the client to
	// read. release gives them back; a second call does nothing.
	Reserve(client, what string, bytes int64) (release func(), err error)
	// Limit returns the budget's size in bytes.
	Limit() int64
}

// NewMemory returns a budget of limit bytes for a viewer served alone
// (the default of [Options.Memory]); limit <= 0 means
// [DefaultMaxMemory]. It has no per-client quota.
func NewMemory(limit int64) Memory {
	if limit <= 0 {
		limit = DefaultMaxMemory
	}
	return &memory{limit: limit}
}

// memory is the budget of [NewMemory].
type memory struct {
	limit int64
	mu    sync.Mutex
	used  int64
}

func (m *memory) Limit() int64 { return m.limit }

func (m *memory) Reserve(client, what string, bytes int64) (func(), error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	switch {
	case bytes > m.limit:
		return nil, fmt.Errorf("%s would need %s, more than the viewer's whole memory budget (%s)", what, bytesize.Format(bytes), bytesize.Format(m.limit))
	case m.used+bytes > m.limit:
		return nil, fmt.Errorf("%s would need %s; the viewer's memory budget of %s has %s in use; try again when other requests end", what, bytesize.Format(bytes), bytesize.Format(m.limit), bytesize.Format(m.used))
	}
	m.used += bytes
	var once sync.Once
	return func() {
		once.Do(func() {
			m.mu.Lock()
			m.used -= bytes
			m.mu.Unlock()
		})
	}, nil
}

// clientOf returns the client a request is counted under: the peer's IP
// address, as the services' quotas count it (rpc/server.ClientKey).
func clientOf(r *http.Request) string {
	if host, _, err := net.SplitHostPort(r.RemoteAddr); err == nil {
		return host
	}
	if r.RemoteAddr == "" {
		return "unknown"
	}
	return r.RemoteAddr
}

// charge reserves bytes of the budget for client, for what, or answers
// 413 (it could never fit) or 429 (not now) and returns false.
func (s *Server) charge(w http.ResponseWriter, client, what string, bytes int64) (release func(), ok bool) {
	release, err := s.reserver(client, what)(bytes)
	if err != nil {
		s.openError(w, err)
		return nil, false
	}
	return release, true
}

// admit counts a request of r's client against MaxClientRequests and, for
// a frame or a recording download of session m (perMatch), against
// MaxFramesPerMatch; it answers 429 and returns false when one is full.
// done ends the request's count.
func (s *Server) admit(w http.ResponseWriter, r *http.Request, m *session, perMatch bool) (done func(), ok bool) {
	client := clientOf(r)
	s.mu.Lock()
	if s.clients[client] >= s.opt.MaxClientRequests {
		s.mu.Unlock()
		w.Header().Set("Retry-After", "5")
		httpError(w, http.StatusTooManyRequests, fmt.Sprintf("client %s has %d viewer requests running (frames, streams, downloads, uploads), the most one client may; wait for one to end", client, s.opt.MaxClientRequests))
		return nil, false
	}
	s.clients[client]++
	s.mu.Unlock()
	end := func() {
		s.mu.Lock()
		if s.clients[client]--; s.clients[client] <= 0 {
			delete(s.clients, client)
		}
		s.mu.Unlock()
	}
	if perMatch {
		m.mu.Lock()
		if m.frames >= s.opt.MaxFramesPerMatch {
			m.mu.Unlock()
			end()
			w.Header().Set("Retry-After", "5")
			httpError(w, http.StatusTooManyRequests, fmt.Sprintf("%s already has %d frame or recording requests running, the most one match or replay may; wait for one to end", m.id, s.opt.MaxFramesPerMatch))
			return nil, false
		}
		m.frames++
		m.mu.Unlock()
		return func() {
			m.mu.Lock()
			m.frames--
			m.mu.Unlock()
			end()
		}, true
	}
	return end, true
}

// deadlines gives every write of a viewer response (each frame of a
// stream, each part of a download) a deadline of WriteTimeout from when it
// starts, so that a client that stops reading cannot hold a handler or its
// connection; once the handler returns, the response is flushed under the
// same deadline and the deadline lifted, for the connection's next
// request.
func (s *Server) deadlines(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rc := http.NewResponseController(w)
		if rc.SetWriteDeadline(time.Time{}) != nil {
			h.ServeHTTP(w, r) // a writer without deadlines (a test's recorder)
			return
		}
		dw := &deadlineWriter{ResponseWriter: w, rc: rc, timeout: s.opt.WriteTimeout}
		h.ServeHTTP(dw, r)
		dw.FlushError()
		rc.SetWriteDeadline(time.Time{})
	})
}

// deadlineWriter sets its write deadline before each write.
type deadlineWriter struct {
	http.ResponseWriter
	rc      *http.ResponseController
	timeout time.Duration
}

func (w *deadlineWriter) arm() { w.rc.SetWriteDeadline(time.Now().Add(w.timeout)) }

func (w *deadlineWriter) Write(p []byte) (int, error) {
	w.arm()
	return w.ResponseWriter.Write(p)
}

// FlushError flushes within the deadline; http.ResponseController's Flush
// calls it.
func (w *deadlineWriter) FlushError() error {
	w.arm()
	return w.rc.Flush()
}

func (w *deadlineWriter) Flush() { w.FlushError() }

// Unwrap lets http.ResponseController reach the server's writer.
func (w *deadlineWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// budgetError is a refusal of the memory budget met in the middle of a
// request (opening a replay): 413 when it could never fit, else 429.
type budgetError struct {
	err   error
	never bool
}

func (e *budgetError) Error() string { return e.err.Error() }

// reserver returns a function that reserves bytes of the budget for
// client, for what, failing with a *budgetError.
func (s *Server) reserver(client, what string) func(bytes int64) (func(), error) {
	return func(bytes int64) (func(), error) {
		if bytes <= 0 {
			return func() {}, nil
		}
		release, err := s.mem.Reserve(client, what, bytes)
		if err != nil {
			return nil, &budgetError{err: err, never: bytes > s.mem.Limit()}
		}
		return release, nil
	}
}

// openError answers an error of opening a replay: the budget's refusal
// (413 or 429), else 400, with the server's folders cut out of its text.
func (s *Server) openError(w http.ResponseWriter, err error) {
	var budget *budgetError
	switch {
	case errors.As(err, &budget) && budget.never:
		httpError(w, http.StatusRequestEntityTooLarge, budget.Error())
	case errors.As(err, &budget):
		w.Header().Set("Retry-After", "10")
		httpError(w, http.StatusTooManyRequests, budget.Error())
	default:
		httpError(w, http.StatusBadRequest, s.errText(err))
	}
}
