package observations_test

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"reflect"
	"testing"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/internal/testutil"
	"github.com/botarena/botarena/observations"
)

func TestSchema(t *testing.T) {
	spec := bombermanSpec(t)
	s, err := observations.Schema(spec)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		name string
		typ  arrow.DataType
	}{
		{"planes", arrow.FixedSizeListOfNonNullable(12*21*21, arrow.PrimitiveTypes.Uint8)},
		{"scalars", arrow.FixedSizeListOfNonNullable(8, arrow.PrimitiveTypes.Float32)},
		{"mask", arrow.FixedSizeListOfNonNullable(7, arrow.PrimitiveTypes.Uint8)},
		{"reward", arrow.PrimitiveTypes.Float32},
		{"terminated", arrow.FixedWidthTypes.Boolean},
		{"truncated", arrow.FixedWidthTypes.Boolean},
		{"env", arrow.PrimitiveTypes.Int32},
		{"seat", arrow.PrimitiveTypes.Int32},
		{"episode", arrow.PrimitiveTypes.Int32},
	}
	if s.NumFields() != len(want) {
		t.Fatalf("schema has %d fields, want %d: %v", s.NumFields(), len(want), s)
	}
	for i, w := range want {
		f := s.Field(i)
		if f.Name != w.name || !arrow.TypeEqual(f.Type, w.typ) {
			t.Errorf("field %d = %s %s, want %s %s", i, f.Name, f.Type, w.name, w.typ)
		}
	}
	for _, c := range []struct {
		field, key, want string
	}{
		{"planes", "shape", "[12,21,21]"},
		{"planes", "dtype", "uint8"},
		{"scalars", "shape", "[8]"},
		{"scalars", "dtype", "float32"},
		{"mask", "shape", "[7]"},
	} {
		f, _ := s.FieldsByName(c.field)
		if len(f) != 1 {
			t.Fatalf("no field %q", c.field)
		}
		if got, _ := f[0].Metadata.GetValue(c.key); got != c.want {
			t.Errorf("%s metadata %s = %q, want %q", c.field, c.key, got, c.want)
		}
	}
	md := s.Metadata()
	for k, v := range map[string]string{"game": "bomberman", "seats": "4", "actions": "7"} {
		if got, _ := md.GetValue(k); got != v {
			t.Errorf("schema metadata %s = %q, want %q", k, got, v)
		}
	}
	got, err := observations.SpecFromSchema(s)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, spec) {
		t.Errorf("SpecFromSchema = %+v, want %+v", got, spec)
	}
}

func TestSchemaRejectsBadSpecs(t *testing.T) {
	good := func() *env.Spec {
		return &env.Spec{Game: "g", Seats: 2, Actions: 3, Obs: []env.Tensor{{Name: "x", DType: env.Int32, Shape: []int{2, 3}}}}
	}
	for _, c := range []struct {
		name   string
		change func(*env.Spec)
	}{
		{"no_actions", func(s *env.Spec) { s.Actions = 0 }},
		{"action_names", func(s *env.Spec) { s.ActionNames = []string{"a"} }},
		{"unnamed_tensor", func(s *env.Spec) { s.Obs[0].Name = "" }},
		{"reserved_name", func(s *env.Spec) { s.Obs[0].Name = "reward" }},
		{"duplicate_name", func(s *env.Spec) { s.Obs = append(s.Obs, s.Obs[0]) }},
		{"bad_dtype", func(s *env.Spec) { s.Obs[0].DType = 9 }},
		{"zero_dim", func(s *env.Spec) { s.Obs[0].Shape = []int{0, 3} }},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := good()
			if _, err := observations.Schema(s); err != nil {
				t.Fatalf("good spec: %v", err)
			}
			c.change(s)
			if _, err := observations.Schema(s); err == nil {
				t.Error("no error")
			}
		})
	}
}

// TestRecordAliasesBuffers checks that the record's columns are views of
// the buffers' memory, not copies, and follow later writes.
func TestRecordAliasesBuffers(t *testing.T) {
	mem := checkedAllocator(t)
	spec := bombermanSpec(t)
	const rows = 13
	b := env.NewBuffers(spec, rows)
	fillBuffers(t, b, 3, 1)
	enc := checkedEncoder(t, mem, spec, rows, false)
	rec := enc.Record(b)
	same := func(name string, got []byte, want unsafe.Pointer) {
		t.Helper()
		if unsafe.Pointer(unsafe.SliceData(got)) != want {
			t.Errorf("column %s does not alias the buffers", name)
		}
	}
	planes := rec.Column(0).(*array.FixedSizeList).ListValues().Data().Buffers()[1].Bytes()
	same("planes", planes, unsafe.Pointer(&b.Obs[0][0]))
	scalars := rec.Column(1).(*array.FixedSizeList).ListValues().Data().Buffers()[1].Bytes()
	same("scalars", scalars, unsafe.Pointer(&b.Obs[1][0]))
	same("mask", rec.Column(2).(*array.FixedSizeList).ListValues().Data().Buffers()[1].Bytes(), unsafe.Pointer(&b.Mask[0]))
	same("reward", rec.Column(3).Data().Buffers()[1].Bytes(), unsafe.Pointer(&b.Rewards[0]))
	same("episode", rec.Column(8).Data().Buffers()[1].Bytes(), unsafe.Pointer(&b.Episode[0]))

	checkRecord(t, rec, b)
	// A step overwrites the buffers; the next Record sees the new values
	// and reuses its Arrow headers.
	fillBuffers(t, b, 3, 2)
	rec2 := enc.Record(b)
	if rec2 != rec {
		t.Error("Record rebuilt the record for the same buffers")
	}
	checkRecord(t, rec2, b)
	// Other buffers get a new record.
	b2 := env.NewBuffers(spec, rows)
	fillBuffers(t, b2, 2, 3)
	checkRecord(t, enc.Record(b2), b2)
}

// checkRecord compares every value of rec with b.
func checkRecord(t *testing.T, rec arrow.RecordBatch, b *env.Buffers) {
	t.Helper()
	if int(rec.NumRows()) != b.Rows {
		t.Fatalf("record has %d rows, want %d", rec.NumRows(), b.Rows)
	}
	for i := range b.Obs {
		v := rec.Column(i).(*array.FixedSizeList).ListValues()
		var got []byte
		switch v := v.(type) {
		case *array.Uint8:
			got = v.Uint8Values()
		case *array.Float32:
			got = binary.LittleEndian.AppendUint32(nil, 0)[:0]
			for _, f := range v.Float32Values() {
				got = binary.LittleEndian.AppendUint32(got, mathFloat32bits(f))
			}
		}
		if !bytes.Equal(got, b.Obs[i]) {
			t.Errorf("tensor %d differs", i)
		}
	}
	if got := rec.Column(2).(*array.FixedSizeList).ListValues().(*array.Uint8).Uint8Values(); !bytes.Equal(got, b.Mask) {
		t.Error("mask differs")
	}
	if got := rec.Column(3).(*array.Float32).Float32Values(); !reflect.DeepEqual(got, b.Rewards) {
		t.Error("rewards differ")
	}
	for c, want := range [][]bool{b.Terminated, b.Truncated} {
		a := rec.Column(4 + c).(*array.Boolean)
		for r := range want {
			if a.Value(r) != want[r] {
				t.Fatalf("%s[%d] = %v, want %v", rec.ColumnName(4+c), r, a.Value(r), want[r])
			}
		}
	}
	for c, want := range [][]int32{b.Env, b.Seat, b.Episode} {
		if got := rec.Column(6 + c).(*array.Int32).Int32Values(); !reflect.DeepEqual(got, want) {
			t.Errorf("%s differs", rec.ColumnName(6+c))
		}
	}
}

func mathFloat32bits(f float32) uint32 { return *(*uint32)(unsafe.Pointer(&f)) }

// TestRoundTrip encodes batches to IPC messages and decodes them back,
// comparing byte for byte, with and without zstd.
func TestRoundTrip(t *testing.T) {
	spec := bombermanSpec(t)
	for _, zstd := range []bool{false, true} {
		for _, rows := range []int{0, 1, 7, 8, 9, 64, 4 * 37} {
			t.Run(fmt.Sprintf("zstd=%v/rows=%d", zstd, rows), func(t *testing.T) {
				mem := checkedAllocator(t)
				enc := checkedEncoder(t, mem, spec, rows, zstd)
				schemaMsg, err := observations.SchemaMessage(spec)
				if err != nil {
					t.Fatal(err)
				}
				dec, err := observations.NewDecoder(schemaMsg, observations.WithAllocator(mem))
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(dec.Spec(), spec) {
					t.Errorf("decoded spec = %+v, want %+v", dec.Spec(), spec)
				}
				b := env.NewBuffers(spec, rows)
				got := env.NewBuffers(dec.Spec(), rows)
				var msg []byte
				for step := range 3 {
					fillBuffers(t, b, 5, uint64(step))
					msg, err = enc.AppendBatchMessage(msg[:0], b)
					if err != nil {
						t.Fatal(err)
					}
					if err := dec.DecodeTo(got, msg); err != nil {
						t.Fatal(err)
					}
					compareBuffers(t, got, b)
				}
				fresh, err := dec.Decode(msg)
				if err != nil {
					t.Fatal(err)
				}
				compareBuffers(t, fresh, b)
			})
		}
	}
}

// compareBuffers compares the data of got and want byte for byte.
func compareBuffers(t *testing.T, got, want *env.Buffers) {
	t.Helper()
	if got.Rows != want.Rows {
		t.Fatalf("rows = %d, want %d", got.Rows, want.Rows)
	}
	for i := range want.Obs {
		if !bytes.Equal(got.Obs[i], want.Obs[i]) {
			t.Errorf("tensor %q differs", want.Spec.Obs[i].Name)
		}
	}
	for _, c := range []struct {
		name      string
		got, want any
	}{
		{"mask", got.Mask, want.Mask},
		{"rewards", got.Rewards, want.Rewards},
		{"terminated", got.Terminated, want.Terminated},
		{"truncated", got.Truncated, want.Truncated},
		{"env", got.Env, want.Env},
		{"seat", got.Seat, want.Seat},
		{"episode", got.Episode, want.Episode},
	} {
		if !reflect.DeepEqual(c.got, c.want) {
			t.Errorf("%s differs", c.name)
		}
	}
}

// TestMessageFormat checks the framing of the messages: continuation
// marker, metadata length, 8-byte alignment of the body, and a stream of
// schema + batches + end-of-stream readable by Arrow's stream reader.
func TestMessageFormat(t *testing.T) {
	mem := checkedAllocator(t)
	spec := bombermanSpec(t)
	const rows = 40
	schemaMsg, err := observations.SchemaMessage(spec)
	if err != nil {
		t.Fatal(err)
	}
	enc := checkedEncoder(t, mem, spec, rows, false)
	b := env.NewBuffers(spec, rows)
	fillBuffers(t, b, 4, 9)
	msg, err := enc.AppendBatchMessage(nil, b)
	if err != nil {
		t.Fatal(err)
	}
	for name, m := range map[string][]byte{"schema": schemaMsg, "batch": msg} {
		if len(m)%8 != 0 {
			t.Errorf("%s message of %d bytes, not a multiple of 8", name, len(m))
		}
		if binary.LittleEndian.Uint32(m) != 0xFFFFFFFF {
			t.Errorf("%s message does not start with the continuation marker", name)
		}
		if n := binary.LittleEndian.Uint32(m[4:]); (n+8)%8 != 0 || int(n)+8 > len(m) {
			t.Errorf("%s message metadata length %d", name, n)
		}
	}
	// The body holds at least the planes, uncompressed.
	if min := rows * spec.ObsBytes(); len(msg) < min {
		t.Errorf("batch message of %d bytes, want at least %d", len(msg), min)
	}
	// WriteBatchMessage writes the same bytes.
	var w bytes.Buffer
	if err := enc.WriteBatchMessage(&w, b); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(w.Bytes(), msg) {
		t.Error("WriteBatchMessage differs from AppendBatchMessage")
	}
	// Appending keeps what dst held.
	prefix := []byte("12345678")
	msg2, err := enc.AppendBatchMessage(prefix, b)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(msg2[:8], prefix) || !bytes.Equal(msg2[8:], msg) {
		t.Error("AppendBatchMessage with a prefix differs")
	}
}

func TestEncoderPanicsOnWrongBuffers(t *testing.T) {
	spec := bombermanSpec(t)
	enc, err := observations.NewEncoder(spec, 8)
	if err != nil {
		t.Fatal(err)
	}
	defer enc.Close()
	for _, c := range []struct {
		name string
		b    *env.Buffers
	}{
		{"rows", env.NewBuffers(spec, 9)},
		{"short_mask", func() *env.Buffers { b := env.NewBuffers(spec, 8); b.Mask = b.Mask[:3]; return b }()},
		{"short_tensor", func() *env.Buffers { b := env.NewBuffers(spec, 8); b.Obs[1] = b.Obs[1][:5]; return b }()},
	} {
		t.Run(c.name, func(t *testing.T) {
			testutil.WantPanic(t, "Record", "", func() { enc.Record(c.b) })
		})
	}
}

func TestDecoderErrors(t *testing.T) {
	mem := checkedAllocator(t)
	spec := bombermanSpec(t)
	schemaMsg, err := observations.SchemaMessage(spec)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := observations.NewDecoder(schemaMsg[:20], observations.WithAllocator(mem)); err == nil {
		t.Error("NewDecoder of a truncated schema: no error")
	}
	dec, err := observations.NewDecoder(schemaMsg, observations.WithAllocator(mem))
	if err != nil {
		t.Fatal(err)
	}
	enc, err := observations.NewEncoder(spec, 8, observations.WithAllocator(mem))
	if err != nil {
		t.Fatal(err)
	}
	defer enc.Close()
	b := env.NewBuffers(spec, 8)
	fillBuffers(t, b, 2, 4)
	msg, err := enc.AppendBatchMessage(nil, b)
	if err != nil {
		t.Fatal(err)
	}
	for name, m := range map[string][]byte{
		"empty":     nil,
		"truncated": msg[:len(msg)-16],
		"trailing":  append(append([]byte{}, msg...), msg...),
		"schema":    schemaMsg,
	} {
		if _, err := dec.Decode(m); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	if err := dec.DecodeTo(env.NewBuffers(spec, 9), msg); err == nil {
		t.Error("DecodeTo of the wrong row count: no error")
	}
	if _, err := dec.Decode(msg); err != nil {
		t.Errorf("Decode after errors: %v", err)
	}
}

func TestPackBitmapMatchesArrow(t *testing.T) {
	// Every pattern of a byte of flags, plus a tail, through a record.
	spec := bombermanSpec(t)
	const rows = 256*8 + 5
	b := env.NewBuffers(spec, rows)
	for r := range rows {
		b.Terminated[r] = (r/8)>>(r%8)&1 == 1
		b.Truncated[r] = !b.Terminated[r]
	}
	b.Terminated[rows-1] = true
	enc, err := observations.NewEncoder(spec, rows)
	if err != nil {
		t.Fatal(err)
	}
	defer enc.Close()
	checkRecord(t, enc.Record(b), b)
}

// TestRecordDoesNotAllocate checks that, for the same buffers, Record only
// repacks the flag bitmaps.
func TestRecordDoesNotAllocate(t *testing.T) {
	spec := bombermanSpec(t)
	b := env.NewBuffers(spec, 64)
	fillBuffers(t, b, 4, 1)
	enc, err := observations.NewEncoder(spec, 64)
	if err != nil {
		t.Fatal(err)
	}
	defer enc.Close()
	enc.Record(b)
	if n := testing.AllocsPerRun(100, func() { enc.Record(b) }); n != 0 {
		t.Errorf("Record allocates %v times per call, want 0", n)
	}
}

// TestSharedForm checks the shared form: the schemas, and that a decoder
// rebuilds from it exactly the buffers the full form carries, with and
// without zstd, in smaller messages.
func TestSharedForm(t *testing.T) {
	spec := bombermanSpec(t)
	rowsSchema, envsSchema, err := observations.SharedSchemas(spec)
	if err != nil {
		t.Fatal(err)
	}
	planes := spec.Obs[0]
	if got := rowsSchema.Field(0).Type.(*arrow.FixedSizeListType).Len(); int(got) != 4*21*21 {
		t.Errorf("rows schema: planes of %d values per row, want %d (the 4 seat planes)", got, 4*21*21)
	}
	if got := envsSchema.Field(0).Type.(*arrow.FixedSizeListType).Len(); int(got) != 8*21*21 || envsSchema.NumFields() != 1 {
		t.Errorf("envs schema %v, want one column of 8 planes", envsSchema)
	}
	if v, _ := rowsSchema.Field(0).Metadata.GetValue(observations.SharedKey); v != "[2,3,6,7,8,9,10,11]" {
		t.Errorf("shared metadata %q", v)
	}
	if got, err := observations.SpecFromSchema(rowsSchema); err != nil || !reflect.DeepEqual(got, spec) {
		t.Errorf("SpecFromSchema(rows) = %+v, %v; want %+v", got, err, spec)
	}
	if _, err := observations.SpecFromSchema(envsSchema); err == nil {
		t.Error("SpecFromSchema accepted the envs schema")
	}
	if len(planes.Shared) == 0 {
		t.Fatal("bomberman planes declare no shared channels")
	}
	fullMsg, _ := observations.SchemaMessage(spec)
	sharedMsg, err := observations.SharedSchemaMessage(spec)
	if err != nil {
		t.Fatal(err)
	}
	for _, zstd := range []bool{false, true} {
		for _, rows := range []int{0, 4, 8, 4 * 37} {
			t.Run(fmt.Sprintf("zstd=%v/rows=%d", zstd, rows), func(t *testing.T) {
				mem := checkedAllocator(t)
				full := checkedEncoder(t, mem, spec, rows, zstd)
				shared := checkedEncoder(t, mem, spec, rows, zstd, observations.WithShared(spec.Seats))
				fullDec, err := observations.NewDecoder(fullMsg, observations.WithAllocator(mem))
				if err != nil {
					t.Fatal(err)
				}
				dec, err := observations.NewDecoder(sharedMsg, observations.WithAllocator(mem))
				if err != nil {
					t.Fatal(err)
				}
				if !dec.Shared() || fullDec.Shared() || !reflect.DeepEqual(dec.Spec(), spec) {
					t.Fatalf("Shared() = %v, %v; spec %+v", dec.Shared(), fullDec.Shared(), dec.Spec())
				}
				b := env.NewBuffers(spec, rows)
				fromFull := env.NewBuffers(spec, rows)
				fromShared := env.NewBuffers(spec, rows)
				var fm, sm []byte
				for step := range 3 {
					fillBuffers(t, b, 5, uint64(step))
					if fm, err = full.AppendBatchMessage(fm[:0], b); err != nil {
						t.Fatal(err)
					}
					if sm, err = shared.AppendBatchMessage(sm[:0], b); err != nil {
						t.Fatal(err)
					}
					if err := fullDec.DecodeTo(fromFull, fm); err != nil {
						t.Fatal(err)
					}
					if err := dec.DecodeTo(fromShared, sm); err != nil {
						t.Fatal(err)
					}
					compareBuffers(t, fromShared, fromFull)
					compareBuffers(t, fromShared, b)
					if rows >= 8 && !zstd && len(sm) > len(fm)*6/10 {
						t.Errorf("shared message of %d bytes, full %d: want at most 60%%", len(sm), len(fm))
					}
				}
				var w bytes.Buffer
				if err := shared.WriteBatchMessage(&w, b); err != nil {
					t.Fatal(err)
				}
				if !zstd && !bytes.Equal(w.Bytes(), sm) {
					t.Error("WriteBatchMessage wrote other bytes than AppendBatchMessage")
				}
				if err := fullDec.DecodeTo(fromFull, sm); err == nil {
					t.Error("the full form's decoder read a shared message")
				}
				if err := dec.DecodeTo(fromShared, fm); err == nil {
					t.Error("the shared form's decoder read a full message")
				}
			})
		}
	}
	if _, err := observations.NewEncoder(spec, 6, observations.WithShared(4)); err == nil {
		t.Error("NewEncoder accepted 6 rows in envs of 4")
	}
	noShared := *spec
	noShared.Obs = []env.Tensor{{Name: "planes", DType: env.Uint8, Shape: []int{2, 3}}}
	if _, err := observations.NewEncoder(&noShared, 4, observations.WithShared(2)); err == nil {
		t.Error("NewEncoder made a shared form without shared channels")
	}
	bad := noShared
	bad.Obs = []env.Tensor{{Name: "planes", DType: env.Uint8, Shape: []int{2, 3}, Shared: []int{1, 0}}}
	if _, err := observations.Schema(&bad); err == nil {
		t.Error("Schema accepted descending shared channels")
	}
}
