package observations

import (
	"bytes"
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"

	"github.com/botarena/botarena/env"
)

// A Decoder reads the messages an [Encoder] writes back into Go values: a
// schema message once, then any number of batch messages, compressed or not.
// Tests use it to check the encoding byte for byte; a Go client can use it
// to read a pool's steps. Decoding copies: the [env.Buffers] it fills do not
// alias the message or Arrow memory.
//
// A Decoder is not safe for concurrent use.
type Decoder struct {
	cfg       *config
	schemaMsg []byte
	schema    *arrow.Schema
	spec      *env.Spec
}

// NewDecoder returns a decoder of the batches of the schema message
// schemaMsg (see [SchemaMessage]). It rebuilds the game's spec from the
// schema's metadata ([SpecFromSchema]) and returns an error when the message
// is not an Arrow schema message of a step batch. The decoder keeps
// schemaMsg; the caller must not modify it.
func NewDecoder(schemaMsg []byte, opts ...Option) (*Decoder, error) {
	cfg := newConfig(opts)
	r, err := ipc.NewReader(bytes.NewReader(schemaMsg), ipc.WithAllocator(cfg.mem))
	if err != nil {
		return nil, fmt.Errorf("observations: reading the schema message: %w", err)
	}
	defer r.Release()
	spec, err := SpecFromSchema(r.Schema())
	if err != nil {
		return nil, err
	}
	return &Decoder{cfg: cfg, schemaMsg: schemaMsg, schema: r.Schema(), spec: spec}, nil
}

// Spec returns the spec rebuilt from the schema. It is shared; callers must
// not modify it.
func (d *Decoder) Spec() *env.Spec { return d.spec }

// Schema returns the schema the decoder read. It is shared; callers must not
// modify it.
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

// decode reads msg as a record batch and copies it into the buffers that
// buffers returns for its row count.
func (d *Decoder) decode(msg []byte, buffers func(rows int) (*env.Buffers, error)) error {
	body := bytes.NewReader(msg)
	r, err := ipc.NewReader(io.MultiReader(bytes.NewReader(d.schemaMsg), body), ipc.WithAllocator(d.cfg.mem))
	if err != nil {
		return fmt.Errorf("observations: reading the schema message: %w", err)
	}
	defer r.Release()
	if !r.Next() {
		if err := r.Err(); err != nil {
			return fmt.Errorf("observations: reading a batch message: %w", err)
		}
		return fmt.Errorf("observations: no record batch in the message")
	}
	if body.Len() != 0 {
		return fmt.Errorf("observations: %d bytes after the record batch message", body.Len())
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
	for i, t := range d.spec.Obs {
		if err := copyList(dst.Obs[i], rec.Column(i), t.Len()*rows, t.DType.Size()); err != nil {
			return fmt.Errorf("observations: column %q: %w", t.Name, err)
		}
	}
	if err := copyList(dst.Mask, rec.Column(nt), d.spec.Actions*rows, 1); err != nil {
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

// copyList copies the n values of size bytes each of the FixedSizeList
// column col into dst.
func copyList(dst []byte, col arrow.Array, n, size int) error {
	values := col.(*array.FixedSizeList).ListValues().Data()
	if values.Len() != n {
		return fmt.Errorf("%d values, want %d", values.Len(), n)
	}
	if n == 0 {
		return nil
	}
	buf := values.Buffers()[1].Bytes()
	off := values.Offset() * size
	if len(buf) < off+n*size {
		return fmt.Errorf("value buffer of %d bytes, want %d", len(buf), off+n*size)
	}
	copy(dst, buf[off:off+n*size])
	return nil
}
