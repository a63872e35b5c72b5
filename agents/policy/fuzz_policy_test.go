package policy

import (
	"encoding/binary"
	"math"
	"math/bits"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// maxLoadBytes bounds what loading a file of n bytes may allocate: linear
// in the file, never what its header claims. The factor is what decoding an
// architecture of "{}" layers costs (about 150 bytes a byte); tensors and
// the rest of the header cost less.
func maxLoadBytes(n int) uint64 { return 8<<20 + 160*uint64(n) }

// FuzzPolicyFile feeds arbitrary bytes to the policy loader, as a file
// (Load) and in memory (Decode). Neither panics, both agree, and loading
// allocates no more than maxLoadBytes. A model that loads has every
// activation within maxWidth elements (without overflow), and computes: a
// forward pass gives each sample the same logits alone as in a batch,
// probabilities that sum to 1 over the legal actions, and a legal arg max.
func FuzzPolicyFile(f *testing.F) {
	for _, name := range []string{"battlebots.policy.safetensors", "battlecube.policy.safetensors"} {
		data, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add(tinyFile(nil))
	cube := netSpec{game: "cube", planes: []int{1, 2, 2, 2}, scalars: 1, actions: 3, channels: []int{1}, hidden: 2}
	arch, tensors := cube.build(2)
	f.Add(encodePolicy(arch, tensors))
	f.Add(overflowingConv3d())
	f.Add(encodeFile(map[string]string{}, nil))
	f.Add([]byte{})
	f.Add(binary.LittleEndian.AppendUint64(nil, MaxHeaderBytes))
	f.Add(binary.LittleEndian.AppendUint64(nil, math.MaxUint64))
	f.Add(append(binary.LittleEndian.AppendUint64(nil, 2), "{}"...))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(dir, "fuzz.policy.safetensors")
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		before := ms.TotalAlloc
		m, err := Decode(path, data)
		runtime.ReadMemStats(&ms)
		if used := ms.TotalAlloc - before; used > maxLoadBytes(len(data)) {
			t.Fatalf("decoding %d bytes allocated %d bytes, more than %d", len(data), used, maxLoadBytes(len(data)))
		}
		m2, err2 := Load(path)
		switch {
		case (err == nil) != (err2 == nil):
			t.Fatalf("Decode: %v; Load: %v", err, err2)
		case err != nil && err.Error() != err2.Error():
			t.Fatalf("Decode: %v\nLoad:   %v", err, err2)
		case err != nil:
			return
		}
		checkModel(t, m)
		if m2.Parameters() != m.Parameters() || m2.Features() != m.Features() {
			t.Fatal("Load and Decode built different models")
		}
	})
}

// checkModel checks that m's sizes are within maxWidth and, when its
// scratch is small, that it computes.
func checkModel(t *testing.T, m *Model) {
	t.Helper()
	within := func(what string, dims ...int) {
		n := uint64(1)
		for _, d := range dims {
			hi, lo := bits.Mul64(n, uint64(d))
			if d < 1 || hi != 0 || lo > maxWidth {
				t.Fatalf("%s %v: more than %d elements", what, dims, maxWidth)
			}
			n = lo
		}
	}
	within("planes", m.planesShape...)
	for i, ly := range m.convs {
		within("planes layer output", append([]int{ly.out}, ly.dims[:]...)...)
		if ly.kind == kConv && len(ly.w) != ly.kvol*ly.inC*ly.out {
			t.Fatalf("planes[%d]: %d weights for kernel %d × %d in × %d out", i, len(ly.w), ly.kvol, ly.inC, ly.out)
		}
	}
	within("features", m.features)
	within("activations", m.maxAct)
	within("flat activations", m.maxFlat)
	if m.Actions() < 1 || m.Features() != m.flatC*m.flatPos+m.scalarsLen {
		t.Fatalf("actions %d, features %d", m.Actions(), m.Features())
	}
	a := m.Architecture()
	if a.Actions != m.Actions() || !slices.Equal(a.Inputs["planes"].Shape, m.planesShape) {
		t.Fatalf("architecture %+v does not describe the model", a)
	}
	if m.maxAct > 1<<16 || m.maxFlat > 1<<16 || m.PlanesLen() > 1<<16 {
		return // too big to compute for every input; the sizes are checked
	}
	const n = 3
	b := m.NewBatch(n)
	for k := range n {
		for i := range b.Planes(k) {
			b.Planes(k)[i] = byte(i*7 + k)
		}
		sc := b.Scalars(k)
		for i := 0; i < len(sc); i += 4 {
			binary.LittleEndian.PutUint32(sc[i:], math.Float32bits(float32(i%5)-float32(k)))
		}
		for i := range b.Mask(k) {
			b.Mask(k)[i] = byte((i + k) % 2)
		}
	}
	b.Forward(n)
	batched := slices.Clone(b.Logits(n - 1))
	copy(b.Planes(0), b.Planes(n-1))
	copy(b.Scalars(0), b.Scalars(n-1))
	copy(b.Mask(0), b.Mask(n-1))
	b.Forward(1)
	for i, z := range b.Logits(0) {
		if math.Float64bits(z) != math.Float64bits(batched[i]) {
			t.Fatalf("logit %d is %v alone and %v in a batch", i, z, batched[i])
		}
	}
	sum := 0.0
	for i, p := range b.Probs(0) {
		if b.Mask(0)[i] == 0 && p != 0 {
			t.Fatalf("illegal action %d has probability %v", i, p)
		}
		sum += p
	}
	finite := true
	for _, z := range b.Logits(0) {
		finite = finite && !math.IsNaN(z) && !math.IsInf(z, 0)
	}
	if finite && math.Abs(sum-1) > 1e-9 {
		t.Fatalf("probabilities sum to %v", sum)
	}
	if best := ArgMax(b.Logits(0), b.Mask(0)); best < 0 || int(best) >= m.Actions() || (b.Mask(0)[best] == 0 && !allIllegal(b.Mask(0))) {
		t.Fatalf("ArgMax %d is not a legal action", best)
	}
}

// overflowingConv3d returns a policy whose first conv3d pads its 2×2×2
// input by 2^21-1 on every side: an output of 2^22 cells along each axis,
// 2^66 in all, which wraps to 0 in an int. The second conv3d (stride 2^21)
// brings it back to 2×2×2, so a loader that multiplies without checking
// accepts the file, and the forward pass indexes the 2^66-cell activation.
func overflowingConv3d() []byte {
	cube := netSpec{game: "cube", planes: []int{1, 2, 2, 2}, scalars: 1, actions: 3, channels: []int{1, 1}, hidden: 2}
	arch, tensors := cube.build(3)
	for i, geo := range []struct{ stride, padding int }{{1, 1<<21 - 1}, {1 << 21, 0}} {
		l := archLayer(arch, "planes", 2*i)
		l["kernel"], l["stride"], l["padding"] = 1, geo.stride, geo.padding
		w := fmtName("planes", 2*i) + "weight"
		tensors[w] = testTensor{shape: []int{1, 1, 1, 1, 1}, data: []float64{0.5}}
	}
	return encodePolicy(arch, tensors)
}

// TestDecodeRejectsOverflowingConvOutput is the regression test of the
// wrapping product FuzzPolicyFile's checks found: the conv3d output of
// 2^66 cells is refused, not loaded to crash Forward.
func TestDecodeRejectsOverflowingConvOutput(t *testing.T) {
	_, err := Decode("x", overflowingConv3d())
	if err == nil || !strings.Contains(err.Error(), "planes[0] (conv3d): output [1,[4194304 4194304 4194304]] has more than 16777216 elements") {
		t.Fatalf("Decode: %v, want the first conv3d's output refused", err)
	}
}

// TestDecodeBoundsTheArchitecture: an architecture over maxArchBytes is
// refused before it is decoded: a layer list of 2 MB of "{}"s would cost
// 300 MB.
func TestDecodeBoundsTheArchitecture(t *testing.T) {
	arch, tensors := tiny.build(1)
	layers := make([]any, 700_000)
	for i := range layers {
		layers[i] = map[string]any{}
	}
	arch["value"] = layers
	data := encodePolicy(arch, tensors)
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	before := ms.TotalAlloc
	_, err := Decode("x", data)
	runtime.ReadMemStats(&ms)
	if err == nil || !strings.Contains(err.Error(), "over the 1048576-byte limit") {
		t.Fatalf("Decode: %v, want the architecture refused for its size", err)
	}
	if used := ms.TotalAlloc - before; used > 64<<20 {
		t.Fatalf("refusing a %d-byte file allocated %d bytes", len(data), used)
	}
}
