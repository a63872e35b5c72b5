package policy

import (
	"encoding/binary"
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// fixture is one file make_fixtures.py writes: observations, masks and
// PyTorch's probabilities for a policy file beside it.
type fixture struct {
	Policy  string    `json:"policy"`
	N       int       `json:"n"`
	Actions int       `json:"actions"`
	Planes  []uint8   `json:"planes"`
	Scalars []float64 `json:"scalars"`
	Mask    []uint8   `json:"mask"`
	Probs   []float64 `json:"probs"`
}

// parityTolerance is the largest difference docs/policy-format.md allows
// between Go's float64 and PyTorch's float32 probabilities.
const parityTolerance = 1e-5

// checkParity loads the fixture name in dir and its policy, computes the
// probabilities in Go and compares them with PyTorch's.
func checkParity(t *testing.T, dir, name string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, name+".fixture.json"))
	if err != nil {
		t.Fatal(err)
	}
	var fx fixture
	if err := json.Unmarshal(data, &fx); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	m, err := Load(filepath.Join(dir, fx.Policy))
	if err != nil {
		t.Fatal(err)
	}
	if m.Actions() != fx.Actions || len(fx.Planes) != fx.N*m.PlanesLen() || len(fx.Scalars) != fx.N*m.ScalarsLen() || len(fx.Mask) != fx.N*fx.Actions || len(fx.Probs) != fx.N*fx.Actions {
		t.Fatalf("%s: fixture sizes do not match the policy", name)
	}
	// Batches of every sample at once and of one sample must agree exactly.
	overall := 0.0
	defer func() { t.Logf("%s: largest difference from PyTorch %.3g", name, overall) }()
	for _, capacity := range []int{fx.N, 1} {
		b := m.NewBatch(capacity)
		for lo := 0; lo < fx.N; lo += capacity {
			n := min(capacity, fx.N-lo)
			for k := range n {
				r := lo + k
				copy(b.Planes(k), fx.Planes[r*m.PlanesLen():])
				sc := b.Scalars(k)
				for i := range m.ScalarsLen() {
					binary.LittleEndian.PutUint32(sc[4*i:], math.Float32bits(float32(fx.Scalars[r*m.ScalarsLen()+i])))
				}
				copy(b.Mask(k), fx.Mask[r*fx.Actions:])
			}
			b.Forward(n)
			for k := range n {
				r := lo + k
				worst, at := 0.0, 0
				sum := 0.0
				for i, p := range b.Probs(k) {
					sum += p
					if d := math.Abs(p - fx.Probs[r*fx.Actions+i]); d > worst {
						worst, at = d, i
					}
					if fx.Mask[r*fx.Actions+i] == 0 && !allIllegal(fx.Mask[r*fx.Actions:(r+1)*fx.Actions]) && p != 0 {
						t.Errorf("%s sample %d: illegal action %d has probability %g", name, r, i, p)
					}
				}
				overall = max(overall, worst)
				// The arg-max Go plays is PyTorch's (evaluate's), unless two actions are within
				// the tolerance of each other.
				want := mostLikely(fx.Probs[r*fx.Actions : (r+1)*fx.Actions])
				got := mostLikely(b.Probs(k))
				if !m.Factored() {
					got = ArgMax(b.Logits(k), b.Mask(k))
				}
				if got != want && math.Abs(fx.Probs[r*fx.Actions+int(got)]-fx.Probs[r*fx.Actions+int(want)]) > parityTolerance {
					t.Errorf("%s sample %d: Go plays action %d, PyTorch's arg-max is %d", name, r, got, want)
				}
				if worst > parityTolerance {
					t.Errorf("%s sample %d (batch of %d): action %d: Go %.9f, PyTorch %.9f (diff %.3g > %g)",
						name, r, capacity, at, b.Probs(k)[at], fx.Probs[r*fx.Actions+at], worst, parityTolerance)
				}
				if math.Abs(sum-1) > 1e-12 {
					t.Errorf("%s sample %d: probabilities sum to %v", name, r, sum)
				}
			}
		}
	}
}

// fixtures are the parity fixtures make_fixtures.py writes: a 2-D and a
// 3-D network with flat heads, and factored heads with shared
// (battleships) and per-command (factored) cell logits.
var fixtures = []string{"battlebots", "battlecube", "battleships", "factored"}

// TestParityWithPyTorch checks Go's probabilities against the committed
// fixtures PyTorch wrote (testdata/make_fixtures.py).
func TestParityWithPyTorch(t *testing.T) {
	for _, name := range fixtures {
		t.Run(name, func(t *testing.T) { checkParity(t, "testdata", name) })
	}
}

// TestParityFreshFixtures regenerates the fixtures with the Python in
// $BOTARENA_PYTHON (the Makefile's venv) into a temporary folder and checks
// Go against them, so that a change of botarena.policy or of PyTorch is
// caught. It skips when that Python cannot import torch and botarena.
func TestParityFreshFixtures(t *testing.T) {
	if testing.Short() {
		t.Skip("runs Python and PyTorch; skipped with -short")
	}
	py := os.Getenv("BOTARENA_PYTHON")
	if py == "" {
		t.Skip("BOTARENA_PYTHON is unset (the Makefile sets it to .venv/bin/python); no fresh PyTorch fixtures")
	}
	if out, err := exec.Command(py, "-c", "import torch, botarena.policy").CombinedOutput(); err != nil {
		t.Skipf("%s cannot import torch and botarena.policy (pip install -e 'python[train]'), so no fresh PyTorch fixtures: %v: %.300s", py, err, out)
	}
	dir := t.TempDir()
	cmd := exec.Command(py, filepath.Join("testdata", "make_fixtures.py"), "--out", dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("make_fixtures.py: %v\n%s", err, out)
	}
	for _, name := range fixtures {
		t.Run(name, func(t *testing.T) { checkParity(t, dir, name) })
	}
}
