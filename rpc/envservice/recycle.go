package envservice

import (
	"context"
	"net/http"
)

// Why responses are recycled this way.
//
// A Step response carries the batch message, megabytes for a large pool.
// The pool encodes it straight into its protobuf wire form in a response
// buffer (batchBuf), and the service's codec hands that buffer to Connect
// as the marshalled message (codec.go). Building it into a fresh slice
// every step would cost an allocation of that size (and its zeroing and
// garbage collection); reusing one slice per pool is wrong, because the
// unary handler returns before Connect marshals and writes the response,
// and the pool's lock is released on return: the next Step on the same
// pool could overwrite the slice while Connect still reads it.
//
// So a response buffer goes back to its pool only once Connect is done with
// it. Connect marshals and writes a unary response inside the handler's
// ServeHTTP, and keeps no reference to the message afterwards (nor to the
// marshalled bytes: see package wire on its buffer pool); the recycling
// middleware of Server.Handler puts a releaser into the request context,
// the handler registers the buffer there, and the middleware hands it back
// after ServeHTTP returns. Without the middleware (the generated handler
// mounted directly) there is no releaser and every response gets a fresh
// buffer, which is always safe.
//
// StepStream does not need this: stream.Send marshals and writes before it
// returns, so each stream owns one buffer and reuses it for every response.

// releaser collects what to do once a response has been written.
type releaser struct {
	fns []func()
}

type releaserKey struct{}

// recycling wraps h so that buffers registered with onWritten are returned
// after h has written the response.
func recycling(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rel := &releaser{}
		h.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), releaserKey{}, rel)))
		for _, fn := range rel.fns {
			fn()
		}
	})
}

// onWritten registers fn to run once the response of the request of ctx has
// been written, and reports whether it could: false when the handler is not
// behind recycling (the caller then must not reuse what fn would free).
func onWritten(ctx context.Context, fn func()) bool {
	rel, ok := ctx.Value(releaserKey{}).(*releaser)
	if !ok {
		return false
	}
	rel.fns = append(rel.fns, fn)
	return true
}
