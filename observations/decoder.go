package observations

import (
	"bytes"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"

	"github.com/botarena/botarena/env"
)

// A Decoder reads the messages an [Encoder] writes back into Go values: a
// schema message once, then any number of batch messages, compressed or not,
// in the full or the shared form. Tests use it to check the encoding byte
// for byte; a Go client can use it to read a pool's steps. Decoding copies:
// the [env.Buffers] it fills do not alias the message or Arrow memory; in
// the shared form it rebuilds the full rows, each seat's shared channels
// copied from its env's. It reads an uncompressed message in place, so
// [Decoder.DecodeTo] allocates nothing of the batch's size.
//
// A Decoder is not safe for concurrent use.
type Decoder struct {
	cfg       *config
	schemaMsg []byte
	schema    *arrow.Schema
	spec      *env.Spec

	// The shared form: the envs schema message, and the tensors' splits.
	envSchemaMsg []byte
	splits       []split
}

// NewDecoder returns a decoder of the batches of the schema message
// schemaMsg: [SchemaMessage] (the full form) or [SharedSchemaMessage] (the
// shared form). It rebuilds the game's spec from the schema's metadata
// ([SpecFromSchema]) and returns an error when the message is not an Arrow
// schema message of a step batch. The decoder keeps schemaMsg; the caller
// must not modify it.
func NewDecoder(schemaMsg []byte, opts ...Option) (*Decoder, error) {
	cfg := newConfig(opts)
	rest := bytes.NewReader(schemaMsg)
	r, err := ipc.NewReader(rest, ipc.WithAllocator(cfg.mem))
	if err != nil {
		return nil, fmt.Errorf("observations: reading the schema message: %w", err)
	}
	defer r.Release()
	spec, err := SpecFromSchema(r.Schema())
	if err != nil {
		return nil, err
	}
	d := &Decoder{cfg: cfg, schemaMsg: schemaMsg[:len(schemaMsg)-rest.Len()], schema: r.Schema(), spec: spec}
	if part, _ := r.Schema().Metadata().GetValue(PartKey); part != PartRows {
		if rest.Len() != 0 {
			return nil, fmt.Errorf("observations: %d bytes after the schema message", rest.Len())
		}
		return d, nil
	}
	// The shared form: the envs schema follows.
	d.envSchemaMsg = schemaMsg[len(d.schemaMsg):]
	er, err := ipc.NewReader(bytes.NewReader(d.envSchemaMsg), ipc.WithAllocator(cfg.mem))
	if err != nil {
		return nil, fmt.Errorf("observations: reading the envs schema message: %w", err)
	}
	defer er.Release()
	_, want, err := SharedSchemas(spec)
	if err != nil {
		return nil, err
	}
	if !want.Equal(er.Schema()) {
		return nil, fmt.Errorf("observations: the envs schema does not match the rows schema: got %v, want %v", er.Schema(), want)
	}
	d.splits = splits(spec)
	return d, nil
}

// Shared reports whether the decoder reads the shared form.
func (d *Decoder) Shared() bool { return d.splits != nil }

// Spec returns the spec rebuilt from the schema. It is shared; callers must
// not modify it.
func (d *Decoder) Spec() *env.Spec { return d.spec }

// Schema returns the schema the decoder read (in the shared form, the rows
// schema). It is shared; callers must not modify it.
func (d *Decoder) Schema() *arrow.Schema { return d.schema }

// Decode decodes the batch message msg into new buffers of the decoder's
// spec, with as many rows as the batch.
func (d *Decoder) Decode(msg []byte) (*env.Buffers, error) {
	var dst *env.Buffers
	err := d.decode(msg, func(rows int) (*env.Buffers, error) {
		dst = env.NewBuffers(d.spec, rows)
		return dst, nil
	})
	if err != nil {
		return nil, err
	}
	return dst, nil
}

// DecodeTo decodes the batch message msg into dst, which must have the
// decoder's tensors, action count and the batch's number of rows. Every
// slice of dst is overwritten; dst.Spec is left as it is.
func (d *Decoder) DecodeTo(dst *env.Buffers, msg []byte) error {
	return d.decode(msg, func(rows int) (*env.Buffers, error) {
		if dst.Rows != rows {
			return nil, fmt.Errorf("observations: batch of %d rows, Buffers of %d", rows, dst.Rows)
		}
		if len(dst.Obs) != len(d.spec.Obs) {
			return nil, fmt.Errorf("observations: Buffers of %d tensors, want %d", len(dst.Obs), len(d.spec.Obs))
		}
		for i, t := range d.spec.Obs {
			if len(dst.Obs[i]) != rows*t.Bytes() {
				return nil, fmt.Errorf("observations: tensor %q: Buffers of %d bytes, want %d", t.Name, len(dst.Obs[i]), rows*t.Bytes())
			}
		}
		if len(dst.Mask) != rows*d.spec.Actions || len(dst.Rewards) != rows || len(dst.Terminated) != rows ||
			len(dst.Truncated) != rows || len(dst.Env) != rows || len(dst.Seat) != rows || len(dst.Episode) != rows {
			return nil, fmt.Errorf("observations: Buffers of the wrong size for %d rows", rows)
		}
		return dst, nil
	})
}

// readBatch reads the record batch message at the start of msg with the
// schema of schemaMsg and returns it with the bytes after it. The caller
// releases the reader.
func (d *Decoder) readBatch(schemaMsg, msg []byte) (*ipc.Reader, []byte, error) {
	// The batch's buffers are slices of msg (see messages): decode copies
	// them out before it returns.
	m := newMessages(schemaMsg, msg)
	defer m.Release()
	r, err := ipc.NewReaderFromMessageReader(m, ipc.WithAllocator(d.cfg.mem))
	if err != nil {
		return nil, nil, fmt.Errorf("observations: reading the schema message: %w", err)
	}
	if !r.Next() {
		r.Release()
		if err := r.Err(); err != nil {
			return nil, nil, fmt.Errorf("observations: reading a batch message: %w", err)
		}
		return nil, nil, fmt.Errorf("observations: no record batch in the message")
	}
	return r, m.rest(), nil
}

// decode reads msg as a record batch (in the shared form, two) and copies
// it into the buffers that buffers returns for its row count.
func (d *Decoder) decode(msg []byte, buffers func(rows int) (*env.Buffers, error)) error {
	r, rest, err := d.readBatch(d.schemaMsg, msg)
	if err != nil {
		return err
	}
	defer r.Release()
	var envs arrow.RecordBatch
	if d.splits != nil {
		if len(rest) == 0 {
			return fmt.Errorf("observations: no envs batch after the rows batch (the shared form)")
		}
		er, after, err := d.readBatch(d.envSchemaMsg, rest)
		if err != nil {
			return fmt.Errorf("observations: the envs batch: %w", err)
		}
		defer er.Release()
		rest, envs = after, er.RecordBatch()
	}
	if len(rest) != 0 {
		return fmt.Errorf("observations: %d bytes after the record batch message", len(rest))
	}
	rec := r.RecordBatch()
	rows := int(rec.NumRows())
	dst, err := buffers(rows)
	if err != nil {
		return err
	}
	for i, c := range rec.Columns() {
		if c.NullN() != 0 {
			return fmt.Errorf("observations: column %q has %d nulls", rec.ColumnName(i), c.NullN())
		}
	}
	nt := len(d.spec.Obs)
	if err := d.copyTensors(dst, rec, envs); err != nil {
		return err
	}
	if _, err := listValues(dst.Mask, rec.Column(nt), d.spec.Actions*rows, 1); err != nil {
		return fmt.Errorf("observations: column %q: %w", MaskColumn, err)
	}
	copy(dst.Rewards, rec.Column(nt+1).(*array.Float32).Float32Values())
	for r, col := range [][]bool{dst.Terminated, dst.Truncated} {
		a := rec.Column(nt + 2 + r).(*array.Boolean)
		for i := range col {
			col[i] = a.Value(i)
		}
	}
	copy(dst.Env, rec.Column(nt+4).(*array.Int32).Int32Values())
	copy(dst.Seat, rec.Column(nt+5).(*array.Int32).Int32Values())
	copy(dst.Episode, rec.Column(nt+6).(*array.Int32).Int32Values())
	return nil
}

// copyTensors copies the tensor columns of rec (and, in the shared form,
// of the envs batch envs) into dst's rows.
func (d *Decoder) copyTensors(dst *env.Buffers, rec, envs arrow.RecordBatch) error {
	rows := int(rec.NumRows())
	for i, t := range d.spec.Obs {
		k, sp := d.split(i)
		if sp == nil {
			if _, err := listValues(dst.Obs[i], rec.Column(i), t.Len()*rows, t.DType.Size()); err != nil {
				return fmt.Errorf("observations: column %q: %w", t.Name, err)
			}
			continue
		}
		n := int(envs.NumRows())
		if n == 0 && rows != 0 || n != 0 && rows%n != 0 {
			return fmt.Errorf("observations: %d rows in %d envs", rows, n)
		}
		seat, err := listValues(nil, rec.Column(i), (t.Len()-t.SharedLen())*rows, t.DType.Size())
		if err != nil {
			return fmt.Errorf("observations: column %q: %w", t.Name, err)
		}
		shared, err := listValues(nil, envs.Column(k), t.SharedLen()*n, t.DType.Size())
		if err != nil {
			return fmt.Errorf("observations: envs column %q: %w", t.Name, err)
		}
		if rows > 0 {
			sp.scatter(dst.Obs[i], seat, shared, rows, rows/n)
		}
	}
	return nil
}

// split returns the split of tensor i in the shared form and its column in
// the envs batch, or nil.
func (d *Decoder) split(i int) (int, *split) {
	for k := range d.splits {
		if d.splits[k].index == i {
			return k, &d.splits[k]
		}
	}
	return -1, nil
}

// listValues returns the bytes of the n values of size bytes each of the
// FixedSizeList column col, copied into dst unless dst is nil.
func listValues(dst []byte, col arrow.Array, n, size int) ([]byte, error) {
	values := col.(*array.FixedSizeList).ListValues().Data()
	if values.Len() != n {
		return nil, fmt.Errorf("%d values, want %d", values.Len(), n)
	}
	if n == 0 {
		return nil, nil
	}
	buf := values.Buffers()[1].Bytes()
	off := values.Offset() * size
	if len(buf) < off+n*size {
		return nil, fmt.Errorf("value buffer of %d bytes, want %d", len(buf), off+n*size)
	}
	b := buf[off : off+n*size]
	if dst != nil {
		copy(dst, b)
	}
	return b, nil
}
