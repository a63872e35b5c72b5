package league

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/botarena/botarena/agents"
	"github.com/botarena/botarena/env"
)

// readParquet reads a whole Parquet file as one Arrow table, and the Arrow
// schema stored in the file.
func readParquet(t *testing.T, path string) (arrow.Table, *arrow.Schema) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	rdr, err := file.NewParquetReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	fr, err := pqarrow.NewFileReader(rdr, pqarrow.ArrowReadProperties{}, memory.DefaultAllocator)
	if err != nil {
		t.Fatal(err)
	}
	tbl, err := fr.ReadTable(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(tbl.Release)
	schema, err := fr.Schema()
	if err != nil {
		t.Fatal(err)
	}
	return tbl, schema
}

// column returns the single chunk of column name (the files are small).
func column(t *testing.T, tbl arrow.Table, name string) arrow.Array {
	t.Helper()
	idx := tbl.Schema().FieldIndices(name)
	if len(idx) != 1 {
		t.Fatalf("column %q: found %d times in %s", name, len(idx), tbl.Schema())
	}
	chunks := tbl.Column(idx[0]).Data().Chunks()
	if len(chunks) != 1 {
		t.Fatalf("column %q: %d chunks, want 1", name, len(chunks))
	}
	return chunks[0]
}

func TestMatchDataMatchesGamesReplayedFromTheirSeeds(t *testing.T) {
	l := newLeague(t, 11, fourBots...)
	data := filepath.Join(t.TempDir(), "data")
	const games, maxRounds = 70, 40
	sum, err := l.Run(context.Background(), RunOptions{Games: games, Match: Uniform, Workers: 2, MaxRounds: maxRounds, DataDir: data})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{filepath.Join(data, "games-000000000-000000063.parquet"), filepath.Join(data, "games-000000064-000000069.parquet")}
	if fmt.Sprint(sum.DataFiles) != fmt.Sprint(want) {
		t.Fatalf("data files %v, want %v", sum.DataFiles, want)
	}
	if left, _ := filepath.Glob(filepath.Join(data, ".*")); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
	records := results(t, l)
	spec := mustSpec(t)

	var row int64
	g := 0
	for _, path := range want {
		tbl, schema := readParquet(t, path)
		if md := schema.Metadata(); md.FindKey("game") < 0 || md.Values()[md.FindKey("game")] != "battlebots" {
			t.Errorf("%s: schema metadata %v, want game battlebots", path, md)
		}
		if f, ok := schema.FieldsByName("planes"); !ok || f[0].Metadata.FindKey("shape") < 0 || f[0].Metadata.Values()[f[0].Metadata.FindKey("shape")] != "[19,10,10]" {
			t.Errorf("%s: planes field %v, want shape metadata [19,10,10]", path, f)
		}
		planes := column(t, tbl, "planes").(*array.FixedSizeList)
		if n := planes.DataType().(*arrow.FixedSizeListType).Len(); n != 19*10*10 {
			t.Fatalf("planes list size %d, want 1900", n)
		}
		scalars := column(t, tbl, "scalars").(*array.FixedSizeList)
		mask := column(t, tbl, "mask").(*array.FixedSizeList)
		gameCol := column(t, tbl, "game").(*array.Int64)
		seedCol := column(t, tbl, "seed").(*array.Uint64)
		stepCol := column(t, tbl, "step").(*array.Int32)
		seatCol := column(t, tbl, "seat").(*array.Int32)
		agentCol := column(t, tbl, "agent").(*array.String)
		actionCol := column(t, tbl, "action").(*array.Int32)
		rewardCol := column(t, tbl, "reward").(*array.Float32)
		termCol := column(t, tbl, "terminated").(*array.Boolean)
		planeVals := planes.ListValues().(*array.Uint8).Uint8Values()
		scalarVals := scalars.ListValues().(*array.Float32).Float32Values()
		maskVals := mask.ListValues().(*array.Uint8).Uint8Values()

		r := 0
		last := 64
		if g == 64 {
			last = games
		}
		for ; g < last; g++ {
			rec := records[g]
			// Replay the game from its seed, independently of the runner.
			cfg := fmt.Appendf(nil, `{"max_rounds":%d}`, maxRounds)
			e, err := env.Make("battlebots", cfg)
			if err != nil {
				t.Fatal(err)
			}
			ags := make([]env.Agent, 2)
			for seat, ent := range rec.Seats {
				if ags[seat], err = agents.New("battlebots", ent.Spec, spec); err != nil {
					t.Fatal(err)
				}
			}
			e.Reset(rec.Seed)
			for seat, a := range ags {
				a.Reset(e, seat, env.AgentSeed(rec.Seed, seat))
			}
			obs, m := spec.NewObsBuffers(), make([]byte, spec.Actions)
			acts, rew := make([]int32, 2), make([]float32, 2)
			term, trunc := make([]bool, 2), make([]bool, 2)
			for step := 0; !e.Done(); step++ {
				for seat, a := range ags {
					acts[seat] = a.Act(e, seat)
				}
				for seat := range 2 {
					e.WriteObs(seat, obs)
					e.WriteMask(seat, m)
					where := fmt.Sprintf("%s row %d (game %d step %d seat %d)", filepath.Base(path), r, g, step, seat)
					if gameCol.Value(r) != int64(g) || seedCol.Value(r) != rec.Seed || stepCol.Value(r) != int32(step) || seatCol.Value(r) != int32(seat) || agentCol.Value(r) != rec.Seats[seat].Name {
						t.Fatalf("%s: ids game %d seed %d step %d seat %d agent %s", where, gameCol.Value(r), seedCol.Value(r), stepCol.Value(r), seatCol.Value(r), agentCol.Value(r))
					}
					if !bytes.Equal(planeVals[r*1900:(r+1)*1900], obs[0]) {
						t.Fatalf("%s: planes differ from the replay", where)
					}
					for k := range 4 {
						if want := math.Float32frombits(binary.LittleEndian.Uint32(obs[1][4*k:])); scalarVals[r*4+k] != want {
							t.Fatalf("%s: scalar %d = %g, want %g", where, k, scalarVals[r*4+k], want)
						}
					}
					if !bytes.Equal(maskVals[r*spec.Actions:(r+1)*spec.Actions], m) || actionCol.Value(r) != acts[seat] {
						t.Fatalf("%s: mask or action differ from the replay", where)
					}
					r++
				}
				e.Step(acts, rew, term, trunc)
				for seat := range 2 {
					k := r - 2 + seat
					if rewardCol.Value(k) != rew[seat] || termCol.Value(k) != term[seat] {
						t.Fatalf("game %d step %d seat %d: reward %g terminated %v, want %g %v", g, step, seat, rewardCol.Value(k), termCol.Value(k), rew[seat], term[seat])
					}
				}
			}
			row += int64(2 * e.Steps())
		}
		if int64(r) != tbl.NumRows() {
			t.Errorf("%s: %d rows, the replays have %d", path, tbl.NumRows(), r)
		}
	}
	if row == 0 {
		t.Fatal("no rows")
	}
}

func mustSpec(t *testing.T) *env.Spec {
	t.Helper()
	e, err := env.Make("battlebots", nil)
	if err != nil {
		t.Fatal(err)
	}
	return e.Spec()
}

// TestMatchDataLabelsAreTheTeachersActions checks the label column: a
// "dagger:TEACHER:STUDENT" seat plays its student (idle: always 0) and is
// labelled with its teacher's choices; any other seat's label is its
// action.
func TestMatchDataLabelsAreTheTeachersActions(t *testing.T) {
	l := newLeague(t, 5, "student", "dagger:sniper:idle", "huggy", "huggy")
	data := filepath.Join(t.TempDir(), "data")
	sum, err := l.Run(context.Background(), RunOptions{Games: 4, Match: RoundRobin, Workers: 2, MaxRounds: 30, DataDir: data})
	if err != nil {
		t.Fatal(err)
	}
	var student, taught int
	for _, path := range sum.DataFiles {
		tbl, _ := readParquet(t, path)
		agent := column(t, tbl, "agent").(*array.String)
		action := column(t, tbl, "action").(*array.Int32)
		label := column(t, tbl, "label").(*array.Int32)
		for i := range action.Len() {
			switch a, lb := action.Value(i), label.Value(i); {
			case agent.Value(i) != "student":
				if lb != a {
					t.Fatalf("row %d (%s): label %d, want its action %d", i, agent.Value(i), lb, a)
				}
			case a != 0:
				t.Fatalf("row %d: the student (idle) played %d", i, a)
			default:
				student++
				if lb != 0 {
					taught++
				}
			}
		}
	}
	if student == 0 || taught == 0 {
		t.Errorf("%d rows of the student, %d with a label other than 0: the teacher's choices are not recorded", student, taught)
	}
}
