package rpc

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"regexp"
	"strconv"
	"unicode/utf8"

	"connectrpc.com/connect"

	"github.com/botarena/botarena/agents"
	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/league"
	"github.com/botarena/botarena/vecenv"
)

// The rpc package's own domain errors. Handlers return them wrapped, with
// the pool, field, value and expected range in the text; [connectError]
// turns them, and the domain errors of env, vecenv and agents, into Connect
// codes in one place.
var (
	// errUnknownPool: no pool has the id (never created, closed, or closed
	// after being idle). NotFound.
	errUnknownPool = errors.New("unknown pool")
	// errInvalid: a request field the client can fix (a malformed config,
	// an action byte count or value, an env index, a render format). The
	// wrapping text names the field, the value and what was expected.
	// InvalidArgument.
	errInvalid = errors.New("invalid argument")
	// errLimit: a server limit (MaxPools, MaxEnvsPerPool, MaxTotalEnvs, a
	// match response over MaxMessageBytes).
	// ResourceExhausted.
	errLimit = errors.New("server limit")
	// errShuttingDown: the server is closing. Unavailable.
	errShuttingDown = errors.New("server is shutting down")
	// errDenied is an operation this server is not configured to allow
	// (an external agent without WithExternalAgents). PermissionDenied.
	errDenied = errors.New("not allowed")
	// errNotReset: a pool was used (stepped, rendered) before its first
	// Reset. FailedPrecondition.
	errNotReset = errors.New("pool not reset")
)

// markedError is an error of one of the kinds above whose text is only its
// own message: the kind classifies it without prefixing the text, so that
// the client reads "pool \"p1\": actions: ..." rather than "invalid argument:
// pool ...".
type markedError struct {
	kind  error // errUnknownPool, errInvalid, ...
	text  string
	cause error // the wrapped error, if any
}

func (e *markedError) Error() string        { return e.text }
func (e *markedError) Is(target error) bool { return target == e.kind }
func (e *markedError) Unwrap() error        { return e.cause }

// markf returns an error of kind with the formatted text; a %w verb in
// format makes the error wrap that argument too.
func markf(kind error, format string, args ...any) error {
	err := fmt.Errorf(format, args...)
	return &markedError{kind: kind, text: err.Error(), cause: errors.Unwrap(err)}
}

// invalidf returns an InvalidArgument error with the formatted text.
func invalidf(format string, args ...any) error { return markf(errInvalid, format, args...) }

// codeOf classifies err: the Connect code a client gets for it, and whether
// its text may be sent to the client. Only errors a client can act on are
// sent as they are; anything unrecognised is Internal and its text stays in
// the server's log.
//
//	NotFound            env.ErrUnknownGame, agents.ErrUnknownAgent, unknown or closed pool,
//	                    league.ErrNoLeague, league.ErrUnknownAgent
//	AlreadyExists       league.ErrExists, league.ErrAgentExists
//	InvalidArgument     *env.ConfigError, *vecenv.ConfigError, vecenv.ErrActions,
//	                    malformed config JSON, action bytes and values, env index,
//	                    seat, render format, stream pool id,
//	                    league.ErrBadMatch (a game's config, seat count or agent),
//	                    league.ErrInvalid (a league name, agent name, count, matchmaking)
//	PermissionDenied    an external agent on a server without WithExternalAgents
//	FailedPrecondition  vecenv.ErrNotReset: Step or Render before the first Reset;
//	                    league RPCs without WithLeagues, league.ErrBusy, league.ErrRunning,
//	                    league.ErrUnfinishedRun, league.ErrTooFewAgents
//	ResourceExhausted   MaxPools, MaxEnvsPerPool, MaxTotalEnvs, a match response over MaxMessageBytes
//	PermissionDenied    external agents without WithExternalAgents
//	Unavailable         the server is shutting down
//	Canceled            context.Canceled (the client went away)
//	DeadlineExceeded    context.DeadlineExceeded
//	Internal            anything else, with a generic message
func codeOf(err error) (code connect.Code, public bool) {
	var envCfg *env.ConfigError
	var poolCfg *vecenv.ConfigError
	switch {
	case errors.Is(err, errShuttingDown):
		return connect.CodeUnavailable, true
	case errors.Is(err, errUnknownPool), errors.Is(err, vecenv.ErrClosed),
		errors.Is(err, env.ErrUnknownGame), errors.Is(err, agents.ErrUnknownAgent),
		errors.Is(err, league.ErrNoLeague), errors.Is(err, league.ErrUnknownAgent):
		return connect.CodeNotFound, true
	case errors.Is(err, league.ErrExists), errors.Is(err, league.ErrAgentExists):
		return connect.CodeAlreadyExists, true
	case errors.Is(err, errInvalid), errors.Is(err, vecenv.ErrActions),
		errors.Is(err, league.ErrBadMatch), errors.Is(err, league.ErrInvalid),
		errors.As(err, &envCfg), errors.As(err, &poolCfg):
		return connect.CodeInvalidArgument, true
	case errors.Is(err, errNotReset), errors.Is(err, vecenv.ErrNotReset),
		errors.Is(err, errNoLeagues), errors.Is(err, league.ErrBusy), errors.Is(err, league.ErrRunning),
		errors.Is(err, league.ErrUnfinishedRun), errors.Is(err, league.ErrTooFewAgents):
		return connect.CodeFailedPrecondition, true
	case errors.Is(err, errLimit):
		return connect.CodeResourceExhausted, true
	case errors.Is(err, errDenied):
		return connect.CodePermissionDenied, true
	case errors.Is(err, context.Canceled):
		return connect.CodeCanceled, true
	case errors.Is(err, context.DeadlineExceeded):
		return connect.CodeDeadlineExceeded, true
	}
	return connect.CodeInternal, false
}

// connectError is the one place where domain errors become Connect errors
// (see codeOf for the table). An error that is already a *connect.Error
// passes through. An Internal error is logged with its details under
// procedure and sent with a generic message.
func connectError(log *slog.Logger, procedure string, err error) error {
	if err == nil {
		return nil
	}
	if ce := new(connect.Error); errors.As(err, &ce) {
		return ce
	}
	code, public := codeOf(err)
	if !public {
		log.Error("internal error", "procedure", procedure, "err", boundText(err.Error(), maxLogErrorBytes))
		return connect.NewError(code, errors.New("internal error (details in the server log)"))
	}
	if msg := err.Error(); len(msg) > maxQuoteBytes {
		if b := boundText(msg, maxErrorBytes); b != msg {
			err = &boundedError{text: b, err: err}
		}
	}
	return connect.NewError(code, err)
}

// Bounds of what an error echoes of its request.
const (
	// maxQuoteBytes is the most bytes of one client-supplied string an
	// error quotes (see [clip]).
	maxQuoteBytes = 64
	// maxErrorBytes is the most bytes of an error message sent to a client,
	// after its quoted strings are clipped.
	maxErrorBytes = 2048
	// maxLogErrorBytes is the most bytes of an internal error's text logged.
	maxLogErrorBytes = 8192
)

// clip returns s, or when s is longer than 64 bytes its first 64 bytes (cut
// at a UTF-8 boundary) and "…", for quoting client-supplied strings (pool
// ids, game names, agent specs, formats) in errors: an error never echoes
// unbounded input. Quote the result with %q.
func clip(s string) string {
	if len(s) <= maxQuoteBytes {
		return s
	}
	n := maxQuoteBytes
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// quoted matches a Go-quoted string (%q) in an error message.
var quoted = regexp.MustCompile(`"(?:[^"\\]|\\.)*"`)

// boundText bounds an error message that may echo client input from
// packages other than rpc (env's config errors, agents' names ...): every
// quoted string longer than the quote bound is clipped like [clip] does,
// and the message is then cut at limit bytes, saying how much was cut.
func boundText(msg string, limit int) string {
	if len(msg) <= maxQuoteBytes {
		return msg
	}
	msg = quoted.ReplaceAllStringFunc(msg, func(q string) string {
		if len(q) <= maxQuoteBytes+2 {
			return q
		}
		if s, err := strconv.Unquote(q); err == nil {
			return strconv.Quote(clip(s))
		}
		return `"` + clip(q[1:len(q)-1]) + `"`
	})
	if len(msg) > limit {
		cut := limit
		for cut > 0 && !utf8.RuneStart(msg[cut]) {
			cut--
		}
		msg = fmt.Sprintf("%s… (%d bytes cut)", msg[:cut], len(msg)-cut)
	}
	return msg
}

// boundedError is err with the bounded text of [boundText]: the client
// reads the text, errors.Is and errors.As see err.
type boundedError struct {
	text string
	err  error
}

func (e *boundedError) Error() string { return e.text }
func (e *boundedError) Unwrap() error { return e.err }
