package matchdata

import (
	"context"
	"fmt"
	"io"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/botarena/botarena/observations"
)

// File describes a match data file, as [ReadFile] reads it.
type File struct {
	// Game is the registry name of the game ("bomberman/12p") and Seats
	// its number of seats, from the schema's metadata.
	Game  string
	Seats int
	// Games are the file's games in file order, each without its rows'
	// data (Steps, Seed and Agents set), except the one ReadFile was asked
	// for, which also has Action, Reward, Terminated and Truncated, and
	// Label where the file has labels (never Obs or Mask).
	Games []Rows
}

// ReadFile reads the match data file r of size bytes, written by
// [Writer.WriteFile]: its game and, from the columns before the tensors
// only (game, seed, step, seat, agent, action, reward, terminated,
// truncated, and label where the file has it), a summary of each game and the actions and outcomes of the
// game whose index is want (none when want is negative). It reads one row
// group at a time, so its memory is bounded by the row group (64k rows) and
// the games' summaries, whatever the file's size.
func ReadFile(r io.ReaderAt, size int64, want int64) (*File, error) {
	pf, err := file.NewParquetReader(io.NewSectionReader(r, 0, size))
	if err != nil {
		return nil, fmt.Errorf("matchdata: %w", err)
	}
	defer pf.Close()
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{}, memory.DefaultAllocator)
	if err != nil {
		return nil, fmt.Errorf("matchdata: %w", err)
	}
	schema, err := fr.Schema()
	if err != nil {
		return nil, fmt.Errorf("matchdata: %w", err)
	}
	md := schema.Metadata()
	out := &File{}
	if i := md.FindKey(observations.GameKey); i >= 0 {
		out.Game = md.Values()[i]
	}
	if i := md.FindKey(observations.SeatsKey); i >= 0 {
		out.Seats, _ = strconv.Atoi(md.Values()[i])
	}
	if out.Game == "" || out.Seats < 1 {
		return nil, fmt.Errorf("matchdata: the file's schema does not name its game and seats: not botarena match data")
	}
	cols := make([]int, len(readColumns))
	for i, name := range readColumns {
		if cols[i] = pf.MetaData().Schema.ColumnIndexByName(name); cols[i] < 0 {
			return nil, fmt.Errorf("matchdata: the file has no column %q: not botarena match data", name)
		}
	}
	if c := pf.MetaData().Schema.ColumnIndexByName(LabelColumn); c >= 0 { // files from before labels have none
		cols = append(cols, c)
	}
	ctx := context.Background()
	rd := &fileReader{out: out, want: want}
	for rg := range pf.NumRowGroups() {
		tbl, err := fr.ReadRowGroups(ctx, cols, []int{rg})
		if err != nil {
			return nil, fmt.Errorf("matchdata: row group %d: %w", rg, err)
		}
		err = rd.table(tbl)
		tbl.Release()
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// fileReader reads the row groups of a file into out.
type fileReader struct {
	out  *File
	want int64
	cur  *Rows // the game being read, the last of out.Games
	rows int   // of cur, read so far
}

// table adds the rows of tbl (the columns of readColumns, in order) to
// r.out.
func (r *fileReader) table(tbl arrow.Table) error {
	out := r.out
	rd := array.NewTableReader(tbl, 1<<16)
	defer rd.Release()
	for rd.Next() {
		rec := rd.RecordBatch()
		game, ok0 := rec.Column(0).(*array.Int64)
		seed, ok1 := rec.Column(1).(*array.Uint64)
		step, ok2 := rec.Column(2).(*array.Int32)
		seat, ok3 := rec.Column(3).(*array.Int32)
		agent, ok4 := rec.Column(4).(*array.String)
		action, ok5 := rec.Column(5).(*array.Int32)
		reward, ok6 := rec.Column(6).(*array.Float32)
		term, ok7 := rec.Column(7).(*array.Boolean)
		trunc, ok8 := rec.Column(8).(*array.Boolean)
		var label *array.Int32
		ok9 := true
		if int(rec.NumCols()) > len(readColumns) { // the label column, after them
			label, ok9 = rec.Column(len(readColumns)).(*array.Int32)
		}
		if !(ok0 && ok1 && ok2 && ok3 && ok4 && ok5 && ok6 && ok7 && ok8 && ok9) {
			return fmt.Errorf("matchdata: the columns do not have match data's types")
		}
		for i := range int(rec.NumRows()) {
			g := r.cur
			if g == nil || g.Game != game.Value(i) {
				out.Games = append(out.Games, Rows{Game: game.Value(i), Seed: seed.Value(i), Agents: make([]string, out.Seats)})
				g = &out.Games[len(out.Games)-1]
				r.cur, r.rows = g, 0
			}
			s, st := int(seat.Value(i)), int(step.Value(i))
			if st != r.rows/out.Seats || s != r.rows%out.Seats {
				return fmt.Errorf("matchdata: game %d: the row of step %d, seat %d is out of order", g.Game, st, s)
			}
			r.rows++
			if s == 0 {
				g.Steps++
			}
			if st == 0 {
				g.Agents[s] = agent.Value(i)
			}
			if g.Game == r.want {
				g.Action = append(g.Action, action.Value(i))
				g.Reward = append(g.Reward, reward.Value(i))
				g.Terminated = append(g.Terminated, term.Value(i))
				g.Truncated = append(g.Truncated, trunc.Value(i))
				if label != nil {
					g.Label = append(g.Label, label.Value(i))
				}
			}
		}
	}
	return rd.Err()
}
