package server

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
	"github.com/botarena/botarena/vecenv"
)

// The kinds of the services' own errors. Services return them through
// [Markf] and [Invalidf], with the pool, field, value and expected range in
// the text; [ConnectError] turns them, and the domain errors of env, vecenv
// and agents, into Connect codes in one place.
var (
	// ErrNotFound: what the request names does not exist (a pool never
	// created, closed, or closed after being idle; matchservice: a league or
	// a league's agent). NotFound.
	ErrNotFound = errors.New("not found")
	// ErrExists: what the request would make exists already (matchservice:
	// a league or a league agent's name in use). AlreadyExists.
	ErrExists = errors.New("already exists")
	// ErrInvalid: a request field the client can fix (a malformed config,
	// an action byte count or value, an env index, a render format). The
	// wrapping text names the field, the value and what was expected.
	// InvalidArgument.
	ErrInvalid = errors.New("invalid argument")
	// ErrLimit: a server limit (MaxPools, MaxEnvsPerPool, MaxTotalEnvs, a
	// response over the message limit, the memory budget).
	// ResourceExhausted.
	ErrLimit = errors.New("server limit")
	// ErrShuttingDown: the server is closing. Unavailable.
	ErrShuttingDown = errors.New("server is shutting down")
	// ErrDenied: an operation this server is not configured to allow (an
	// external agent beyond its capabilities). PermissionDenied.
	ErrDenied = errors.New("not allowed")
	// ErrNotReady: what the request uses is not ready for it, or not in the
	// state it needs (a pool stepped or rendered before its first Reset;
	// matchservice: a league RPC on a server without leagues, a league held
	// or being run, an unfinished run with other options, too few agents).
	// FailedPrecondition.
	ErrNotReady = errors.New("not ready")
)

// markedError is an error of one of the kinds above whose text is only its
// own message: the kind classifies it without prefixing the text, so that
// the client reads "pool \"p1\": actions: ..." rather than "invalid argument:
// pool ...".
type markedError struct {
	kind  error // ErrNotFound, ErrInvalid, ...
	text  string
	cause error // the wrapped error, if any
}

func (e *markedError) Error() string        { return e.text }
func (e *markedError) Is(target error) bool { return target == e.kind }
func (e *markedError) Unwrap() error        { return e.cause }

// Markf returns an error of kind (one of the kinds above) with the
// formatted text; a %w verb in format makes the error wrap that argument
// too.
func Markf(kind error, format string, args ...any) error {
	err := fmt.Errorf(format, args...)
	return &markedError{kind: kind, text: err.Error(), cause: errors.Unwrap(err)}
}

// Mark returns err as an error of kind too, with err's text: how a service
// maps a domain error of its own (matchservice: league.ErrBadMatch) to a
// code of the table.
func Mark(kind, err error) error {
	return &markedError{kind: kind, text: err.Error(), cause: err}
}

// Invalidf returns an InvalidArgument error with the formatted text.
func Invalidf(format string, args ...any) error { return Markf(ErrInvalid, format, args...) }

// codeOf classifies err: the Connect code a client gets for it, and whether
// its text may be sent to the client. Only errors a client can act on are
// sent as they are; anything unrecognised is Internal and its text stays in
// the server's log.
//
//	NotFound            ErrNotFound (unknown or closed pool, and what a service marks,
//	                    such as matchservice's league.ErrNoLeague and league.ErrUnknownAgent),
//	                    vecenv.ErrClosed, env.ErrUnknownGame, agents.ErrUnknownAgent
//	AlreadyExists       ErrExists (what a service marks: matchservice's league.ErrExists
//	                    and league.ErrAgentExists)
//	InvalidArgument     ErrInvalid (malformed config JSON, action bytes and values,
//	                    env index, seat, render format, stream pool id, and what
//	                    a service marks, such as matchservice's league.ErrBadMatch
//	                    and league.ErrInvalid), *env.ConfigError, *vecenv.ConfigError,
//	                    vecenv.ErrActions, vecenv.ErrInFlight (an async Send naming an
//	                    env in flight or an env twice)
//	FailedPrecondition  ErrNotReady (Step or Render before the first Reset, and what a
//	                    service marks: matchservice's league RPCs without leagues,
//	                    league.ErrBusy, league.ErrRunning, league.ErrUnfinishedRun,
//	                    league.ErrTooFewAgents), vecenv.ErrNotReset, vecenv.ErrStarved
//	                    (an async Recv with fewer envs in flight than a batch)
//	ResourceExhausted   ErrLimit: MaxPools, MaxEnvsPerPool, MaxTotalEnvs, the memory
//	                    budget, a response over the message limit
//	PermissionDenied    ErrDenied: an external agent beyond the agent capabilities
//	Unavailable         ErrShuttingDown: the server is shutting down
//	Canceled            context.Canceled (the client went away)
//	DeadlineExceeded    context.DeadlineExceeded
//	Internal            anything else, with a generic message
func codeOf(err error) (code connect.Code, public bool) {
	var envCfg *env.ConfigError
	var poolCfg *vecenv.ConfigError
	switch {
	case errors.Is(err, ErrShuttingDown):
		return connect.CodeUnavailable, true
	case errors.Is(err, ErrNotFound), errors.Is(err, vecenv.ErrClosed),
		errors.Is(err, env.ErrUnknownGame), errors.Is(err, agents.ErrUnknownAgent):
		return connect.CodeNotFound, true
	case errors.Is(err, ErrExists):
		return connect.CodeAlreadyExists, true
	case errors.Is(err, ErrInvalid), errors.Is(err, vecenv.ErrActions), errors.Is(err, vecenv.ErrInFlight),
		errors.As(err, &envCfg), errors.As(err, &poolCfg):
		return connect.CodeInvalidArgument, true
	case errors.Is(err, ErrNotReady), errors.Is(err, vecenv.ErrNotReset), errors.Is(err, vecenv.ErrStarved):
		return connect.CodeFailedPrecondition, true
	case errors.Is(err, ErrLimit):
		return connect.CodeResourceExhausted, true
	case errors.Is(err, ErrDenied):
		return connect.CodePermissionDenied, true
	case errors.Is(err, context.Canceled):
		return connect.CodeCanceled, true
	case errors.Is(err, context.DeadlineExceeded):
		return connect.CodeDeadlineExceeded, true
	}
	return connect.CodeInternal, false
}

// ConnectError is the one place where domain errors become Connect errors
// (see codeOf for the table). An error that is already a *connect.Error
// passes through. An Internal error is logged with its details under
// procedure and sent with a generic message.
func ConnectError(log *slog.Logger, procedure string, err error) error {
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
			err = &rewordedError{text: b, err: err} // the client reads the bounded text
		}
	}
	return connect.NewError(code, err)
}

// Bounds of what an error echoes of its request.
const (
	// maxQuoteBytes is the most bytes of one client-supplied string an
	// error quotes (see [Clip]).
	maxQuoteBytes = 64
	// maxErrorBytes is the most bytes of an error message sent to a client,
	// after its quoted strings are clipped.
	maxErrorBytes = 2048
	// maxLogErrorBytes is the most bytes of an internal error's text logged.
	maxLogErrorBytes = 8192
)

// Clip returns s, or when s is longer than 64 bytes its first 64 bytes (cut
// at a UTF-8 boundary) and "…", for quoting client-supplied strings (pool
// ids, game names, agent specs, formats) in errors: an error never echoes
// unbounded input. Quote the result with %q.
func Clip(s string) string {
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
// other packages (env's config errors, agents' names ...): every quoted
// string longer than the quote bound is clipped like [Clip] does,
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
			return strconv.Quote(Clip(s))
		}
		return `"` + Clip(q[1:len(q)-1]) + `"`
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
