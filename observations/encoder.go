package observations

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/botarena/botarena/env"
)

// Option configures an [Encoder] or a [Decoder].
type Option func(*config)

type config struct {
	mem         memory.Allocator
	zstd        bool
	concurrency int
	rowsPerEnv  int
}

// WithAllocator sets the allocator of the Arrow objects an Encoder or Decoder
// makes (array headers, compressed bodies, decoded buffers). The default is
// memory.DefaultAllocator; tests pass a memory.CheckedAllocator.
func WithAllocator(mem memory.Allocator) Option {
	return func(c *config) { c.mem = mem }
}

// WithZstd makes an Encoder compress the body of each batch message with
// Arrow IPC body compression, codec ZSTD (klauspost/compress, its default
// level), buffer by buffer; readers (pyarrow included) decompress
// transparently. It is meant for remote links; do not combine it with
// transport compression. The default is no compression. A Decoder ignores
// it: it reads both.
func WithZstd() Option {
	return func(c *config) { c.zstd = true }
}

// WithCompressConcurrency sets how many goroutines compress the buffers of
// one batch in parallel when [WithZstd] is set. The default is 1 (the calling
// goroutine compresses; zstd itself may still use more).
func WithCompressConcurrency(n int) Option {
	return func(c *config) { c.concurrency = n }
}

// WithShared makes an Encoder write the shared form of its batches: each
// batch message is followed by an envs batch message holding, once per env
// of rowsPerEnv consecutive rows, the channels every seat sees alike
// ([env.Tensor].Shared), which the rows batch then leaves out (see the
// package documentation and [SharedSchemas]). The rows of one env must be
// consecutive and rows a multiple of rowsPerEnv, as in a pool's buffers
// (rowsPerEnv = the learner seats). The default is the full form. A
// Decoder ignores it: it reads the form its schema message has.
func WithShared(rowsPerEnv int) Option {
	return func(c *config) { c.rowsPerEnv = rowsPerEnv }
}

func newConfig(opts []Option) *config {
	c := &config{mem: memory.DefaultAllocator, concurrency: 1}
	for _, o := range opts {
		o(c)
	}
	return c
}

// An Encoder turns the step buffers of one pool into Arrow record batches
// and Arrow IPC record-batch messages. Make one per pool, with the pool's
// spec and row count, and call [Encoder.AppendBatchMessage] (or
// [Encoder.Record]) after each step.
//
// The record wraps the buffers without copying: each observation tensor,
// the mask, rewards, env, seat and episode columns are Arrow buffers over
// the very memory of [env.Buffers] (memory.NewBufferBytes; float32 and int32
// slices viewed as bytes). Arrow booleans are bit-packed, so Terminated and
// Truncated are packed into two small bitmaps the Encoder owns, Rows/8 bytes
// each: that, and the IPC header, is the only per-batch work of an
// uncompressed message besides copying the bodies into the caller's slice.
// The record's Arrow headers are built once and reused for as long as the
// Encoder is given the same buffers (the same backing arrays).
//
// An Encoder is not safe for concurrent use, and it must not be used while
// the pool is stepping: encode between steps, from one goroutine.
type Encoder struct {
	spec   *env.Spec
	rows   int
	schema *arrow.Schema
	cfg    *config

	// flags holds the terminated bitmap at [0:nflag] and the truncated
	// bitmap at [nflag:2*nflag].
	flags []byte
	nflag int

	rec arrow.RecordBatch // nil, or the record over src
	src source

	w    *ipc.Writer
	sink sink
	mem  *recycler // the IPC writers' allocator

	// The shared form (WithShared); splits is nil in the full form.
	splits     []split
	rowsPerEnv int
	seatStage  [][]byte          // per split: the rows' seat channels, rows × seatBytes
	envStage   [][]byte          // per split: the envs' shared channels, envs × envBytes
	envRec     arrow.RecordBatch // the envs batch over envStage
	envW       *ipc.Writer
	envSink    sink
}

// source identifies the memory a record wraps: the backing arrays of a
// Buffers, so that a pool's buffers, reused every step, reuse the record.
type source struct {
	obs                  []unsafe.Pointer
	mask, rewards        unsafe.Pointer
	terminated, truncate unsafe.Pointer
	env, seat, episode   unsafe.Pointer
}

func (s *source) same(b *env.Buffers) bool {
	for i, o := range b.Obs {
		if s.obs[i] != unsafe.Pointer(unsafe.SliceData(o)) {
			return false
		}
	}
	return s.mask == unsafe.Pointer(unsafe.SliceData(b.Mask)) &&
		s.rewards == unsafe.Pointer(unsafe.SliceData(b.Rewards)) &&
		s.terminated == unsafe.Pointer(unsafe.SliceData(b.Terminated)) &&
		s.truncate == unsafe.Pointer(unsafe.SliceData(b.Truncated)) &&
		s.env == unsafe.Pointer(unsafe.SliceData(b.Env)) &&
		s.seat == unsafe.Pointer(unsafe.SliceData(b.Seat)) &&
		s.episode == unsafe.Pointer(unsafe.SliceData(b.Episode))
}

func (s *source) set(b *env.Buffers) {
	for i, o := range b.Obs {
		s.obs[i] = unsafe.Pointer(unsafe.SliceData(o))
	}
	s.mask = unsafe.Pointer(unsafe.SliceData(b.Mask))
	s.rewards = unsafe.Pointer(unsafe.SliceData(b.Rewards))
	s.terminated = unsafe.Pointer(unsafe.SliceData(b.Terminated))
	s.truncate = unsafe.Pointer(unsafe.SliceData(b.Truncated))
	s.env = unsafe.Pointer(unsafe.SliceData(b.Env))
	s.seat = unsafe.Pointer(unsafe.SliceData(b.Seat))
	s.episode = unsafe.Pointer(unsafe.SliceData(b.Episode))
}

// sink is the ipc.PayloadWriter of an Encoder: it appends each payload to
// dst, after dropping the schema payload the ipc.Writer emits before its
// first record (the schema travels separately, see [SchemaMessage]).
type sink struct {
	dst        []byte
	w          io.Writer // if not nil, payloads go to w instead of dst
	skipSchema bool
}

func (s *sink) Start() error { return nil }
func (s *sink) Close() error { return nil }

func (s *sink) WritePayload(p ipc.Payload) error {
	if s.skipSchema {
		s.skipSchema = false
		return nil
	}
	if s.w != nil {
		_, err := p.WritePayload(s.w)
		return err
	}
	_, err := p.WritePayload(s)
	return err
}

// Write appends p to dst; it implements io.Writer for ipc.Payload.
func (s *sink) Write(p []byte) (int, error) {
	s.dst = append(s.dst, p...)
	return len(p), nil
}

// NewEncoder returns an encoder of batches of rows rows of spec's game. It
// returns an error when [Schema] does, or when rows is negative; with
// [WithShared], when [SharedSchemas] does or rows is not a multiple of
// rowsPerEnv.
//
// Release the encoder's Arrow objects with [Encoder.Close] when the pool is
// closed.
func NewEncoder(spec *env.Spec, rows int, opts ...Option) (*Encoder, error) {
	cfg := newConfig(opts)
	schema, err := Schema(spec)
	var envSchema *arrow.Schema
	if err == nil && cfg.rowsPerEnv != 0 {
		schema, envSchema, err = SharedSchemas(spec)
		if err == nil && (cfg.rowsPerEnv < 1 || rows%cfg.rowsPerEnv != 0) {
			err = fmt.Errorf("observations: NewEncoder: %d rows are not envs of %d rows each", rows, cfg.rowsPerEnv)
		}
	}
	if err != nil {
		return nil, err
	}
	if rows < 0 {
		return nil, fmt.Errorf("observations: NewEncoder: rows must not be negative, got %d", rows)
	}
	nflag := (rows + 7) / 8
	e := &Encoder{
		spec:   spec,
		rows:   rows,
		schema: schema,
		cfg:    cfg,
		flags:  make([]byte, 2*nflag),
		nflag:  nflag,
		src:    source{obs: make([]unsafe.Pointer, len(spec.Obs))},
		sink:   sink{skipSchema: true},
		mem:    &recycler{mem: cfg.mem},
	}
	wopts := []ipc.Option{ipc.WithAllocator(e.mem)}
	if cfg.zstd {
		wopts = append(wopts, ipc.WithZstd(), ipc.WithCompressConcurrency(max(cfg.concurrency, 1)))
	}
	e.w = ipc.NewWriterWithPayloadWriter(&e.sink, append(wopts, ipc.WithSchema(schema))...)
	if envSchema != nil {
		e.initShared(envSchema, cfg.rowsPerEnv)
		e.envW = ipc.NewWriterWithPayloadWriter(&e.envSink, append(wopts, ipc.WithSchema(envSchema))...)
	}
	return e, nil
}

// initShared sets up the shared form: the staging buffers and the envs
// batch over them.
func (e *Encoder) initShared(envSchema *arrow.Schema, rowsPerEnv int) {
	e.splits, e.rowsPerEnv = splits(e.spec), rowsPerEnv
	envs := e.rows / rowsPerEnv
	cols := make([]arrow.Array, len(e.splits))
	for k, sp := range e.splits {
		e.seatStage = append(e.seatStage, make([]byte, e.rows*sp.seatBytes))
		e.envStage = append(e.envStage, make([]byte, envs*sp.envBytes))
		t := e.spec.Obs[sp.index]
		cols[k] = fixedSizeList(envSchema.Field(k).Type, envs, t.SharedLen(), e.envStage[k])
	}
	e.envRec = array.NewRecordBatch(envSchema, cols, int64(envs))
	for _, c := range cols {
		c.Release()
	}
	e.envSink.skipSchema = true
}

// Schema returns the schema of the encoder's batches, [Schema](spec). It is
// shared; callers must not modify it.
func (e *Encoder) Schema() *arrow.Schema { return e.schema }

// Rows returns the number of rows of the encoder's batches.
func (e *Encoder) Rows() int { return e.rows }

// check panics unless b fits the encoder.
func (e *Encoder) check(b *env.Buffers) {
	if b.Rows != e.rows {
		panic(fmt.Sprintf("observations: Encoder of %d rows given Buffers of %d rows", e.rows, b.Rows))
	}
	if len(b.Obs) != len(e.spec.Obs) {
		panic(fmt.Sprintf("observations: Encoder of %d tensors given Buffers of %d", len(e.spec.Obs), len(b.Obs)))
	}
	for i, t := range e.spec.Obs {
		if len(b.Obs[i]) != e.rows*t.Bytes() {
			panic(fmt.Sprintf("observations: tensor %q has %d bytes, want %d rows × %d", t.Name, len(b.Obs[i]), e.rows, t.Bytes()))
		}
	}
	if len(b.Mask) != e.rows*e.spec.Actions || len(b.Rewards) != e.rows || len(b.Terminated) != e.rows ||
		len(b.Truncated) != e.rows || len(b.Env) != e.rows || len(b.Seat) != e.rows || len(b.Episode) != e.rows {
		panic(fmt.Sprintf("observations: Buffers of the wrong size: %v", b.Check()))
	}
}

// Record returns a record batch of the current contents of b, one row per
// agent, in the layout of [Schema] (with [WithShared], the rows batch of
// the shared form). b must hold rows rows of the encoder's spec (same
// tensors, sizes and action count); Record panics otherwise.
//
// The record aliases b: its columns are views of b's slices, not copies,
// and its terminated and truncated columns are bitmaps the Encoder owns and
// repacks on every call (with WithShared, so are the columns of the tensors
// with shared channels: Record copies their other channels there). It is
// valid until the next step overwrites b or the next call of Record,
// [Encoder.AppendBatchMessage] or [Encoder.Close], whichever comes first.
// The record is owned by the Encoder: callers must not Release it, and
// should Retain it only for as long as it is valid.
func (e *Encoder) Record(b *env.Buffers) arrow.RecordBatch {
	e.check(b)
	if e.rec == nil || !e.src.same(b) {
		e.build(b)
	}
	packBools(e.flags[:e.nflag], b.Terminated)
	packBools(e.flags[e.nflag:], b.Truncated)
	for k := range e.splits {
		sp := &e.splits[k]
		sp.gather(e.seatStage[k], e.envStage[k], b.Obs[sp.index], e.rows, e.rowsPerEnv)
	}
	return e.rec
}

// build makes the record over b's memory.
func (e *Encoder) build(b *env.Buffers) {
	if e.rec != nil {
		e.rec.Release()
		e.rec = nil
	}
	for i, t := range e.spec.Obs {
		if b.Spec == nil || len(b.Spec.Obs) != len(e.spec.Obs) {
			panic("observations: Buffers.Spec does not match the Encoder's spec")
		}
		if bt := b.Spec.Obs[i]; bt.DType != t.DType || bt.Len() != t.Len() {
			panic(fmt.Sprintf("observations: tensor %q of the Buffers' Spec is %v%s, want %v%s", bt.Name, bt.DType, bt.ShapeString(), t.DType, t.ShapeString()))
		}
	}
	n := e.rows
	cols := make([]arrow.Array, 0, e.schema.NumFields())
	for i, t := range e.spec.Obs {
		data, size := b.Obs[i], t.Len()
		for k, sp := range e.splits {
			if sp.index == i {
				data, size = e.seatStage[k], size-t.SharedLen()
			}
		}
		cols = append(cols, fixedSizeList(e.schema.Field(i).Type, n, size, data))
	}
	cols = append(cols,
		fixedSizeList(e.schema.Field(len(cols)).Type, n, e.spec.Actions, b.Mask),
		primitive(arrow.PrimitiveTypes.Float32, n, asBytes(b.Rewards)),
		primitive(arrow.FixedWidthTypes.Boolean, n, e.flags[:e.nflag]),
		primitive(arrow.FixedWidthTypes.Boolean, n, e.flags[e.nflag:]),
		primitive(arrow.PrimitiveTypes.Int32, n, asBytes(b.Env)),
		primitive(arrow.PrimitiveTypes.Int32, n, asBytes(b.Seat)),
		primitive(arrow.PrimitiveTypes.Int32, n, asBytes(b.Episode)),
	)
	e.rec = array.NewRecordBatch(e.schema, cols, int64(n))
	for _, c := range cols {
		c.Release()
	}
	e.src.set(b)
}

// primitive returns an array of n values of the fixed-width type dt over
// data, without a validity bitmap (no nulls).
func primitive(dt arrow.DataType, n int, data []byte) arrow.Array {
	d := array.NewData(dt, n, []*memory.Buffer{nil, memory.NewBufferBytes(data)}, nil, 0, 0)
	defer d.Release()
	return array.MakeFromData(d)
}

// fixedSizeList returns a FixedSizeList array of type dt, n lists of size
// values each, over data.
func fixedSizeList(dt arrow.DataType, n, size int, data []byte) arrow.Array {
	et := dt.(*arrow.FixedSizeListType).Elem()
	child := array.NewData(et, n*size, []*memory.Buffer{nil, memory.NewBufferBytes(data)}, nil, 0, 0)
	defer child.Release()
	d := array.NewData(dt, n, []*memory.Buffer{nil}, []arrow.ArrayData{child}, 0, 0)
	defer d.Release()
	return array.MakeFromData(d)
}

// asBytes views a slice of 4-byte values as its bytes, without copying.
func asBytes[T float32 | int32](s []T) []byte {
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), len(s)*4)
}

// packBools packs flags into the Arrow (LSB-first) bitmap dst, which has
// (len(flags)+7)/8 bytes.
func packBools(dst []byte, flags []bool) {
	// A Go bool is one byte holding 0 or 1.
	src := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(flags))), len(flags))
	i := 0
	for ; i+8 <= len(src); i += 8 {
		// Each byte k (0 or 1) of x lands at bit 56+k; no other partial
		// product reaches the top byte, and none of them carry.
		x := binary.LittleEndian.Uint64(src[i:])
		dst[i/8] = byte((x * 0x0102040810204080) >> 56)
	}
	if i < len(src) {
		var last byte
		for k, v := range src[i:] {
			last |= v << k
		}
		dst[i/8] = last
	}
}

// AppendBatchMessage appends to dst the Arrow IPC encapsulated message of
// the record batch of b's current contents (see [Encoder.Record]) and
// returns the extended slice: continuation marker, metadata length,
// flatbuffer RecordBatch header, padding to 8 bytes, then the body, each
// buffer padded to 8 bytes and, with [WithZstd], compressed. pyarrow reads
// it with pa.ipc.read_record_batch(pa.py_buffer(msg), schema) given the
// schema of [SchemaMessage]; readers that view the body without copying
// want the message to start at an 8-byte aligned address, so append at an
// aligned offset (len(dst) a multiple of 8 with a fresh or reused slice).
//
// Pass the previous step's slice resliced to zero length to reuse its
// memory: an uncompressed message then costs one copy of the bodies and the
// few small allocations of the Arrow IPC writer (the header flatbuffer),
// whatever the row count. The message does not alias b. AppendBatchMessage
// panics when b does not fit the encoder, like Record. An error comes from
// Arrow (a failed compression); after an error the Encoder keeps failing.
//
// With [WithShared] it appends the rows batch's message and then the envs
// batch's.
func (e *Encoder) AppendBatchMessage(dst []byte, b *env.Buffers) ([]byte, error) {
	rec := e.Record(b)
	e.sink.dst = dst
	err := e.w.Write(rec)
	dst, e.sink.dst = e.sink.dst, nil
	if err == nil && e.envW != nil {
		e.envSink.dst = dst
		err = e.envW.Write(e.envRec)
		dst, e.envSink.dst = e.envSink.dst, nil
	}
	if err != nil {
		return dst, fmt.Errorf("observations: encoding a %s batch: %w", e.spec.Game, err)
	}
	return dst, nil
}

// WriteBatchMessage writes to w the message [Encoder.AppendBatchMessage]
// would append, without building it in memory first: the header in a few
// small writes, then each body buffer straight from b's memory (uncompressed)
// in one write each, so a server can stream a batch to a connection without
// copying it. Wrap w in a bufio.Writer when small writes are costly; bufio
// passes the large body writes through. It returns the first error of w or
// of Arrow; after an error the Encoder keeps failing. It panics when b does
// not fit the encoder, like [Encoder.Record].
func (e *Encoder) WriteBatchMessage(w io.Writer, b *env.Buffers) error {
	rec := e.Record(b)
	e.sink.w = w
	err := e.w.Write(rec)
	e.sink.w = nil
	if err == nil && e.envW != nil {
		e.envSink.w = w
		err = e.envW.Write(e.envRec)
		e.envSink.w = nil
	}
	if err != nil {
		return fmt.Errorf("observations: encoding a %s batch: %w", e.spec.Game, err)
	}
	return nil
}

// Close releases the encoder's record and IPC writer. The Encoder must not
// be used afterwards; records it returned become invalid.
func (e *Encoder) Close() error {
	if e.rec != nil {
		e.rec.Release()
		e.rec = nil
	}
	e.sink.skipSchema, e.sink.dst = true, nil
	err := e.w.Close()
	e.sink.dst = nil
	if e.envW != nil {
		e.envRec.Release()
		e.envSink.skipSchema, e.envSink.dst = true, nil
		err = errors.Join(err, e.envW.Close())
		e.envSink.dst = nil
		e.envW = nil
	}
	e.mem.Close()
	return err
}
