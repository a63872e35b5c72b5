package policy

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// testTensor is a tensor to write into a test file.
type testTensor struct {
	shape []int
	data  []float64
	f64   bool // F64 instead of F32
}

// header is a safetensors header as a test writes it: tensor entries and
// __metadata__.
type header map[string]any

// encodeFile writes tensors (sorted by name, contiguous) and meta as a
// safetensors file, as botarena.policy.write_safetensors does.
func encodeFile(meta map[string]string, tensors map[string]testTensor) []byte {
	h := header{}
	if meta != nil {
		h["__metadata__"] = meta
	}
	var data []byte
	for _, name := range slices.Sorted(maps.Keys(tensors)) {
		t := tensors[name]
		begin := len(data)
		for _, v := range t.data {
			if t.f64 {
				data = binary.LittleEndian.AppendUint64(data, math.Float64bits(v))
			} else {
				data = binary.LittleEndian.AppendUint32(data, math.Float32bits(float32(v)))
			}
		}
		dtype := "F32"
		if t.f64 {
			dtype = "F64"
		}
		h[name] = map[string]any{"dtype": dtype, "shape": t.shape, "data_offsets": []int{begin, len(data)}}
	}
	return encodeRaw(h, data)
}

// encodeRaw writes a header (any JSON value) and data as a safetensors file.
func encodeRaw(h any, data []byte) []byte {
	js, err := json.Marshal(h)
	if err != nil {
		panic(err)
	}
	for len(js)%8 != 0 {
		js = append(js, ' ')
	}
	out := binary.LittleEndian.AppendUint64(nil, uint64(len(js)))
	out = append(out, js...)
	return append(out, data...)
}

// netSpec describes a standard botarena network (default_architecture).
type netSpec struct {
	game     string
	planes   []int // [C,H,W] or [C,D,H,W]
	scalars  int
	actions  int
	channels []int
	hidden   int
}

// tiny is a small 2-D network for format tests.
var tiny = netSpec{game: "tiny", planes: []int{2, 3, 3}, scalars: 2, actions: 4, channels: []int{2}, hidden: 5}

// battlebotsNet and bombermanNet are networks of the shapes of those games,
// with the default channels and hidden width.
var (
	battlebotsNet = netSpec{game: "battlebots", planes: []int{19, 10, 10}, scalars: 4, actions: 34, channels: []int{32, 32}, hidden: 256}
	bombermanNet  = netSpec{game: "bomberman", planes: []int{12, 21, 21}, scalars: 8, actions: 7, channels: []int{32, 32}, hidden: 256}
)

// build returns the architecture of n as default_architecture
// builds it, as a generic JSON value for tests to modify, and random
// tensors for it.
func (n netSpec) build(seed uint64) (map[string]any, map[string]testTensor) {
	rng := rand.New(rand.NewPCG(seed, 1))
	// PyTorch's default initialisation: uniform in ±1/sqrt(fan in).
	random := func(fan int, shape ...int) testTensor {
		t := testTensor{shape: shape, data: make([]float64, prod(shape))}
		bound := 1 / math.Sqrt(float64(fan))
		for i := range t.data {
			t.data[i] = (2*rng.Float64() - 1) * bound
		}
		return t
	}
	tensors := map[string]testTensor{}
	conv := "conv2d"
	if len(n.planes) == 4 {
		conv = "conv3d"
	}
	var planes []any
	c := n.planes[0]
	for _, out := range n.channels {
		i := len(planes)
		w := fmtName("planes", i)
		planes = append(planes, map[string]any{"op": conv, "weight": w + "weight", "bias": w + "bias", "out": out, "kernel": 3, "stride": 1, "padding": 1})
		shape := []int{out, c, 3, 3}
		if conv == "conv3d" {
			shape = append(shape, 3)
		}
		fan := prod(shape[1:])
		tensors[w+"weight"] = random(fan, shape...)
		tensors[w+"bias"] = random(fan, out)
		planes = append(planes, map[string]any{"op": "relu"})
		c = out
	}
	planes = append(planes, map[string]any{"op": "flatten"})
	features := c*prod(n.planes[1:]) + n.scalars
	lin := func(list string, in, out int) map[string]any {
		w := fmtName(list, 0)
		tensors[w+"weight"] = random(in, out, in)
		tensors[w+"bias"] = random(in, out)
		return map[string]any{"op": "linear", "weight": w + "weight", "bias": w + "bias", "out": out}
	}
	scale := func(k int, f float64) []float64 {
		s := make([]float64, k)
		for i := range s {
			s[i] = f * float64(i+1)
		}
		return s
	}
	arch := map[string]any{
		"format":  "botarena.policy",
		"version": 1,
		"game":    n.game,
		"config":  nil,
		"actions": n.actions,
		"inputs": map[string]any{
			"planes":  map[string]any{"shape": n.planes, "scale": scale(n.planes[0], 0.5)},
			"scalars": map[string]any{"shape": []int{n.scalars}, "scale": scale(n.scalars, 0.01)},
		},
		"planes":  planes,
		"trunk":   []any{lin("trunk", features, n.hidden), map[string]any{"op": "relu"}},
		"policy":  []any{lin("policy", n.hidden, n.actions)},
		"value":   []any{lin("value", n.hidden, 1)},
		"trained": map[string]any{"steps": 0},
	}
	return arch, tensors
}

func fmtName(list string, i int) string { return fmt.Sprintf("%s.%d.", list, i) }

// encodePolicy writes arch and tensors as a policy file.
func encodePolicy(arch any, tensors map[string]testTensor) []byte {
	js, err := json.Marshal(arch)
	if err != nil {
		panic(err)
	}
	return encodeFile(map[string]string{MetadataKey: string(js)}, tensors)
}

// writePolicy writes n with random weights into a file in a temporary
// folder and returns its path.
func writePolicy(tb testing.TB, n netSpec, seed uint64) string {
	tb.Helper()
	arch, tensors := n.build(seed)
	path := filepath.Join(tb.TempDir(), n.game+".policy.safetensors")
	if err := os.WriteFile(path, encodePolicy(arch, tensors), 0o644); err != nil {
		tb.Fatal(err)
	}
	return path
}

// fixturePath is the committed battlebots policy PyTorch wrote.
var fixturePath = filepath.Join("testdata", "battlebots.policy.safetensors")
