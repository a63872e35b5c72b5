package server

import (
	"context"
	"sync"
)

// This file admits long-lived streams (envservice's StepStream): each one
// holds a goroutine and the HTTP/2 and Connect state of its stream for as
// long as its client keeps it open, so each is counted against its
// connection's and its client's limits and charged to the memory budget
// ([Host.OpenStream]). The service bounds how long a stream may wait for
// its client (envservice.WithStreamIdleTimeout).

// Defaults of the stream limits and the budget a stream is charged.
const (
	// DefaultMaxClientStreams is the default of [WithMaxClientStreams].
	DefaultMaxClientStreams = 256
	// DefaultMaxConnStreams is the default of [WithMaxConnStreams].
	DefaultMaxConnStreams = 128
	// StreamBytes is what an open stream is charged in the memory budget:
	// its handler's goroutine (stack included) and its HTTP/2 and Connect
	// state and buffers, measured at about 16 KiB for a stream waiting for
	// its first message, with room for a stack that has grown. The batches
	// a stream sends are its pool's (see envservice's budget.go).
	StreamBytes = 64 << 10
)

// WithMaxClientStreams sets the most streams one client (the peer's IP
// address) may have open at once; a stream beyond it is
// ResourceExhausted. Zero or less means the default,
// [DefaultMaxClientStreams] (256).
func WithMaxClientStreams(n int) Option { return func(o *options) { o.maxClientStreams = n } }

// WithMaxConnStreams sets the most streams one connection may have open
// at once (a server made by [NewHTTPServer] tells connections apart); a
// stream beyond it is ResourceExhausted. Zero or less means the default,
// [DefaultMaxConnStreams] (128).
func WithMaxConnStreams(n int) Option { return func(o *options) { o.maxConnStreams = n } }

// Stream is an open stream's admission ([Host.OpenStream]): its place
// among its connection's and its client's streams and its share of the
// memory budget. Close gives them back.
type Stream struct {
	conn *connState
	mem  *Reservation
	once sync.Once
}

// OpenStream admits a stream of the call of ctx (a Connect handler's
// context): it counts it among its connection's streams
// ([WithMaxConnStreams]; when the server recorded the connection) and its
// client's ([WithMaxClientStreams]; the client is [ClientKey]), and
// charges [StreamBytes] to the client in the memory budget. Beyond a
// limit it fails with an [ErrLimit] error (ResourceExhausted) that names
// the limit and its flag. Close the result when the stream ends.
func (h *Host) OpenStream(ctx context.Context) (*Stream, error) {
	conn := connOf(ctx)
	if conn != nil {
		if n := conn.streams.Add(1); int(n) > h.opts.maxConnStreams {
			conn.streams.Add(-1)
			return nil, Markf(ErrLimit, "this connection has %d streams open, its limit (--max-conn-streams %d); close streams you do not use, or open more on another connection",
				n-1, h.opts.maxConnStreams)
		}
	}
	mem, err := h.budget.reserveStream(ClientKey(ctx), h.opts.maxClientStreams)
	if err != nil {
		if conn != nil {
			conn.streams.Add(-1)
		}
		return nil, err
	}
	return &Stream{conn: conn, mem: mem}, nil
}

// Close gives the stream's admission back; later calls do nothing. A nil
// s is fine.
func (s *Stream) Close() {
	if s == nil {
		return
	}
	s.once.Do(func() {
		if s.conn != nil {
			s.conn.streams.Add(-1)
		}
		s.mem.Release()
	})
}

// StreamsOpen returns how many streams [Host.OpenStream] has admitted and
// not yet closed.
func (h *Host) StreamsOpen() int { return h.budget.streamsOpen() }
