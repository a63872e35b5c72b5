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

// worker is one goroutine's scratch for env.Step, and its
// batch groups. Worker 0 is the goroutine that calls Step. Each worker is a
// separate allocation, padded on both sides, and its scratch slices are
// padded too.
type worker struct {
	_       [cachePad]byte
	id      int           // index in the dispatcher's workers; 0 is the caller
	span    int           // envs the batch groups and oppActs hold: a chunk's at most
	base    int           // first env of the chunk being stepped: oppActs[(env-base)*len(oppSeats)+j]
	wake    chan struct{} // nil for worker 0
	parked  atomic.Bool   // parked on wake
	acts    []int32       // one per seat
	rew     []float32
	term    []bool
	trunc   []bool
	groups  []batchGroup // one per Batcher with seats in the pool
	groupOf []int        // Pool.batchers index → index in groups, or -1
	oppActs []int32      // batched opponents' actions of the chunk being stepped
	failure error        // a recovered panic of the last batch
	_       [cachePad]byte
}

// chunk is a contiguous range of envs, lo..hi-1: the unit of work a
// worker takes.
type chunk struct{ lo, hi int }

// dispatcher runs batches on the workers. A batch is split into chunks,
// more than there are workers; the caller's goroutine and the workers it
// woke take the chunks in order from an atomic counter, each as soon as it
// is free, so a worker that is descheduled, or slow to wake, holds back at
// most the one chunk it took, and the caller steps the chunks nobody took.
// The caller then waits for the chunks still being stepped: it spins
// without yielding while a P is spare, for about two chunks' time, and
// then parks (see await).
//
// Idle workers wait for the next batch by spinning on an atomic epoch
// (yielding their P each time), for at most twice what the last batch took
// and workerSpin, and then park on a channel. Spinning stops when it does
// not pay: after a batch in which no woken worker took a chunk (they were
// slow to wake or were descheduled), the workers park at once and, when
// that batch was short (shortBatch), are not woken for the next
// quietBatches batches, which the caller steps alone, unless one proves
// long (an env waiting on an external bot): then they join it (see alone).
//
// With Config.Workers 0 a [tuner] chooses how many workers each batch
// wakes from the measured batch times; with a fixed count every batch
// wakes them all (unless quiet). Atomics and channel operations do not
// allocate, and both order the workers' writes before the caller's reads.
type dispatcher struct {
	p       *Pool
	op      op
	spare   bool // a P for every worker and the caller: the caller may spin (see await)
	workers []*worker
	chunks  []chunk
	auto    bool  // Config.Workers was 0: tune chooses the count
	tune    tuner // with auto
	quiet   int   // batches left that wake no worker
	lastNs  int64 // the last batch's duration
	used    int   // workers the last Step woke, the caller included
	// force, when set (tests), chooses the count of every batch instead
	// of the tuner.
	force func() int
	wg    sync.WaitGroup

	_      [cachePad]byte
	epoch  atomic.Uint64 // batches posted
	stop   atomic.Bool   // set before the last epoch: the workers exit
	count  atomic.Int32  // workers that take chunks in this batch, the caller included
	spinNs atomic.Int64  // how long an idle worker spins before it parks
	_      [cachePad]byte
	next   atomic.Int32 // the next chunk to take
	_      [cachePad]byte
	done   atomic.Int32 // chunks finished
	helped atomic.Int32 // chunks finished by workers other than the caller
	_      [cachePad]byte
	parked atomic.Bool   // the caller is parked on wake
	wake   chan struct{} // wakes the parked caller
	_      [cachePad]byte
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

// quietBatches is how many batches the workers sit out after a short
// batch in which none of them took a chunk (see dispatcher).
const quietBatches = 63

// shortBatch is how long a batch that no woken worker helped with may be
// for the workers to sit out the next ones: 20 wake-ups. In a longer one
// they were descheduled rather than slow to wake, and waking them costs
// little next to the batch.
const shortBatch = 20 * wakeCost

// chunksPerWorker is how many chunks a batch is split into per worker, at
// least: enough that a worker that stalls holds back a small share.
const chunksPerWorker = 4

// chunkBytes bounds the bytes of learner rows (observations and masks) of
// one chunk when a batch has several workers: 1 MiB, half of a 2 MiB L2
// (the 2-core machine's), so that a chunk's rows and the states of its
// envs stay in the core's own cache while the chunk is stepped, and a
// batch splits into more chunks as it grows.
const chunkBytes = 1 << 20

// wait returns once ready reports true: it spins up to spin (yielding its P
// each round), then parks on ch (see park). Only the pool's own goroutines
// wait this way; the caller uses await.
func wait(ready func() bool, spin time.Duration, parked *atomic.Bool, ch chan struct{}) {
	spinPark(ready, spin, true, parked, ch)
}

// await is wait for the goroutine that called into the pool. That goroutine
// may be locked to its OS thread — a cgo callback is, so every call of the
// native backend's library — and there runtime.Gosched hands the P to
// another thread and waits to be handed it back: two thread switches a
// round, which made the caller's spin of wait cost more than the batch.
// So the caller never yields while it spins: with spin > 0 (callers pass 0
// unless a P is free for them while every worker runs) it spins on ready
// for up to spin, and then, or at once, it parks.
func await(ready func() bool, spin time.Duration, parked *atomic.Bool, ch chan struct{}) {
	spinPark(ready, spin, false, parked, ch)
}

// spinPark is wait (yield set) and await: it spins on ready for up to spin,
// yielding its P each round when yield is set, and reads the clock every
// 16 rounds when it yields, every 64 when it does not; then, or at once
// when spin is 0, it parks.
func spinPark(ready func() bool, spin time.Duration, yield bool, parked *atomic.Bool, ch chan struct{}) {
	if spin > 0 {
		clock := 63 // rounds between clock reads, less one: a mask
		if yield {
			clock = 15
		}
		start := time.Now()
		for i := 1; ; i++ {
			if ready() {
				return
			}
			if yield {
				runtime.Gosched()
			}
			if i&clock == 0 && time.Since(start) > spin {
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

// splitChunks splits n envs, each writing envBytes bytes of rows, into the
// chunks of a pool with nw workers: one with a single worker (the serial
// reference is one plain loop), otherwise at least chunksPerWorker per
// worker and enough that none writes much more than chunkBytes, at most
// one per env, of sizes differing by at most one env.
func splitChunks(n, nw, envBytes int) []chunk {
	c := 1
	if nw > 1 {
		c = max(nw*chunksPerWorker, (n*envBytes+chunkBytes-1)/chunkBytes)
	}
	c = min(c, n)
	chunks := make([]chunk, c)
	for k := range c {
		chunks[k] = chunk{lo: k * n / c, hi: (k + 1) * n / c}
	}
	return chunks
}

// start makes nw workers over the pool's envs and starts all but worker 0.
// auto: the count of each batch is tuned (Config.Workers 0).
func (d *dispatcher) start(p *Pool, nw int, auto bool) {
	d.p = p
	n := len(p.slots)
	envBytes := len(p.learners) * (p.spec.ObsBytes() + p.spec.Actions)
	d.chunks = splitChunks(n, nw, envBytes)
	span := 0
	for _, c := range d.chunks {
		span = max(span, c.hi-c.lo)
	}
	d.workers = make([]*worker, nw)
	d.wake = make(chan struct{}, 1)
	d.spare = nw <= runtime.GOMAXPROCS(0)
	d.auto = auto && nw > 1
	d.tune = tuner{max: nw, active: 1, backoff: 1}
	d.used = 1
	d.spinNs.Store(int64(workerSpin))
	for k := range nw {
		w := p.newWorker(span)
		w.id = k
		d.workers[k] = w
		if k > 0 {
			w.wake = make(chan struct{}, 1)
			d.wg.Add(1)
			go d.loop(w)
		}
	}
}

// newWorker returns a worker whose batch groups hold span envs, with its
// scratch and the batch groups of the pool's batched opponents.
func (p *Pool) newWorker(span int) *worker {
	seats := p.spec.Seats
	w := &worker{
		span:  span,
		acts:  padded[int32](seats, 4),
		rew:   padded[float32](seats, 4),
		term:  padded[bool](seats, 1),
		trunc: padded[bool](seats, 1),
	}
	for g := range p.batchers {
		p.addBatchGroup(w, g)
	}
	return w
}

// loop is a worker goroutine: it takes chunks of every batch it is
// counted in, until stop.
func (d *dispatcher) loop(w *worker) {
	defer d.wg.Done()
	seen := uint64(0)
	posted := func() bool { return d.epoch.Load() != seen }
	for {
		wait(posted, time.Duration(d.spinNs.Load()), &w.parked, w.wake)
		seen = d.epoch.Load()
		if d.stop.Load() {
			return
		}
		if int32(w.id) < d.count.Load() {
			d.drain(w)
		}
	}
}

// drain takes chunks of the current batch and steps them on w until none
// is left; the one that finishes the last chunk wakes the caller.
func (d *dispatcher) drain(w *worker) {
	n := int32(len(d.chunks))
	for {
		c := d.next.Add(1) - 1
		if c >= n {
			return
		}
		d.work(w, d.chunks[c])
		if w.id > 0 {
			d.helped.Add(1)
		}
		if d.done.Add(1) == n {
			signal(&d.parked, d.wake)
		}
	}
}

// countFor returns how many workers take part in the next batch of o, the
// caller included.
func (d *dispatcher) countFor(o op) int {
	switch {
	case d.force != nil:
		return min(max(d.force(), 1), len(d.workers))
	case len(d.workers) == 1 || d.quiet > 0:
		return 1
	case d.auto && o == opStep:
		return d.tune.count()
	}
	return len(d.workers)
}

// run runs one batch of o over every chunk and returns when all are done.
// A panic on any worker is re-raised here once every chunk has finished.
func (d *dispatcher) run(o op) {
	d.op = o
	if len(d.workers) == 1 {
		// The serial pool: one chunk on the caller, nothing to time.
		d.work(d.workers[0], d.chunks[0])
		d.rethrow()
		return
	}
	start := time.Now()
	k := d.countFor(o)
	if d.quiet > 0 {
		d.quiet--
	}
	n := int32(len(d.chunks))
	d.done.Store(0)
	d.helped.Store(0)
	d.count.Store(int32(k))
	d.next.Store(0)
	if k > 1 {
		d.wakeWorkers(k)
	} else if d.force == nil {
		k = d.alone(start, n)
	}
	d.drain(d.workers[0])
	if d.done.Load() != n {
		spin := time.Duration(0)
		if d.spare {
			spin = min(busySpin, time.Duration(2*d.lastNs/int64(n)))
		}
		await(d.finished, spin, &d.parked, d.wake)
	}
	ns := int64(time.Since(start))
	d.lastNs = ns
	if o == opStep {
		d.used = k
	}
	unhelped := k > 1 && d.helped.Load() == 0 && d.force == nil
	if unhelped {
		// The woken workers came too late to take a chunk: their wake-up
		// costs more than the batch, or they were descheduled. They park
		// at once from now on.
		d.spinNs.Store(0)
	} else {
		d.spinNs.Store(min(int64(workerSpin), 2*ns))
	}
	switch {
	case unhelped && ns < int64(shortBatch) && d.auto:
		d.tune.unhelped(k) // a wake-up matters next to such a batch
	case unhelped && ns < int64(shortBatch):
		d.quiet = quietBatches
	case d.auto && o == opStep && d.force == nil:
		d.tune.observe(k, ns)
	}
	d.rethrow()
}

// wakeWorkers posts the batch to the first k workers (the caller
// included), whose count is stored first.
func (d *dispatcher) wakeWorkers(k int) {
	d.count.Store(int32(k))
	d.epoch.Add(1)
	for _, w := range d.workers[1:k] {
		signal(&w.parked, w.wake)
	}
}

// alone steps the chunks of a batch that wakes no worker (quiet, or the
// tuner chose one) on the caller, one by one, until the batch proves long:
// once it has run past shortBatch with chunks left (an env waiting on an
// external bot, say), quiet ends and every worker is woken for the rest,
// their wake-up being cheap next to such a chunk. It returns the count the
// batch ends up with (1, or every worker), and leaves the chunks not taken
// to drain.
func (d *dispatcher) alone(start time.Time, n int32) int {
	for d.next.Load() < n {
		if time.Since(start) > shortBatch {
			d.quiet = 0
			d.wakeWorkers(len(d.workers))
			return len(d.workers)
		}
		c := d.next.Add(1) - 1
		if c >= n {
			break
		}
		d.work(d.workers[0], d.chunks[c])
		if d.done.Add(1) == n {
			signal(&d.parked, d.wake)
		}
	}
	return 1
}

// rethrow re-raises the first recovered panic of the batch, once every
// chunk has finished.
func (d *dispatcher) rethrow() {
	for _, w := range d.workers {
		if err := w.failure; err != nil {
			w.failure = nil
			panic(err)
		}
	}
}

// finished reports whether every chunk of the batch is done.
func (d *dispatcher) finished() bool { return d.done.Load() == int32(len(d.chunks)) }

// work runs the current batch on chunk c with w's scratch, recovering a
// panic into w.failure.
func (d *dispatcher) work(w *worker, c chunk) {
	defer func() {
		if r := recover(); r != nil {
			w.failure = fmt.Errorf("vecenv: panic in envs %d..%d: %v\n%s", c.lo, c.hi-1, r, debug.Stack())
		}
	}()
	switch d.op {
	case opStep:
		d.p.stepRange(w, c.lo, c.hi)
	case opReset:
		d.p.resetRange(w, c.lo, c.hi)
	}
}

// stopAll ends the worker goroutines and waits for them.
func (d *dispatcher) stopAll() {
	d.stop.Store(true)
	d.epoch.Add(1)
	for _, w := range d.workers[1:] {
		signal(&w.parked, w.wake)
	}
	d.wg.Wait()
}
