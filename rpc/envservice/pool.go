package envservice

import (
	"encoding/binary"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/observations"
	"github.com/botarena/botarena/rpc/envproto"
	botarenav1 "github.com/botarena/botarena/rpc/gen/botarena/v1"
	"github.com/botarena/botarena/rpc/internal/wire"
	"github.com/botarena/botarena/rpc/server"
	"github.com/botarena/botarena/vecenv"
)

// servedPool is one pool of the server: the vecenv pool (and, for an async
// pool, its [vecenv.Async]), its encoders and the buffers its responses are
// built in. Its mutex serialises every call on the pool; the fields above mu
// never change after creation.
type servedPool struct {
	id        string
	game      string
	numEnvs   int
	rows      int // of the pool: numEnvs × len(learners)
	batchSize int // envs per Recv batch of an async pool; 0 for a synchronous one
	spec      *env.Spec
	learners  []int
	autoReset vecenv.AutoReset
	// grow gives large response buffers a capacity Connect does not
	// recycle (wire.Grow), so that they are written without a copy; not
	// with zstd, whose messages are small and of unknown size.
	grow bool
	mem  *server.Reservation // of the memory budget, released by closeLocked

	// lastUsed is the time (UnixNano) a call last started or finished; the
	// janitor reads it without the lock.
	lastUsed atomic.Int64

	mu       sync.Mutex
	pool     *vecenv.Pool
	enc      *observations.Encoder // the step batches (of an async pool: the Recv batches)
	finalEnc *observations.Encoder // the SAME_STEP final batches; nil in NEXT_STEP
	final    *env.Buffers          // the pool's buffers with Obs = FinalObs
	actions  []int32               // the parsed actions of the current Step or Send
	wasReset bool                  // Reset (AsyncReset) has been called once
	steps    int64                 // Step (Send) calls served
	closed   string                // why the pool was closed; "" while open

	// An async pool's: nil for a synchronous one.
	async  *vecenv.Async
	finals []env.Buffers // per batch of the ring, its buffers with Obs = FinalObs (SAME_STEP)
	envIDs []int32       // the parsed env ids of the current Send (NumEnvs entries)

	freeMu     sync.Mutex
	free       []*batchBuf // response buffers whose responses have been written
	freeClosed bool        // the pool is closed: drop returned buffers
}

// batchBuf holds one response in its protobuf wire form (see package
// wire): wire is the whole message, batch, final and ended its fields'
// data (nil when absent). The Arrow messages are encoded straight into
// wire, and the response codec hands wire to Connect as the marshalled
// message, so a batch is copied once, from the pool's buffers. A response
// aliases it until Connect has written the response; see recycling.
type batchBuf struct {
	wire, batch, final, ended []byte
}

// maxFree is how many written response buffers a pool keeps for reuse. One
// call runs at a time per pool, so two cover one response still being
// written while the next is built.
const maxFree = 2

// newServedPool makes the served form of p: zstd compresses its batches,
// shared sends them in the shared form (observations.WithShared), and a
// batchSize from 1 on steps it asynchronously in batches of batchSize envs
// (0: synchronously). On error p is left open.
func newServedPool(id, game string, p *vecenv.Pool, zstd, shared bool, batchSize int) (*servedPool, error) {
	var opts []observations.Option
	if zstd {
		opts = append(opts, observations.WithZstd(), observations.WithCompressConcurrency(p.Workers()))
	}
	if shared {
		opts = append(opts, observations.WithShared(len(p.LearnerSeats())))
	}
	sp := &servedPool{
		id: id, game: game, numEnvs: p.NumEnvs(), rows: p.Rows(), batchSize: batchSize, spec: p.Spec(),
		learners: p.LearnerSeats(), autoReset: p.AutoReset(), pool: p, actions: make([]int32, p.Rows()), grow: !zstd,
	}
	batchRows := sp.rows // the rows of each batch the encoders encode
	if batchSize > 0 {
		batchRows = batchSize * len(sp.learners)
	}
	var err error
	if sp.enc, err = observations.NewEncoder(sp.spec, batchRows, opts...); err != nil {
		return nil, fmt.Errorf("envservice: encoder of %s: %w", game, err)
	}
	if sp.autoReset == vecenv.SameStep {
		if sp.finalEnc, err = observations.NewEncoder(sp.spec, batchRows, opts...); err != nil {
			sp.enc.Close()
			return nil, fmt.Errorf("envservice: encoder of %s: %w", game, err)
		}
		f := *p.Buffers()
		f.Obs = p.FinalObs()
		sp.final = &f
	}
	if batchSize > 0 {
		if sp.async, err = vecenv.NewAsync(p, batchSize, nil); err != nil {
			sp.closeEncoders()
			return nil, err
		}
		sp.envIDs = make([]int32, sp.numEnvs)
		if sp.autoReset == vecenv.SameStep {
			sp.finals = make([]env.Buffers, sp.async.Batches())
			for k := range sp.finals {
				out := sp.async.Batch(k)
				sp.finals[k] = *out.Buffers
				sp.finals[k].Obs = out.FinalObs
			}
		}
	}
	sp.touch()
	return sp, nil
}

// closeEncoders closes the pool's Arrow encoders.
func (p *servedPool) closeEncoders() {
	p.enc.Close()
	if p.finalEnc != nil {
		p.finalEnc.Close()
	}
}

func (p *servedPool) touch() { p.lastUsed.Store(time.Now().UnixNano()) }

// idleSince returns how long before now the pool was last used.
func (p *servedPool) idleSince(now time.Time) time.Duration {
	return now.Sub(time.Unix(0, p.lastUsed.Load()))
}

// lock takes the pool's lock for one call and checks that the pool is open;
// on success the caller must call unlock.
func (p *servedPool) lock() error {
	p.touch()
	p.mu.Lock()
	if p.closed != "" {
		p.mu.Unlock()
		return server.Markf(server.ErrNotFound, "pool %q: %s", p.id, p.closed)
	}
	return nil
}

func (p *servedPool) unlock() {
	p.touch()
	p.mu.Unlock()
}

// poolKind is the kind of pool a call takes.
type poolKind uint8

const (
	anyPool   poolKind = iota // any pool
	syncPool                  // a synchronous pool (Reset, Step)
	asyncPool                 // an async pool (AsyncReset, Send, Recv)
)

// enter is lock for call, which takes a pool of kind and, when first names
// a call, only a pool that call has reset (else FailedPrecondition). On
// success the caller must call unlock.
func (p *servedPool) enter(call string, kind poolKind, first string) error {
	if err := p.lock(); err != nil {
		return err
	}
	var err error
	switch kind {
	case syncPool:
		err = p.needSync(call)
	case asyncPool:
		err = p.needAsync(call)
	}
	if err == nil && first != "" && !p.wasReset {
		err = server.Markf(server.ErrNotReady, "pool %q: %s before the first %s; call %s first", p.id, call, first, first)
	}
	if err != nil {
		p.unlock()
		return err
	}
	return nil
}

// close closes the pool (waiting for a running call) and records why.
func (p *servedPool) close(why string) {
	p.mu.Lock()
	p.closeLocked(why)
	p.mu.Unlock()
}

func (p *servedPool) closeLocked(why string) {
	if p.closed != "" {
		return
	}
	p.closed = why
	defer p.mem.Release()
	if p.async != nil {
		p.async.Close() // its workers stop before the pool closes
	}
	p.pool.Close()
	p.closeEncoders()
	p.freeMu.Lock()
	p.free, p.freeClosed = nil, true
	p.freeMu.Unlock()
}

// getBuf returns a response buffer to fill: a recycled one or a new one.
func (p *servedPool) getBuf() *batchBuf {
	p.freeMu.Lock()
	defer p.freeMu.Unlock()
	if n := len(p.free); n > 0 {
		b := p.free[n-1]
		p.free = p.free[:n-1]
		return b
	}
	return &batchBuf{}
}

// putBuf returns a buffer whose response has been written.
func (p *servedPool) putBuf(b *batchBuf) {
	p.freeMu.Lock()
	defer p.freeMu.Unlock()
	if len(p.free) < maxFree && !p.freeClosed {
		p.free = append(p.free, b)
	}
}

// errPanic marks a panic of the pool's envs or opponents, recovered by
// guard; the pool is then closed. It is Internal.
type errPanic struct{ value any }

func (e errPanic) Error() string { return fmt.Sprintf("panic: %v", e.value) }

// guard recovers a panic of the pool's envs or opponents during a call into
// *err; the pool is in an undefined state then, and the caller closes it.
func guard(err *error) {
	if r := recover(); r != nil {
		*err = errPanic{r}
	}
}

// reset resets every env and encodes the first batch into b.batch.
func (p *servedPool) reset(b *batchBuf) error {
	return p.resetEnvs("Reset", syncPool, func() error { return p.pool.Reset() },
		func() error { return p.encode(b, p.pool.Buffers(), nil, nil) })
}

// resetEnvs is Reset and AsyncReset: it enters call on a pool of kind,
// resets its envs with reset, marks the pool reset and then runs then, all
// under the pool's lock; a panic of the envs becomes the error (see guard).
func (p *servedPool) resetEnvs(call string, kind poolKind, reset, then func() error) (err error) {
	if err := p.enter(call, kind, ""); err != nil {
		return err
	}
	defer p.unlock()
	defer guard(&err)
	if err := reset(); err != nil {
		return fmt.Errorf("pool %q: %w", p.id, err)
	}
	p.wasReset = true
	return then()
}

// step parses raw (one little-endian int32 per row), steps the pool and
// encodes the batch into b.batch, the ended flags into b.ended and, in
// SAME_STEP mode when a row ended, the final batch into b.final (else it is
// empty).
func (p *servedPool) step(raw []byte, b *batchBuf) (err error) {
	if err := p.enter("Step", syncPool, "Reset"); err != nil {
		return err
	}
	defer p.unlock()
	if err := p.parseActions(raw); err != nil {
		return err
	}
	defer guard(&err)
	if err := p.pool.Step(p.actions); err != nil {
		return fmt.Errorf("pool %q: %w", p.id, err)
	}
	p.steps++
	return p.encode(b, p.pool.Buffers(), p.pool.Ended(), p.final)
}

// encode writes a batch response of bufs into b in the wire form of
// package wire: the batch, then, when final is not nil (SAME_STEP) and a
// row of ended is set, the final batch of final (bufs with the final
// observations), then the ended flags unless ended is nil (a Reset).
func (p *servedPool) encode(b *batchBuf, bufs *env.Buffers, ended []bool, final *env.Buffers) (err error) {
	w := wire.BeginField(b.wire[:0], wire.FieldBatch)
	if w, err = p.enc.AppendBatchMessage(w, bufs); err != nil {
		return err
	}
	wire.EndField(w, 0)
	batchEnd := len(w)
	finalStart := len(w)
	if final != nil && slices.Contains(ended, true) {
		w = wire.BeginField(w, wire.FieldFinal)
		if w, err = p.finalEnc.AppendBatchMessage(w, final); err != nil {
			return err
		}
		wire.EndField(w, finalStart)
	}
	finalEnd := len(w)
	endedStart := -1
	if ended != nil {
		w = protowire.AppendTag(w, wire.FieldEnded, protowire.BytesType)
		w = protowire.AppendVarint(w, uint64(len(ended)))
		endedStart = len(w)
		for _, e := range ended {
			w = append(w, boolByte(e))
		}
	}
	if p.grow {
		w = wire.Grow(w)
	}
	b.wire, b.batch, b.ended, b.final = w, w[wire.HeaderBytes:batchEnd], nil, nil
	if endedStart >= 0 {
		b.ended = w[endedStart:]
	}
	if finalEnd > finalStart {
		b.final = w[finalStart+wire.HeaderBytes : finalEnd]
	}
	return nil
}

// needSync refuses call, a call of synchronous pools, on an async pool.
func (p *servedPool) needSync(call string) error {
	if p.async != nil {
		return server.Markf(server.ErrNotReady, "pool %q: %s on an async pool (batch_size %d); use AsyncReset, Send and Recv", p.id, call, p.batchSize)
	}
	return nil
}

// needAsync refuses call, a call of async pools, on a synchronous pool.
func (p *servedPool) needAsync(call string) error {
	if p.async == nil {
		return server.Markf(server.ErrNotReady, "pool %q: %s on a synchronous pool; create the pool with a batch_size for async stepping, or use Reset and Step", p.id, call)
	}
	return nil
}

// quiet waits, on an async pool, until no env is stepping, so that the
// pool can be read or changed directly (see [vecenv.Async.Wait]).
func (p *servedPool) quiet() {
	if p.async != nil {
		p.async.Wait()
	}
}

// asyncReset resets every env of an async pool in the background.
func (p *servedPool) asyncReset() error {
	return p.resetEnvs("AsyncReset", asyncPool, func() error { return p.async.Reset() },
		func() error { return nil })
}

// send parses rawEnvs and rawActions (little-endian int32s: env ids, and
// one action per learner row of those envs) and queues the envs of an
// async pool. vecenv.Async.Send checks the values: env ids in range, not
// in flight and not repeated, actions in range.
func (p *servedPool) send(rawEnvs, rawActions []byte) (err error) {
	if err := p.enter("Send", asyncPool, "AsyncReset"); err != nil {
		return err
	}
	defer p.unlock()
	L := len(p.learners)
	switch n := len(rawEnvs) / 4; {
	case len(rawEnvs)%4 != 0 || n > p.numEnvs:
		return server.Invalidf("pool %q: env_ids: got %d bytes, want a multiple of 4 up to %d (one little-endian int32 per env, at most num_envs = %d)",
			p.id, len(rawEnvs), 4*p.numEnvs, p.numEnvs)
	case len(rawActions) != 4*n*L:
		return server.Invalidf("pool %q: actions: got %d bytes for %d envs, want %d (one little-endian int32 per learner row, %d per env)",
			p.id, len(rawActions), n, 4*n*L, L)
	}
	envs, actions := p.envIDs[:len(rawEnvs)/4], p.actions[:len(rawActions)/4]
	for j := range envs {
		envs[j] = int32(binary.LittleEndian.Uint32(rawEnvs[4*j:]))
	}
	for j := range actions {
		actions[j] = int32(binary.LittleEndian.Uint32(rawActions[4*j:]))
	}
	defer guard(&err)
	if err := p.async.Send(envs, actions); err != nil {
		return fmt.Errorf("pool %q: %w", p.id, err)
	}
	p.steps++
	return nil
}

// recv waits for the next batch of an async pool and encodes it into b as
// a step's batch (batch, final_batch, ended), and then releases the batch
// (vecenv.Async.Release): the response holds a copy, so the envs sent back
// next step into their own rows.
func (p *servedPool) recv(b *batchBuf) (err error) {
	if err := p.enter("Recv", asyncPool, "AsyncReset"); err != nil {
		return err
	}
	defer p.unlock()
	defer guard(&err)
	k, err := p.async.Recv()
	if err != nil {
		return fmt.Errorf("pool %q: %w", p.id, err)
	}
	out := p.async.Batch(k)
	var final *env.Buffers
	if p.finals != nil {
		final = &p.finals[k]
	}
	if err := p.encode(b, out.Buffers, out.Ended, final); err != nil {
		return err
	}
	p.async.Release()
	return nil
}

// boolByte is 1 for true and 0 for false.
func boolByte(b bool) byte {
	if b {
		return 1
	}
	return 0
}

// parseActions checks and decodes raw into p.actions, without allocating
// unless it fails.
func (p *servedPool) parseActions(raw []byte) error {
	if len(raw) != 4*p.rows {
		return server.Invalidf("pool %q: actions: got %d bytes, want %d (one little-endian int32 per row, %d rows)",
			p.id, len(raw), 4*p.rows, p.rows)
	}
	n := uint32(p.spec.Actions)
	for r := range p.actions {
		a := binary.LittleEndian.Uint32(raw[4*r:])
		if a >= n {
			bufs := p.pool.Buffers()
			return server.Invalidf("pool %q: actions: row %d (env %d, seat %d): got %d, want 0..%d",
				p.id, r, bufs.Env[r], bufs.Seat[r], int32(a), n-1)
		}
		p.actions[r] = int32(a)
	}
	return nil
}

// PictureFormat is the Render format of pictures: RGB pixels of the game's
// [picture.Painter] picture, named after Gymnasium's render mode.
const PictureFormat = envproto.PictureFormat

// render returns env i's state in format as seat sees it (see
// envproto.Render) once the pool was reset.
func (p *servedPool) render(i, seat int, format string) (_ *botarenav1.RenderResponse, err error) {
	if err := p.enter("Render", anyPool, "Reset"); err != nil {
		return nil, err
	}
	defer p.unlock()
	defer guard(&err)
	p.quiet()
	resp, err := envproto.Render(p.pool, i, seat, format)
	if err != nil {
		return nil, server.Mark(server.ErrInvalid, fmt.Errorf("pool %q: %w", p.id, err))
	}
	return resp, nil
}

// stats returns the pool's statistics and Step (Send) count, clearing the
// statistics (not the count) after reading them when reset is set. On an
// async pool it waits for the envs in flight first.
func (p *servedPool) stats(reset bool) (_ vecenv.Stats, _ int64, err error) {
	if err := p.lock(); err != nil {
		return vecenv.Stats{}, 0, err
	}
	defer p.unlock()
	defer guard(&err)
	p.quiet()
	st := p.pool.Stats()
	if reset {
		p.pool.ResetStats()
	}
	return st, p.steps, nil
}

// setOpponents sets the mixtures, in order (see Server.SetOpponents).
func (p *servedPool) setOpponents(mixes []envproto.Mixture) (err error) {
	if err := p.lock(); err != nil {
		return err
	}
	defer p.unlock()
	defer guard(&err)
	p.quiet()
	for _, m := range mixes {
		if err := p.pool.SetOpponents(m.Seat, m.Choices); err != nil {
			return fmt.Errorf("pool %q: opponents[%d]: %w", p.id, m.Seat, err)
		}
	}
	return nil
}
