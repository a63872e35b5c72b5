package vecenv

import (
	"fmt"
	"runtime/debug"
	"sync"
)

// op is what a batch asks every worker to do.
type op uint8

const (
	opStep op = iota
	opReset
)

// cachePad separates data written by different workers by more than a
// cache line (two, for the adjacent-line prefetcher), so that workers never
// share a line they write.
const cachePad = 128

// worker is one goroutine's share of the pool: a contiguous range of envs
// and its own scratch for env.Step and WriteObs. Worker 0 is the goroutine
// that calls Step. Each worker is a separate allocation, padded on both
// sides, and its scratch slices are padded too.
type worker struct {
	_       [cachePad]byte
	lo, hi  int           // env range
	wake    chan struct{} // nil for worker 0
	acts    []int32       // one per seat
	rew     []float32
	term    []bool
	trunc   []bool
	obs     [][]byte // one per tensor: a row's destination for WriteObs
	failure error    // a recovered panic of the last batch
	_       [cachePad]byte
}

// dispatcher runs batches on the workers. The caller's goroutine runs
// worker 0's range itself and waits for the others on done; channel
// operations do not allocate, and the channel hand-offs order the
// workers' writes before the caller's reads.
type dispatcher struct {
	p       *Pool
	op      op
	workers []*worker
	done    chan struct{}
	wg      sync.WaitGroup
}

// padded returns a zeroed slice of n elements whose backing array has
// cachePad bytes of padding on both sides.
func padded[T any](n, size int) []T {
	pad := (cachePad + size - 1) / size
	return make([]T, pad+n+pad)[pad : pad+n : pad+n]
}

// start makes nw workers over the pool's envs and starts all but worker 0.
func (d *dispatcher) start(p *Pool, nw int) {
	d.p = p
	seats := p.spec.Seats
	n := len(p.slots)
	d.workers = make([]*worker, nw)
	d.done = make(chan struct{}, nw)
	for k := range nw {
		w := &worker{
			lo:    k * n / nw,
			hi:    (k + 1) * n / nw,
			acts:  padded[int32](seats, 4),
			rew:   padded[float32](seats, 4),
			term:  padded[bool](seats, 1),
			trunc: padded[bool](seats, 1),
			obs:   padded[[]byte](len(p.spec.Obs), 24),
		}
		d.workers[k] = w
		if k > 0 {
			w.wake = make(chan struct{}, 1)
			d.wg.Add(1)
			go d.loop(w)
		}
	}
}

// loop is a worker goroutine: one batch per wake-up, until wake is closed.
func (d *dispatcher) loop(w *worker) {
	defer d.wg.Done()
	for range w.wake {
		d.work(w)
		d.done <- struct{}{}
	}
}

// run runs one batch of o on every worker and returns when all are done.
// A panic on any worker is re-raised here once all have finished.
func (d *dispatcher) run(o op) {
	d.op = o
	for _, w := range d.workers[1:] {
		w.wake <- struct{}{}
	}
	d.work(d.workers[0])
	for range d.workers[1:] {
		<-d.done
	}
	for _, w := range d.workers {
		if err := w.failure; err != nil {
			w.failure = nil
			panic(err)
		}
	}
}

// work runs the current batch on w's range, recovering a panic into
// w.failure.
func (d *dispatcher) work(w *worker) {
	defer func() {
		if r := recover(); r != nil {
			w.failure = fmt.Errorf("vecenv: panic in envs %d..%d: %v\n%s", w.lo, w.hi-1, r, debug.Stack())
		}
	}()
	switch d.op {
	case opStep:
		d.p.stepRange(w, w.lo, w.hi)
	case opReset:
		d.p.resetRange(w, w.lo, w.hi)
	}
}

// stop ends the worker goroutines and waits for them.
func (d *dispatcher) stop() {
	for _, w := range d.workers[1:] {
		close(w.wake)
	}
	d.wg.Wait()
}
