package observations_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"unsafe"

	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/observations"
)

// python returns a Python interpreter with pyarrow and numpy, from
// $BOTARENA_PYTHON or else python3 on the PATH, or skips t.
func python(t *testing.T) string {
	t.Helper()
	py := os.Getenv("BOTARENA_PYTHON")
	if py == "" {
		var err error
		if py, err = exec.LookPath("python3"); err != nil {
			t.Skip("no python3 on the PATH and BOTARENA_PYTHON unset")
		}
	}
	if out, err := exec.Command(py, "-c", "import pyarrow, numpy").CombinedOutput(); err != nil {
		t.Skipf("%s has no pyarrow or numpy: %v: %s", py, err, out)
	}
	return py
}

// TestPyarrowReadsMessages writes a schema message and batch messages,
// uncompressed and zstd-compressed, and has testdata/read_batches.py read
// them with pa.ipc.read_schema and pa.ipc.read_record_batch into numpy
// arrays (zero-copy for the tensors, mask, reward and ids) and compare them
// with the raw buffers. It skips when Python or pyarrow is missing.
func TestPyarrowReadsMessages(t *testing.T) {
	py := python(t)
	spec := bombermanSpec(t)
	dir := t.TempDir()
	schemaMsg, err := observations.SchemaMessage(spec)
	if err != nil {
		t.Fatal(err)
	}
	write := func(name string, data []byte) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("schema.arrow", schemaMsg)
	k := 0
	for _, zstd := range []bool{false, true} {
		for _, rows := range []int{0, 13, 4 * 16} {
			mem := checkedAllocator(t)
			enc := checkedEncoder(t, mem, spec, rows, zstd)
			b := env.NewBuffers(spec, rows)
			fillBuffers(t, b, 5, uint64(k))
			msg, err := enc.AppendBatchMessage(nil, b)
			if err != nil {
				t.Fatal(err)
			}
			batch := fmt.Sprintf("batch%d", k)
			write(batch+".arrow", msg)
			for i, tn := range spec.Obs {
				write(batch+"."+tn.Name+".bin", b.Obs[i])
			}
			write(batch+".mask.bin", b.Mask)
			write(batch+".reward.bin", unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(b.Rewards))), 4*rows))
			write(batch+".terminated.bin", unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(b.Terminated))), rows))
			write(batch+".truncated.bin", unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(b.Truncated))), rows))
			for name, ids := range map[string][]int32{"env": b.Env, "seat": b.Seat, "episode": b.Episode} {
				write(batch+"."+name+".bin", unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(ids))), 4*rows))
			}
			k++
		}
	}
	out, err := exec.Command(py, filepath.Join("testdata", "read_batches.py"), dir).CombinedOutput()
	if err != nil {
		t.Fatalf("read_batches.py: %v\n%s", err, out)
	}
	t.Logf("%s", out)
}
