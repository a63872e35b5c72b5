package vecenv

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"
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
	parked  atomic.Bool   // parked on wake
	acts    []int32       // one per seat
	rew     []float32
	term    []bool
	trunc   []bool
	obs     [][]byte     // one per tensor: a row's destination for WriteObs
	groups  []batchGroup // one per Batcher with seats in the range
	groupOf []int        // Pool.batchers index → index in groups, or -1
	oppActs []int32      // batched opponents' actions, [(env-lo)*len(oppSeats)+j]
	failure error        // a recovered panic of the last batch
	_       [cachePad]byte
}

// dispatcher runs batches on the workers. The caller's goroutine runs
// worker 0's range itself; the other workers wait for the next batch by
// spinning briefly on an atomic epoch (yielding their P each time) and then
// parking on a channel, and the caller waits for them on an atomic count,
// spinning without yielding while a P is spare and then parking (see
// await). A hand-off between running goroutines so costs no
// scheduler wake-up, and one to a parked goroutine one channel send. Atomics
// and channel operations do not allocate, and both order the workers'
// writes before the caller's reads.
type dispatcher struct {
	p       *Pool
	op      op
	stop    bool // set before the last epoch: the workers exit
	spare   bool // a P for every worker and the caller: the caller may spin (see await)
	workers []*worker
	wg      sync.WaitGroup

	_         [cachePad]byte
	epoch     atomic.Uint64 // batches posted
	_         [cachePad]byte
	remaining atomic.Int32 // workers (other than 0) not done with the batch
	_         [cachePad]byte
	parked    atomic.Bool   // the caller is parked on done
	done      chan struct{} // wakes the parked caller
	_         [cachePad]byte
}

// workerSpin bounds how long a waiting worker spins, yielding its P each
// round, before it parks: longer than what a caller does between
// back-to-back calls (a Python loop drawing the next actions takes 10–20
// µs, and a worker woken from park costs about a batch's time on a VM),
// short next to a trainer's policy step.
const workerSpin = 50 * time.Microsecond

// busySpin bounds how long the caller of a pool method spins without
// yielding (see await): about two Bomberman or BattleBots batches of 1024
// envs, long enough for a worker that was running to finish its share.
const busySpin = 200 * time.Microsecond

// wait returns once ready reports true: it spins up to workerSpin, then
// parks on ch (see park). Only the pool's own goroutines wait this way;
// the caller uses await.
func wait(ready func() bool, parked *atomic.Bool, ch chan struct{}) {
	start := time.Now()
	for i := 1; ; i++ {
		if ready() {
			return
		}
		runtime.Gosched()
		if i%16 == 0 && time.Since(start) > workerSpin {
			break
		}
	}
	park(ready, parked, ch)
}

// await is wait for the goroutine that called into the pool. That goroutine
// may be locked to its OS thread — a cgo callback is, so every call of the
// native backend's library — and there runtime.Gosched hands the P to
// another thread and waits to be handed it back: two thread switches a
// round, which made the caller's spin of wait cost more than the batch.
// So the caller never yields while it spins: with spare set (a P is free
// for it while every worker runs) it spins on ready for up to busySpin,
// and then, or at once without spare, it parks.
func await(ready func() bool, spare bool, parked *atomic.Bool, ch chan struct{}) {
	if spare {
		start := time.Now()
		for i := 1; ; i++ {
			if ready() {
				return
			}
			if i%64 == 0 && time.Since(start) > busySpin {
				break
			}
		}
	}
	park(ready, parked, ch)
}

// park returns once ready reports true, blocking on ch with parked set. A
// signaller makes ready true first, then sends on ch only if it swaps
// parked from true to false; so every token sent belongs to one park and
// is received in it, and no wake-up is lost. A late signaller of an
// earlier batch can wake a later park early, so a woken waiter checks
// ready again.
func park(ready func() bool, parked *atomic.Bool, ch chan struct{}) {
	for {
		parked.Store(true)
		if ready() {
			if !parked.Swap(false) {
				<-ch // a signaller took parked and sends
			}
			return
		}
		<-ch
		if ready() {
			return
		}
	}
}

// signal wakes a goroutine that parked in wait, after ready became true.
func signal(parked *atomic.Bool, ch chan struct{}) {
	if parked.Swap(false) {
		ch <- struct{}{}
	}
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
	n := len(p.slots)
	d.workers = make([]*worker, nw)
	d.done = make(chan struct{}, 1)
	d.spare = nw <= runtime.GOMAXPROCS(0)
	for k := range nw {
		w := p.newWorker(k*n/nw, (k+1)*n/nw)
		d.workers[k] = w
		if k > 0 {
			w.wake = make(chan struct{}, 1)
			d.wg.Add(1)
			go d.loop(w)
		}
	}
}

// newWorker returns a worker for envs lo..hi-1 with its scratch and the
// batch groups of its range's batched opponents.
func (p *Pool) newWorker(lo, hi int) *worker {
	seats := p.spec.Seats
	w := &worker{
		lo:    lo,
		hi:    hi,
		acts:  padded[int32](seats, 4),
		rew:   padded[float32](seats, 4),
		term:  padded[bool](seats, 1),
		trunc: padded[bool](seats, 1),
		obs:   padded[[]byte](len(p.spec.Obs), 24),
	}
	p.setupBatches(w)
	return w
}

// loop is a worker goroutine: one batch per epoch, until stop.
func (d *dispatcher) loop(w *worker) {
	defer d.wg.Done()
	seen := uint64(0)
	posted := func() bool { return d.epoch.Load() != seen }
	for {
		wait(posted, &w.parked, w.wake)
		seen++
		if d.stop {
			return
		}
		d.work(w)
		if d.remaining.Add(-1) == 0 {
			signal(&d.parked, d.done)
		}
	}
}

// post starts the next epoch on every other worker.
func (d *dispatcher) post() {
	d.epoch.Add(1)
	for _, w := range d.workers[1:] {
		signal(&w.parked, w.wake)
	}
}

// run runs one batch of o on every worker and returns when all are done.
// A panic on any worker is re-raised here once all have finished.
func (d *dispatcher) run(o op) {
	d.op = o
	d.remaining.Store(int32(len(d.workers) - 1))
	d.post()
	d.work(d.workers[0])
	if len(d.workers) > 1 {
		await(d.finished, d.spare, &d.parked, d.done)
	}
	for _, w := range d.workers {
		if err := w.failure; err != nil {
			w.failure = nil
			panic(err)
		}
	}
}

// finished reports whether every other worker is done with the batch.
func (d *dispatcher) finished() bool { return d.remaining.Load() == 0 }

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

// stopAll ends the worker goroutines and waits for them.
func (d *dispatcher) stopAll() {
	d.stop = true
	d.post()
	d.wg.Wait()
}
