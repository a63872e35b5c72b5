// Package matchdata writes per-step match data (one row per game, step and
// seat: ids, action, reward, flags, the seat's observation tensors and
// action mask) as Parquet files through Arrow, for training on recorded
// games. It is separate from package observations because Arrow's Parquet
// support brings in many more dependencies than the wire format needs.
package matchdata

import (
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"path/filepath"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/observations"
)

// The columns of match data ([Schema]) that come before the observation
// tensors, in schema order; the tensors and the mask follow. Seat, reward,
// terminated, truncated and mask have the names of package observations'
// columns.
const (
	GameIndexColumn = "game"   // int64: the game's index in its league
	SeedColumn      = "seed"   // uint64: the game's seed
	StepColumn      = "step"   // int32: the step (round) index, from 0
	AgentColumn     = "agent"  // utf8: the name of the agent in the seat
	ActionColumn    = "action" // int32: the action the seat took at this step
	// LabelColumn follows the flags: the action the seat's teacher would
	// have taken at this step (agents.Labeller agents, "dagger:"), else
	// the action itself. Files written before it have no such column.
	LabelColumn = "label" // int32
)

// matchColumns are the non-tensor columns of match data, in schema order
// (the mask comes last, after the tensors).
var matchColumns = [...]string{GameIndexColumn, SeedColumn, StepColumn, observations.SeatColumn, AgentColumn, ActionColumn, observations.RewardColumn, observations.TerminatedColumn, observations.TruncatedColumn, LabelColumn, observations.MaskColumn}

// readColumns are the columns [ReadFile] reads and every file of match
// data has: all of matchColumns but the label (files from before it lack
// it: ReadFile reads it where there is one) and the mask.
var readColumns = matchColumns[:len(matchColumns)-2]

// Schema returns the Arrow schema of match data of spec's game: one row
// per (game, step, seat), in game, step and seat order, with the columns
//
//	game        int64                                            the game's index in its league
//	seed        uint64                                           the game's seed
//	step        int32                                            the step, from 0
//	seat        int32                                            the seat
//	agent       utf8                                             the agent's name in the league
//	action      int32                                            the action the seat took at this step
//	reward      float32                                          the seat's reward for this step
//	terminated  bool                                             after this step
//	truncated   bool                                             after this step
//	label       int32                                            the seat's teacher's action at this step (agents.Labeller), else the action
//	<tensor>    FixedSizeList<uint8|float32|int32>[Tensor.Len()] the seat's observation before this step, one per Spec.Obs tensor
//	mask        FixedSizeList<uint8>[Spec.Actions]               the seat's legal actions before this step
//
// The tensor and mask fields carry the same metadata as in observations.Schema
// (shape, dtype, layout), and the schema the same game metadata. No column
// has nulls. The observation after the last step is not recorded.
func Schema(spec *env.Spec) (*arrow.Schema, error) {
	step, err := observations.Schema(spec)
	if err != nil {
		return nil, err
	}
	for _, t := range spec.Obs {
		for _, c := range matchColumns {
			if t.Name == c {
				return nil, fmt.Errorf("matchdata: %s: tensor name %q is taken by a match data column", spec.Game, t.Name)
			}
		}
	}
	fields := []arrow.Field{
		{Name: GameIndexColumn, Type: arrow.PrimitiveTypes.Int64},
		{Name: SeedColumn, Type: arrow.PrimitiveTypes.Uint64},
		{Name: StepColumn, Type: arrow.PrimitiveTypes.Int32},
		{Name: observations.SeatColumn, Type: arrow.PrimitiveTypes.Int32},
		{Name: AgentColumn, Type: arrow.BinaryTypes.String},
		{Name: ActionColumn, Type: arrow.PrimitiveTypes.Int32},
		{Name: observations.RewardColumn, Type: arrow.PrimitiveTypes.Float32},
		{Name: observations.TerminatedColumn, Type: arrow.FixedWidthTypes.Boolean},
		{Name: observations.TruncatedColumn, Type: arrow.FixedWidthTypes.Boolean},
		{Name: LabelColumn, Type: arrow.PrimitiveTypes.Int32},
	}
	// The tensors and the mask, with their metadata, as in a step batch.
	fields = append(fields, step.Fields()[:len(spec.Obs)+1]...)
	md := step.Metadata()
	return arrow.NewSchema(fields, &md), nil
}

// Rows is the per-step data of one game, one row per (step, seat) in
// step then seat order: rows = Steps × Seats. Row r is step r/Seats of seat
// r%Seats. Obs holds one slice per observation tensor of the game's spec,
// rows × Tensor.Bytes() long (each row as [env.Env.WriteObs] writes it);
// Mask is rows × Spec.Actions; the other slices have one element per row.
type Rows struct {
	Game   int64    // the game's index in its league
	Seed   uint64   // the game's seed
	Agents []string // agent name per seat
	Steps  int
	Obs    [][]byte
	Mask   []byte
	Action []int32
	// Label is the action the seat's teacher would have taken
	// (agents.Labeller), one per row; nil means the actions themselves.
	Label  []int32
	Reward []float32
	// Terminated and Truncated are the seat's flags after the step.
	Terminated, Truncated []bool
}

// Rows returns the number of rows, Steps × len(Agents).
func (m *Rows) Rows() int { return m.Steps * len(m.Agents) }

// Writer collects [Rows] of one game's spec and writes them as one
// Parquet file ([Schema]). It is not safe for concurrent use.
type Writer struct {
	spec   *env.Spec
	schema *arrow.Schema
	mem    memory.Allocator
	b      *array.RecordBuilder
	rows   int
}

// NewWriter returns a writer for match data of spec's game that allocates
// from mem (nil: Go's allocator). It returns [Schema]'s errors.
func NewWriter(spec *env.Spec, mem memory.Allocator) (*Writer, error) {
	schema, err := Schema(spec)
	if err != nil {
		return nil, err
	}
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	return &Writer{spec: spec, schema: schema, mem: mem, b: array.NewRecordBuilder(mem, schema)}, nil
}

// Schema returns the writer's schema, [Schema] of its spec.
func (w *Writer) Schema() *arrow.Schema { return w.schema }

// Rows returns the number of rows collected since the last WriteFile.
func (w *Writer) Rows() int { return w.rows }

// Append copies the rows of g. It returns an error, and appends nothing,
// when a slice of g has the wrong length for g.Steps, len(g.Agents) and the
// writer's spec.
func (w *Writer) Append(g *Rows) error {
	n := g.Rows()
	if len(g.Agents) != w.spec.Seats {
		return fmt.Errorf("matchdata: match data of game %d: %d agents for %d seats", g.Game, len(g.Agents), w.spec.Seats)
	}
	if len(g.Obs) != len(w.spec.Obs) {
		return fmt.Errorf("matchdata: match data of game %d: %d tensors, want %d", g.Game, len(g.Obs), len(w.spec.Obs))
	}
	for i, t := range w.spec.Obs {
		if len(g.Obs[i]) != n*t.Bytes() {
			return fmt.Errorf("matchdata: match data of game %d: tensor %q has %d bytes, want %d", g.Game, t.Name, len(g.Obs[i]), n*t.Bytes())
		}
	}
	if len(g.Mask) != n*w.spec.Actions || len(g.Action) != n || len(g.Reward) != n || len(g.Terminated) != n || len(g.Truncated) != n || (g.Label != nil && len(g.Label) != n) {
		return fmt.Errorf("matchdata: match data of game %d: want %d rows in mask, action, label (or none), reward, terminated and truncated", g.Game, n)
	}
	label := g.Label
	if label == nil {
		label = g.Action
	}
	seats := w.spec.Seats
	for r := range n {
		w.b.Field(0).(*array.Int64Builder).Append(g.Game)
		w.b.Field(1).(*array.Uint64Builder).Append(g.Seed)
		w.b.Field(2).(*array.Int32Builder).Append(int32(r / seats))
		w.b.Field(3).(*array.Int32Builder).Append(int32(r % seats))
		w.b.Field(4).(*array.StringBuilder).Append(g.Agents[r%seats])
	}
	w.b.Field(5).(*array.Int32Builder).AppendValues(g.Action, nil)
	w.b.Field(6).(*array.Float32Builder).AppendValues(g.Reward, nil)
	w.b.Field(7).(*array.BooleanBuilder).AppendValues(g.Terminated, nil)
	w.b.Field(8).(*array.BooleanBuilder).AppendValues(g.Truncated, nil)
	w.b.Field(9).(*array.Int32Builder).AppendValues(label, nil)
	for i, t := range w.spec.Obs {
		appendList(w.b.Field(10+i).(*array.FixedSizeListBuilder), t.DType, n, g.Obs[i])
	}
	appendList(w.b.Field(10+len(w.spec.Obs)).(*array.FixedSizeListBuilder), env.Uint8, n, g.Mask)
	w.rows += n
	return nil
}

// appendList appends n fixed-size lists whose values are the little-endian
// elements of data.
func appendList(b *array.FixedSizeListBuilder, d env.DType, n int, data []byte) {
	valid := make([]bool, n)
	for i := range valid {
		valid[i] = true
	}
	b.AppendValues(valid)
	switch d {
	case env.Uint8:
		b.ValueBuilder().(*array.Uint8Builder).AppendValues(data, nil)
	case env.Float32:
		vb := b.ValueBuilder().(*array.Float32Builder)
		for i := 0; i < len(data); i += 4 {
			vb.Append(float32FromBytes(data[i:]))
		}
	case env.Int32:
		vb := b.ValueBuilder().(*array.Int32Builder)
		for i := 0; i < len(data); i += 4 {
			vb.Append(int32(binary.LittleEndian.Uint32(data[i:])))
		}
	}
}

// WriteFile writes the rows collected since the last WriteFile to path as
// one Parquet file (zstd, one row group per 64k rows, the Arrow schema
// stored so that readers get the FixedSizeList columns and the metadata
// back) and starts a new collection. The file appears atomically: it is
// written to a temporary file in path's folder, synced and renamed over
// path, so a crash leaves either the old file or the whole new one. On
// error the collected rows are dropped.
func (w *Writer) WriteFile(path string) (err error) {
	rec := w.b.NewRecordBatch()
	defer rec.Release()
	w.rows = 0
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return fmt.Errorf("matchdata: match data: %w", err)
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	props := parquet.NewWriterProperties(parquet.WithCompression(compress.Codecs.Zstd), parquet.WithAllocator(w.mem))
	fw, err := pqarrow.NewFileWriter(w.schema, syncedFile{f}, props, pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema(), pqarrow.WithAllocator(w.mem)))
	if err != nil {
		return fmt.Errorf("matchdata: match data %s: %w", path, err)
	}
	const rowGroup = 1 << 16
	for start := int64(0); start < rec.NumRows(); start += rowGroup {
		end := min(start+rowGroup, rec.NumRows())
		part := rec.NewSlice(start, end)
		err = fw.Write(part)
		part.Release()
		if err != nil {
			return fmt.Errorf("matchdata: match data %s: %w", path, err)
		}
	}
	// Close syncs and closes f (syncedFile).
	if err = fw.Close(); err != nil {
		return fmt.Errorf("matchdata: match data %s: %w", path, err)
	}
	if err = os.Chmod(f.Name(), 0o644); err != nil {
		return fmt.Errorf("matchdata: match data: %w", err)
	}
	if err = os.Rename(f.Name(), path); err != nil {
		return fmt.Errorf("matchdata: match data: %w", err)
	}
	return nil
}

// Release frees the rows collected and not written. The writer must not be
// used afterwards.
func (w *Writer) Release() { w.b.Release() }

// syncedFile is a file whose Close syncs it first; the Parquet writer
// closes its sink.
type syncedFile struct{ *os.File }

func (f syncedFile) Close() error {
	if err := f.Sync(); err != nil {
		f.File.Close()
		return err
	}
	return f.File.Close()
}

// float32FromBytes reads a little-endian float32.
func float32FromBytes(b []byte) float32 {
	return math.Float32frombits(binary.LittleEndian.Uint32(b))
}
