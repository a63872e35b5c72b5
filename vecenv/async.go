package vecenv

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"
)

// Errors of [Async].
var (
	// ErrStarved: Recv was called with fewer envs in flight than a batch
	// holds, so no batch could ever complete; Send more envs first.
	ErrStarved = errors.New("vecenv: Recv with fewer envs in flight than the batch size")
	// ErrInFlight: Send named an env that is in flight (sent or reset and
	// not yet returned by Recv), or named an env twice.
	ErrInFlight = errors.New("vecenv: env already in flight")
)

// asyncOp is what a queued env is to do.
const (
	asyncStep uint8 = iota
	asyncReset
)

// spinWait is the longest wait of an async worker after which its next
// wait spins (for up to workerSpin) before it parks: waits between
// back-to-back batches (a Go caller) are a few microseconds; a Python
// caller drawing actions takes tens, which a spin would burn in full.
const spinWait = 10 * time.Microsecond

// maxChunk bounds how many queued envs an async worker takes at once (one
// lock round trip, one ActBatch per Batcher, for the lot).
const maxChunk = 64

// Async steps the envs of a [Pool] in the background in batches of
// BatchSize envs, as EnvPool's send/recv: [Async.Send] hands some envs
// their actions and returns at once; background workers step them; and
// [Async.Recv] returns the next batch of BatchSize envs that the workers
// have stepped, so that a trainer computes the actions of one batch while
// the others step.
//
// # Batches
//
// A batch has BatchSize × len(LearnerSeats) rows: an env's rows are
// consecutive, in LearnerSeats order, and Buffers.Env, Seat and Episode
// name each row's env, seat and episode (the row order is not the pool's).
// Workers take queued envs in the order they were sent, in chunks, and
// place each env in the next free place of the batch being filled; a batch
// is returned when all of its envs have finished their step. With
// in-process games, whose steps take microseconds, batches so hold the
// envs that finish first, up to one chunk (at most 64 envs) of
// reordering; a slow env (an external bot) holds back only its own batch.
//
// The batches live in [AsyncBatches](NumEnvs, BatchSize) Outputs
// ([Async.Batch]), a batch taking a free one when its first env is placed:
// since an env is in flight at most once, the batches in flight and the
// one Recv returned last never need more. The batch returned by Recv is
// not written until the next Recv returns, or until the caller says it is
// done with it ([Async.Release]). Read or copy it before then.
//
// A batch whose envs are sent back in the order Recv returned them, after
// Release, takes the Output they were in: every env's rows are where its
// last observation is, and games that implement [ObsUpdater] (and
// [MaskUpdater]) write only what changed, as in a [Pool]'s own rows. Any
// other row, whose last observation is another env's, is written in full.
// Without Release the envs' rows are always another Output's, written in
// full: the Output they were in is the caller's until the next Recv.
//
// # Determinism
//
// An env's trajectory depends only on its seeds (as in [Pool]) and the
// actions sent to it, whatever the completion order, the worker count or
// which envs are sent together: its rows in the batches are byte for byte
// those a [Pool.Step] would give it with the same actions, and
// [Pool.Stats] after [Async.Wait] equals the serial pool's after the same
// steps. The same autoreset modes apply: in [NextStep] mode an env sent
// after its episode ended is reset instead of stepped (its actions are
// ignored); in [SameStep] mode its final observation is in the batch's
// FinalObs.
//
// # Concurrency
//
// An Async is not safe for concurrent use: one goroutine calls its
// methods. Idle workers spin for up to 50 µs (yielding their P) before
// they park, as the sync pool's workers do, so that back-to-back batches
// pay no wake-up; a worker whose last wait took longer than a few
// microseconds parks at once, leaving the core to a caller that takes
// longer between Sends. Recv steps the envs of its batch still queued on the
// caller's goroutine, as one more worker, and then waits for those the
// workers took: it spins without yielding when a P is spare for it
// (fewer workers than GOMAXPROCS) and parks otherwise, as the sync pool's
// caller does. The pool must not be used directly while envs are in
// flight: call [Async.Wait] first, after which [Pool.Stats],
// [Pool.SetOpponents] and the other methods may be called until the
// next Send or Reset (an env's results already computed stay in their
// batch). [Async.Close] stops the workers; the pool stays open and can
// step synchronously again.
// A panic of an env or opponent on a worker is re-raised by the next
// Recv, Send or Wait on the caller's goroutine; the pool is then in an
// undefined state and should only be closed.
type Async struct {
	p       *Pool
	batch   int // envs per batch
	outs    []Output
	rows    []rows // outs, as the step kernel writes them
	workers []*asyncWorker
	wg      sync.WaitGroup

	// The caller's.
	inflight []bool   // per env: sent or reset, not yet returned by Recv
	stamp    []uint32 // per env: the Send call that last named it (duplicates)
	gen      uint32
	sent     int64 // envs sent (or reset) since the last Reset
	returned int64 // envs returned by Recv since the last Reset
	closed   bool

	// Written by the caller before an env is queued and read by the
	// worker that takes it (ordered by mu).
	op   []uint8 // per env: asyncStep or asyncReset
	acts []int32 // [env*len(LearnerSeats)+k]: the actions of env's rows

	mu       sync.Mutex
	idle     *sync.Cond // signalled when no env is queued or being stepped
	queue    []int32    // a ring of NumEnvs entries: the envs to step, in order
	head     int
	queued   int
	active   int   // envs taken by workers and not finished
	nextSlot int64 // the place of the next env taken, counting from 0 at Reset
	stop     bool
	// The batches' Outputs (buffers): bufOf[b%len(outs)] is the buffer of
	// batch b (counting from 0 at Reset), chosen when its first env is
	// queued (see place) and read without the lock by whoever steps its
	// envs (they took them after it was chosen) and by Recv.
	// free holds the buffers no batch in flight and not the caller's:
	// the caller's is held (Recv's last) until the next Recv returns or
	// Release. lastBuf[e] is the buffer env e was last placed first in.
	bufOf   []int32
	free    []int32
	isFree  []bool
	held    int32 // -1: none
	lastBuf []int32

	// Workers and Recv wait as the sync dispatcher's goroutines do (see
	// wait): spinning briefly on an atomic, then parking on a channel.
	pending     atomic.Int64   // queued, for the workers' spinning
	stopped     atomic.Bool    // stop, for the same
	done        []atomic.Int32 // per batch of the ring: envs finished in it
	recvParked  atomic.Bool
	caller      *worker // Recv's: it steps queued envs of its batch while it waits
	callerChunk []int32
	spare       bool // fewer workers than GOMAXPROCS: Recv may spin (see await)
	recvWake    chan struct{}

	failOnce sync.Once
	failure  error
	failed   chan struct{} // closed when a worker panicked
}

// AsyncBatches returns the number of batches of batchSize envs in the
// ring of an [Async] over numEnvs envs: ceil(numEnvs/batchSize) + 1.
func AsyncBatches(numEnvs, batchSize int) int {
	return (numEnvs+batchSize-1)/batchSize + 1
}

// NewAsync starts async stepping of p's envs in batches of batchSize envs,
// 1 ≤ batchSize ≤ NumEnvs, on p.Workers()-1 background goroutines (one
// for a pool of one worker): as in [Pool.Step], the caller's goroutine is
// one more worker, stepping its batch's envs in Recv. The
// batches are written into outs, [AsyncBatches] Outputs of batchSize ×
// len(LearnerSeats) rows (see [Output]; the Env, Seat and Episode columns
// are written with each row), or, when outs is nil, into Outputs it
// allocates.
//
// Every env starts out of flight: after [Pool.Reset] (or Steps) envs can
// be sent at once; otherwise call [Async.Reset] first. NewAsync returns a
// [*ConfigError] for a bad batch size or a pool without learner seats, an
// error wrapping [ErrOutput] for bad outs, or [ErrClosed]. The caller must
// not use p directly until the Async is closed, except as its
// documentation allows.
func NewAsync(p *Pool, batchSize int, outs []Output) (*Async, error) {
	if p.closed {
		return nil, ErrClosed
	}
	n, L := len(p.slots), len(p.learners)
	if L == 0 {
		return nil, &ConfigError{Field: "LearnerSeats", Value: "[]", Reason: "must not be empty for async stepping"}
	}
	if batchSize < 1 || batchSize > n {
		return nil, &ConfigError{Field: "BatchSize", Value: batchSize, Reason: fmt.Sprintf("must be in 1..%d (NumEnvs)", n)}
	}
	nb := AsyncBatches(n, batchSize)
	if outs == nil {
		outs = make([]Output, nb)
		for k := range outs {
			outs[k] = p.NewOutput(batchSize * L)
		}
	}
	if len(outs) != nb {
		return nil, fmt.Errorf("%w: %d batches, want AsyncBatches(%d, %d) = %d", ErrOutput, len(outs), n, batchSize, nb)
	}
	for k, out := range outs {
		if err := p.checkOutput(out, batchSize*L); err != nil {
			return nil, fmt.Errorf("batch %d: %w", k, err)
		}
	}
	a := &Async{
		p:        p,
		batch:    batchSize,
		outs:     outs,
		rows:     make([]rows, nb),
		bufOf:    make([]int32, nb),
		isFree:   make([]bool, nb),
		held:     -1,
		lastBuf:  make([]int32, n),
		inflight: make([]bool, n),
		stamp:    make([]uint32, n),
		op:       make([]uint8, n),
		acts:     make([]int32, n*L),
		queue:    make([]int32, n),
		done:     make([]atomic.Int32, nb),
		failed:   make(chan struct{}),
	}
	a.idle = sync.NewCond(&a.mu)
	a.recvWake = make(chan struct{}, 1)
	for k, out := range outs {
		a.rows[k] = versioned(out.Buffers, out.FinalObs, out.Ended)
	}
	a.freeAll()
	// A caller that computes actions between Recv and Send keeps a core
	// busy too: more goroutines than cores would only take turns.
	for range max(p.Workers()-1, 1) {
		a.workers = append(a.workers, &asyncWorker{worker: p.newWorker(n), wake: make(chan struct{}, 1)})
	}
	a.caller = p.newWorker(n)
	a.callerChunk = make([]int32, maxChunk)
	a.spare = len(a.workers) < runtime.GOMAXPROCS(0)
	a.syncGroups()
	a.wg.Add(len(a.workers))
	for _, w := range a.workers {
		go a.loop(w)
	}
	return a, nil
}

// BatchSize returns the number of envs in a batch.
func (a *Async) BatchSize() int { return a.batch }

// Batches returns the number of batches in the ring, [AsyncBatches].
func (a *Async) Batches() int { return len(a.outs) }

// Batch returns batch k of the ring (k as returned by [Async.Recv]). It is
// overwritten as the envs of later batches step: see [Async].
func (a *Async) Batch(k int) Output { return a.outs[k] }

// InFlight returns the number of envs sent (or reset) and not yet returned
// by Recv.
func (a *Async) InFlight() int { return int(a.sent - a.returned) }

// Reset waits for the envs in flight, drops every batch not yet returned,
// and starts a new episode in every env in the background, as
// [Pool.Reset] does (episode ids count up by one), filling the batches
// from the first: the next Recv calls return the envs' first
// observations, ceil(NumEnvs/BatchSize) batches of them (with
// NumEnvs not a multiple of BatchSize, the last needs more envs sent). It
// returns [ErrClosed] after Close, or the error of an opponent factory
// (see [Pool.SetOpponents]).
func (a *Async) Reset() error {
	if err := a.check(); err != nil {
		return err
	}
	a.Wait()
	if err := a.prepare(); err != nil {
		return err
	}
	a.mu.Lock()
	a.nextSlot = 0
	a.freeAll()
	a.mu.Unlock()
	for k := range a.done {
		a.done[k].Store(0)
		a.rows[k].forget(0, len(a.rows[k].views)) // a reset writes every row in full, as Pool.Reset does
	}
	n := len(a.p.slots)
	for i := range n {
		a.op[i] = asyncReset
		a.inflight[i] = true
		a.queue[i] = int32(i)
	}
	a.sent, a.returned = int64(n), 0
	a.p.started = true
	a.mu.Lock()
	a.place(a.queue, 0)
	a.head, a.queued = 0, n
	a.pending.Store(int64(n))
	a.mu.Unlock()
	a.wakeWorkers()
	return nil
}

// asyncWorker is an async worker goroutine: a worker over every env, and
// how it parks.
type asyncWorker struct {
	*worker
	parked atomic.Bool
	wake   chan struct{}
}

// wakeWorkers wakes the parked workers after envs were queued or stop set.
func (a *Async) wakeWorkers() {
	for _, w := range a.workers {
		signal(&w.parked, w.wake)
	}
}

// Send queues envs to step, envs[j] with actions[j*L:(j+1)*L] for its L =
// len(LearnerSeats) learner rows (in LearnerSeats order), and returns
// without waiting for them. The slices are only read during the call.
//
// Send checks everything before queuing anything: an env out of range, in
// flight or named twice wraps [ErrInFlight] or is a [*ConfigError]; a
// wrong number of actions or an action outside 0..Actions-1 wraps
// [ErrActions]; before the pool's first reset it is [ErrNotReset], after
// Close [ErrClosed]. An opponent mixture changed by [Pool.SetOpponents]
// makes Send wait for the envs in flight before it makes the new
// opponents.
func (a *Async) Send(envs, actions []int32) error {
	return a.send(envs, actions, false)
}

// ReleaseAndSend is [Async.Release] then [Async.Send], for a caller that
// hands the batch Recv returned last over with its envs' actions (a
// send-and-receive call): the envs sent back in that batch's order step
// into their own rows. Nothing is released when Send refuses its
// arguments.
func (a *Async) ReleaseAndSend(envs, actions []int32) error {
	return a.send(envs, actions, true)
}

// send is Send, releasing the caller's batch first (once the arguments
// are checked) when release is set.
func (a *Async) send(envs, actions []int32, release bool) error {
	if err := a.check(); err != nil {
		return err
	}
	p := a.p
	if !p.started {
		return ErrNotReset
	}
	L, n := len(p.learners), len(p.slots)
	if len(actions) != len(envs)*L {
		return fmt.Errorf("%w: got %d actions for %d envs, want %d (%d learner seats per env)", ErrActions, len(actions), len(envs), len(envs)*L, L)
	}
	a.gen++
	if a.gen == 0 { // wrapped: forget the old stamps
		clear(a.stamp)
		a.gen = 1
	}
	for j, e := range envs {
		switch {
		case e < 0 || int(e) >= n:
			return &ConfigError{Field: fmt.Sprintf("envs[%d]", j), Value: e, Reason: fmt.Sprintf("must be an env in 0..%d", n-1)}
		case a.inflight[e]:
			return fmt.Errorf("%w: envs[%d] = %d is in flight (sent and not yet returned by Recv)", ErrInFlight, j, e)
		case a.stamp[e] == a.gen:
			return fmt.Errorf("%w: envs[%d] = %d is named twice", ErrInFlight, j, e)
		}
		a.stamp[e] = a.gen
	}
	na := uint32(p.spec.Actions)
	for j, act := range actions {
		if uint32(act) >= na {
			return fmt.Errorf("%w: action %d of env %d (seat %d) is outside 0..%d", ErrActions, act, envs[j/L], p.learners[j%L], na-1)
		}
	}
	if p.mixDirty || a.groupsStale() {
		a.Wait()
		if err := a.prepare(); err != nil {
			return err
		}
	}
	for j, e := range envs {
		copy(a.acts[int(e)*L:(int(e)+1)*L], actions[j*L:(j+1)*L])
		a.op[e] = asyncStep
		a.inflight[e] = true
	}
	a.mu.Lock()
	if release {
		a.release()
	}
	a.place(envs, a.sent)
	for _, e := range envs {
		a.queue[(a.head+a.queued)%n] = e
		a.queued++
	}
	a.sent += int64(len(envs))
	a.pending.Store(int64(a.queued))
	a.mu.Unlock()
	if len(envs) > 0 {
		a.wakeWorkers()
	}
	return nil
}

// Recv waits for the next batch to complete and returns its index in the
// ring: its rows are in [Async.Batch](k), its envs are out of flight
// again and can be sent. It returns an error wrapping [ErrStarved] when
// fewer than BatchSize envs are in flight (the batch could never
// complete), and [ErrClosed] after Close.
func (a *Async) Recv() (int, error) {
	if err := a.check(); err != nil {
		return 0, err
	}
	if inFlight := a.sent - a.returned; inFlight < int64(a.batch) {
		return 0, fmt.Errorf("%w: %d in flight, batches of %d", ErrStarved, inFlight, a.batch)
	}
	bi := int(a.returned / int64(a.batch) % int64(len(a.outs)))
	complete := func() bool { return a.done[bi].Load() == int32(a.batch) || a.hasFailed() }
	// Step the batch's envs still queued on this goroutine, rather than
	// wait for a worker to take them, then wait for those taken.
	end := a.returned + int64(a.batch)
	for !complete() {
		c, slot := a.take(a.callerChunk, end, len(a.workers)+1)
		if c == 0 {
			break
		}
		a.run(a.caller, a.callerChunk[:c], slot)
		a.finish(c)
	}
	spin := time.Duration(0)
	if a.spare {
		spin = busySpin
	}
	await(complete, spin, &a.recvParked, a.recvWake)
	a.rethrow()
	a.done[bi].Store(0)
	k := int(a.bufOf[bi])
	a.mu.Lock()
	a.release()
	a.held = int32(k)
	a.mu.Unlock()
	L := len(a.p.learners)
	for r, e := range a.outs[k].Buffers.Env {
		if r%L == 0 {
			a.inflight[e] = false
		}
	}
	a.returned += int64(a.batch)
	return k, nil
}

// Release tells a that the caller is done with the batch Recv returned
// last (it will not read it again): its rows may be written from now on by
// the envs sent next, instead of only after the next Recv returns. Envs
// sent back in the order that batch held them then step into their own
// rows again, where the games that implement [ObsUpdater] (and
// [MaskUpdater]) write only what changed, as in a [Pool]'s own rows; a
// batch of other envs, or of the same envs in another order, writes its
// rows in full. A caller that copies or encodes each batch (a server), or
// hands it over with the next Send (a send-and-receive call), should call
// Release before that Send. Calling it twice, or before the first Recv,
// does nothing.
func (a *Async) Release() {
	a.mu.Lock()
	a.release()
	a.mu.Unlock()
}

// release frees the caller's batch, if any; a.mu is held.
func (a *Async) release() {
	if a.held >= 0 {
		a.isFree[a.held] = true
		a.free = append(a.free, a.held)
		a.held = -1
	}
}

// freeAll makes every buffer free (none is the caller's or in flight);
// a.mu is held, or the workers are idle.
func (a *Async) freeAll() {
	a.free = a.free[:0]
	for k := len(a.outs) - 1; k >= 0; k-- {
		a.free = append(a.free, int32(k))
		a.isFree[k] = true
	}
	a.held = -1
}

// place chooses the buffers of the batches that envs, queued from place
// slot on, start: the buffer of a batch is chosen when its first env is
// queued, by the caller, so that which buffer a batch takes depends only
// on the calls made (Reset, Send, Recv, Release), never on the workers'
// timing. a.mu is held.
func (a *Async) place(envs []int32, slot int64) {
	B, nb := int64(a.batch), int64(len(a.outs))
	for j, e := range envs {
		if s := slot + int64(j); s%B == 0 {
			a.bufOf[s/B%nb] = a.pick(e)
		}
	}
}

// pick chooses the buffer of a batch whose first env is e and takes it out
// of the free ones: the buffer e was first in last time, when it is free
// and e's rows are still there (a batch of the same envs in the same order
// then updates its rows in place), or else the free one freed last. a.mu
// is held; a buffer is always free (see AsyncBatches).
func (a *Async) pick(e int32) int32 {
	k := a.lastBuf[e]
	if !a.isFree[k] || a.outs[k].Buffers.Env[0] != e {
		k = a.free[len(a.free)-1]
	}
	for j, f := range a.free {
		if f == k {
			a.free[j] = a.free[len(a.free)-1]
			a.free = a.free[:len(a.free)-1]
			break
		}
	}
	a.isFree[k] = false
	a.lastBuf[e] = k
	return k
}

// Wait returns when no env is queued or stepping: every env sent has
// finished its step (its results wait in their batch for Recv). The pool
// may then be used directly until the next Send or Reset.
func (a *Async) Wait() {
	a.mu.Lock()
	for a.queued > 0 || a.active > 0 {
		a.idle.Wait()
	}
	a.mu.Unlock()
	a.rethrow()
}

// Close waits for the envs in flight and stops the workers. The pool
// stays open. Later calls of Send, Recv and Reset return [ErrClosed];
// closing twice is fine. It always returns nil.
func (a *Async) Close() error {
	if a.closed {
		return nil
	}
	a.closed = true
	a.mu.Lock()
	a.stop = true
	a.stopped.Store(true)
	a.mu.Unlock()
	a.wakeWorkers()
	a.wg.Wait()
	// The envs stepped without writing the pool's own rows: their next
	// write there is a full one (see rowView).
	a.p.out.forget(0, len(a.p.out.views))
	return nil
}

// check returns ErrClosed when a or its pool is closed, and re-raises a
// worker's panic.
func (a *Async) check() error {
	if a.closed || a.p.closed {
		return ErrClosed
	}
	a.rethrow()
	return nil
}

// rethrow re-raises the panic of a worker on the caller's goroutine.
func (a *Async) rethrow() {
	if a.hasFailed() {
		panic(a.failure)
	}
}

// hasFailed reports whether a worker panicked.
func (a *Async) hasFailed() bool {
	select {
	case <-a.failed:
		return true
	default:
		return false
	}
}

// prepare makes the opponents of the mixtures changed since the last
// batch and gives the workers the batch groups of new batchers. The
// workers must be idle.
func (a *Async) prepare() error {
	if err := a.p.prepare(); err != nil {
		return err
	}
	a.syncGroups()
	return nil
}

// groupsStale reports whether the pool has batchers the workers have no
// batch group for.
func (a *Async) groupsStale() bool {
	return len(a.workers[0].groupOf) < len(a.p.batchers)
}

// syncGroups gives every worker a batch group for every batcher of the
// pool. The workers must be idle.
func (a *Async) syncGroups() {
	for _, w := range a.workers {
		for g := range a.p.batchers {
			a.p.addBatchGroup(w.worker, g)
		}
	}
	for g := range a.p.batchers {
		a.p.addBatchGroup(a.caller, g)
	}
}

// loop is an async worker: it takes chunks of queued envs and steps them
// until Close, once the queue is empty.
func (a *Async) loop(w *asyncWorker) {
	defer a.wg.Done()
	nw := len(a.workers)
	chunk := make([]int32, maxChunk)
	work := func() bool { return a.pending.Load() > 0 || a.stopped.Load() }
	spin := workerSpin
	for {
		start := time.Now()
		wait(work, spin, &w.parked, w.wake)
		// Spin in the next wait only if this one was short: a spin costs
		// the whole wait in CPU, which a caller that takes longer between
		// Sends (a policy's forward pass, Python drawing actions) needs
		// more than it needs the wake-up saved, on a busy machine most.
		if time.Since(start) > spinWait {
			spin = 0
		} else {
			spin = workerSpin
		}
		c, slot := a.take(chunk, math.MaxInt64, nw)
		if c == 0 {
			a.mu.Lock()
			stop := a.stop && a.queued == 0
			a.mu.Unlock()
			if stop {
				return
			}
			continue // another worker took them
		}
		a.run(w.worker, chunk[:c], slot)
		a.finish(c)
	}
}

// take moves the next queued envs into chunk, at most maxChunk, a fair
// share of the queue among takers goroutines, and as many as leaves the
// next place below end; it returns how many and the place of the first.
// It takes none (0) when none is queued or the next place is end or
// beyond. The caller steps them with run and then calls finish.
func (a *Async) take(chunk []int32, end int64, takers int) (c int, slot int64) {
	a.mu.Lock()
	defer a.mu.Unlock()
	left := end - a.nextSlot
	if a.queued == 0 || left <= 0 {
		return 0, 0
	}
	c = int(min(int64(min(a.queued, maxChunk, (a.queued+takers-1)/takers)), left))
	n := len(a.queue)
	for j := range c {
		chunk[j] = a.queue[(a.head+j)%n]
	}
	a.head = (a.head + c) % n
	a.queued -= c
	a.pending.Store(int64(a.queued))
	slot = a.nextSlot
	a.nextSlot += int64(c)
	a.active += c
	return c, slot
}

// finish records that c envs taken by take are done, and signals Wait
// when nothing is queued or being stepped.
func (a *Async) finish(c int) {
	a.mu.Lock()
	a.active -= c
	if a.active == 0 && a.queued == 0 {
		a.idle.Broadcast()
	}
	a.mu.Unlock()
}

// run steps (or resets) the envs of chunk on worker w, placing them from
// place slot on, and signals the batches they complete. A panic is
// recorded as the Async's failure; after one, nothing more is stepped.
func (a *Async) run(w *worker, chunk []int32, slot int64) {
	select {
	case <-a.failed:
		return
	default:
	}
	defer func() {
		if r := recover(); r != nil {
			a.failOnce.Do(func() {
				a.failure = fmt.Errorf("vecenv: panic in async step of envs %v: %v\n%s", chunk, r, debug.Stack())
				close(a.failed)
				signal(&a.recvParked, a.recvWake)
			})
		}
	}()
	p := a.p
	L := len(p.learners)
	if len(w.groups) > 0 {
		p.clearBatches(w)
		for _, e := range chunk {
			if a.op[e] == asyncStep {
				p.gatherBatches(w, int(e))
			}
		}
		p.runBatches(w)
	}
	B, nb := int64(a.batch), int64(len(a.outs))
	// The envs finished are counted once per batch the chunk reaches into,
	// not once per env: the counters are shared by every worker.
	counted, b0 := 0, int(slot/B%nb)
	for j, e := range chunk {
		s := slot + int64(j)
		b := int(s / B % nb)
		if b != b0 {
			a.finished(b0, j-counted)
			counted, b0 = j, b
		}
		row0 := int(s%B) * L
		out := &a.rows[a.bufOf[b]]
		if out.Env[row0] != e {
			// The rows show another env's observations: the versions
			// are that env's, and e writes the rows in full.
			out.forget(row0, row0+L)
		}
		i := int(e)
		if a.op[i] == asyncReset {
			p.resetRows(w, out, i, row0)
		} else {
			p.stepEnvs(w, out, i, i+1, a.acts[i*L:(i+1)*L], row0)
		}
		episode := p.slots[i].episode
		for q, seat := range p.learners {
			r := row0 + q
			out.Env[r] = e
			out.Seat[r] = int32(seat)
			out.Episode[r] = episode
		}
	}
	a.finished(b0, len(chunk)-counted)
}

// finished records that n more envs of batch b (its number modulo
// Batches) have their rows written, and wakes Recv when that completes
// the batch.
func (a *Async) finished(b, n int) {
	if n > 0 && a.done[b].Add(int32(n)) == int32(a.batch) {
		signal(&a.recvParked, a.recvWake)
	}
}
