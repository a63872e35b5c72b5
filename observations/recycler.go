package observations

import (
	"sync"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// recycler is a memory.Allocator that keeps the slices Arrow frees and
// hands them out again, so that the buffers the IPC writer allocates and
// releases within each batch (the header flatbuffer and, with zstd, one
// compressed buffer per body buffer, each as large as the worst-case
// compressed size) are allocated once per Encoder instead of once per step.
// It holds at most maxCached slices; Close returns them to the underlying
// allocator. It is safe for concurrent use, as the IPC writer's parallel
// compression requires.
type recycler struct {
	mem    memory.Allocator
	mu     sync.Mutex
	cached [][]byte
}

const maxCached = 32

var _ memory.Allocator = (*recycler)(nil)

// Allocate returns a zeroed slice of size bytes, a cached one if one is
// large enough (the smallest such).
func (r *recycler) Allocate(size int) []byte {
	r.mu.Lock()
	best := -1
	for i, b := range r.cached {
		if cap(b) >= size && (best < 0 || cap(b) < cap(r.cached[best])) {
			best = i
		}
	}
	if best < 0 {
		r.mu.Unlock()
		// Cap the slice at the size the underlying allocator accounts
		// for, so that Free can hand back b[:cap(b)].
		return r.mem.Allocate(size)[:size:size]
	}
	b := r.cached[best]
	last := len(r.cached) - 1
	r.cached[best], r.cached[last] = r.cached[last], nil
	r.cached = r.cached[:last]
	r.mu.Unlock()
	b = b[:size]
	clear(b)
	return b
}

// Reallocate returns a slice of size bytes holding b's bytes, zeroed
// beyond them.
func (r *recycler) Reallocate(size int, b []byte) []byte {
	if size <= cap(b) {
		old := len(b)
		b = b[:size]
		if size > old {
			clear(b[old:])
		}
		return b
	}
	nb := r.Allocate(size)
	copy(nb, b)
	r.Free(b)
	return nb
}

// Free keeps b for a later Allocate, or frees the smallest cached slice
// when maxCached are kept.
func (r *recycler) Free(b []byte) {
	if cap(b) == 0 {
		r.mem.Free(b)
		return
	}
	r.mu.Lock()
	if len(r.cached) < maxCached {
		r.cached = append(r.cached, b[:cap(b)])
		r.mu.Unlock()
		return
	}
	small := 0
	for i, c := range r.cached {
		if cap(c) < cap(r.cached[small]) {
			small = i
		}
	}
	if cap(r.cached[small]) < cap(b) {
		b, r.cached[small] = r.cached[small], b[:cap(b)]
	}
	r.mu.Unlock()
	r.mem.Free(b)
}

// Close frees every cached slice.
func (r *recycler) Close() {
	r.mu.Lock()
	defer r.mu.Unlock()
	for i, b := range r.cached {
		r.mem.Free(b)
		r.cached[i] = nil
	}
	r.cached = r.cached[:0]
}
