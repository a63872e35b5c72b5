package policy

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"sync"

	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/internal/safefile"
)

// ErrNotPolicy is returned (wrapped) for a safetensors file without the
// botarena.policy metadata.
var ErrNotPolicy = errors.New("not a botarena policy")

// Model is a loaded policy: its architecture and its weights as float64.
//
// A Model is immutable after [Load] or [Decode] and safe for concurrent
// use; the scratch its forward pass needs lives in a [Batch], one per
// goroutine.
type Model struct {
	name string // the file, for errors
	arch *Architecture

	planesShape []int // [C,H,W] or [C,D,H,W]
	planesScale []float64
	scalarsLen  int
	scalarsScl  []float64
	spatial     [3]int // input D,H,W (D = 1 for [C,H,W])

	convs    []layer // planes stack, before flatten
	flatC    int     // channels at the flatten
	flatPos  int     // positions at the flatten
	features int     // flatC*flatPos + scalarsLen: the trunk's input
	head     []layer // trunk then policy
	value    []layer // loaded and checked, not computed
	actions  int
	outputs  int       // the policy layers' outputs: actions, or a factored head's commands and cells
	factored *factored // nil for a flat head

	params int // weights and biases in the file

	maxAct  int // most floats of one sample's channel-last activation
	maxFlat int // widest flat activation

	prefixes *sync.Map // prefixKey → bool: readsPrefix's answers
}

type kind uint8

const (
	kConv kind = iota
	kLinear
	kReLU
	kTanh
)

// layer is one computed layer.
type layer struct {
	kind     kind
	inC, out int    // channels or features
	in, dims [3]int // conv: input and output spatial size D,H,W
	k, s, p  [3]int // conv: kernel, stride, padding per spatial axis
	kvol     int    // conv: kernel positions, k[0]*k[1]*k[2]
	w        []float64
	b        []float64
}

// factored is a factored head's tables (see [Head]).
type factored struct {
	factors  env.ActionFactors // as the file gives them, for Check
	commands int
	command  []int32 // [actions]: each action's command
	cellOut  []int32 // [actions]: the index of each action's cell logit among the outputs
}

// newFactored checks a factored head of a policy of actions actions and
// returns its tables and the number of outputs it reads.
func newFactored(h *Head, actions int) (*factored, int, error) {
	f := env.ActionFactors{Commands: h.Commands, Cells: h.Cells, Command: h.Command, Cell: h.Cell}
	if err := f.Check(actions); err != nil {
		return nil, 0, fmt.Errorf("head: %w", err)
	}
	k, c := len(h.Commands), h.Cells
	perCommand := false
	switch h.CellLogits {
	case CellLogitsShared:
	case CellLogitsPerCommand:
		perCommand = true
		if c > maxWidth/k {
			return nil, 0, fmt.Errorf("head: %d commands × %d cells are over %d outputs", k, c, maxWidth)
		}
	default:
		return nil, 0, fmt.Errorf("head: cell_logits %q, want %q or %q", h.CellLogits, CellLogitsShared, CellLogitsPerCommand)
	}
	fh := &factored{factors: f, commands: k, command: h.Command, cellOut: make([]int32, actions)}
	outputs := k + c
	if perCommand {
		outputs = k + k*c
	}
	for a := range actions {
		o := k + int(h.Cell[a])
		if perCommand {
			o += int(h.Command[a]) * c
		}
		fh.cellOut[a] = int32(o)
	}
	return fh, outputs, nil
}

// Name returns the file name the model was loaded from (or the name given
// to [Decode]).
func (m *Model) Name() string { return m.name }

// Architecture returns a copy of the model's architecture.
func (m *Model) Architecture() Architecture {
	a := *m.arch
	a.Inputs = map[string]Input{}
	for k, v := range m.arch.Inputs {
		a.Inputs[k] = Input{Shape: slices.Clone(v.Shape), Scale: slices.Clone(v.Scale)}
	}
	a.Planes = slices.Clone(m.arch.Planes)
	a.Trunk = slices.Clone(m.arch.Trunk)
	a.Policy = slices.Clone(m.arch.Policy)
	a.Value = slices.Clone(m.arch.Value)
	a.Config = slices.Clone(m.arch.Config)
	a.Trained = slices.Clone(m.arch.Trained)
	if h := m.arch.Head; h != nil {
		a.Head = &Head{Type: h.Type, CellLogits: h.CellLogits, Commands: slices.Clone(h.Commands), Cells: h.Cells, Command: slices.Clone(h.Command), Cell: slices.Clone(h.Cell)}
	}
	return a
}

// Outputs returns the number of outputs of the policy layers: [Model.Actions]
// for a flat head, the commands and cells of a factored one.
func (m *Model) Outputs() int { return m.outputs }

// Factored reports whether the policy has a factored head.
func (m *Model) Factored() bool { return m.factored != nil }

// Actions returns the number of actions (logits) of the policy.
func (m *Model) Actions() int { return m.actions }

// Parameters returns the number of weights and biases of the network, the
// value head included.
func (m *Model) Parameters() int { return m.params }

// Features returns the width of the trunk's input: the flattened planes
// features followed by the scalars.
func (m *Model) Features() int { return m.features }

// PlanesLen returns the number of uint8 elements of one planes observation.
func (m *Model) PlanesLen() int { return prod(m.planesShape) }

// ScalarsLen returns the number of float32 elements of one scalars
// observation.
func (m *Model) ScalarsLen() int { return m.scalarsLen }

// Load reads the policy file at path without the cache (see [Open]).
// Errors name the file and what is wrong with it.
func Load(path string) (*Model, error) {
	f, fi, err := openFile(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readFile(path, f, fi)
}

// MaxFileBytes is the largest policy file [Load] and [Open] read (256
// MiB: 64 million float32 weights, far more than the networks botarena
// trains, which are a few MB). The size is checked with Stat before the
// file is read, so a huge or sparse file costs nothing.
const MaxFileBytes = 256 << 20

// openFile opens the policy file at path without blocking (a FIFO would
// block a plain open) and checks that it is a regular file of at most
// MaxFileBytes; the FileInfo is the open file's.
func openFile(path string) (*os.File, os.FileInfo, error) {
	f, fi, err := safefile.Open(path, path, MaxFileBytes)
	if err != nil {
		return nil, nil, fmt.Errorf("policy %w", err)
	}
	return f, fi, nil
}

// checkStat checks that fi is a regular file of at most MaxFileBytes.
func checkStat(path string, fi os.FileInfo) error {
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("policy %s: not a regular file", path)
	}
	if fi.Size() > MaxFileBytes {
		return fmt.Errorf("policy %s: %d bytes, over the %d-byte limit of policy files", path, fi.Size(), MaxFileBytes)
	}
	return nil
}

// readFile reads the opened policy file f, whose Stat is fi.
func readFile(path string, f *os.File, fi os.FileInfo) (*Model, error) {
	if err := checkStat(path, fi); err != nil {
		return nil, err
	}
	return read(path, bufio.NewReaderSize(f, 1<<16), fi.Size())
}

// Decode reads a policy file from data; name is used in errors.
func Decode(name string, data []byte) (*Model, error) {
	return read(name, bytes.NewReader(data), int64(len(data)))
}

func read(name string, r io.Reader, size int64) (*Model, error) {
	st, err := readSafetensors(r, size)
	if err != nil {
		return nil, fmt.Errorf("policy %s: %w", name, err)
	}
	text := st.metadata[MetadataKey]
	arch, err := parseArchitecture(text)
	if err != nil {
		return nil, fmt.Errorf("policy %s: %w", name, err)
	}
	m, err := build(name, arch, st.tensors)
	if err != nil {
		return nil, fmt.Errorf("policy %s: %w", name, err)
	}
	return m, nil
}

// build checks the layer lists against the tensors and lays the weights
// out for the forward pass.
func build(name string, a *Architecture, tensors map[string]tensor) (*Model, error) {
	pin, sin := a.Inputs["planes"], a.Inputs["scalars"]
	m := &Model{
		name:        name,
		arch:        a,
		planesShape: pin.Shape,
		planesScale: pin.Scale,
		scalarsLen:  sin.Shape[0],
		scalarsScl:  sin.Scale,
		actions:     a.Actions,
		prefixes:    new(sync.Map),
	}
	used := map[string]bool{}
	take := func(list string, i int, l Layer, shape ...int) ([]float64, []float64, error) {
		want := fmt.Sprintf("%s.%d.", list, i)
		if l.Weight != want+"weight" || l.Bias != want+"bias" {
			return nil, nil, fmt.Errorf("%s[%d] (%s): tensors must be named %q and %q (nn.Sequential names), got %q and %q", list, i, l.Op, want+"weight", want+"bias", l.Weight, l.Bias)
		}
		get := func(tn string, shape []int) ([]float64, error) {
			t, ok := tensors[tn]
			if !ok {
				return nil, fmt.Errorf("%s[%d] (%s): tensor %q is missing", list, i, l.Op, tn)
			}
			if !slices.Equal(t.shape, shape) {
				return nil, fmt.Errorf("%s[%d] (%s): tensor %q has shape %v, want %v", list, i, l.Op, tn, t.shape, shape)
			}
			used[tn] = true
			m.params += len(t.data)
			return t.data, nil
		}
		w, err := get(l.Weight, shape)
		if err != nil {
			return nil, nil, err
		}
		b, err := get(l.Bias, shape[:1])
		return w, b, err
	}

	// The planes stack works on channel-last activations: [positions, C].
	dims := len(pin.Shape) - 1
	m.spatial = [3]int{1, 1, 1}
	copy(m.spatial[3-dims:], pin.Shape[1:])
	c, sp := pin.Shape[0], m.spatial
	m.maxAct = c * prod(sp[:])
	for i, l := range a.Planes {
		switch l.Op {
		case OpConv2d, OpConv3d:
			d := 2
			if l.Op == OpConv3d {
				d = 3
			}
			if d != dims {
				return nil, fmt.Errorf("planes[%d]: %s needs %d-D planes, but inputs.planes.shape is %v", i, l.Op, d, pin.Shape)
			}
			k, s, p := l.Geometry()
			if k < 1 || s < 1 || p < 0 || l.Out < 1 || k > maxWidth || p > maxWidth || l.Out > maxWidth {
				return nil, fmt.Errorf("planes[%d] (%s): out %d, kernel %d, stride %d, padding %d: want out, kernel and stride at least 1 and padding at least 0", i, l.Op, l.Out, k, s, p)
			}
			ly := layer{kind: kConv, inC: c, out: l.Out, in: sp}
			for ax := range 3 {
				if ax < 3-dims {
					ly.k[ax], ly.s[ax], ly.p[ax], ly.dims[ax] = 1, 1, 0, 1
					continue
				}
				ly.k[ax], ly.s[ax], ly.p[ax] = k, s, p
				o := sp[ax] + 2*p - k
				if o < 0 {
					return nil, fmt.Errorf("planes[%d] (%s): kernel %d with padding %d does not fit an input of size %d", i, l.Op, k, p, sp[ax])
				}
				ly.dims[ax] = o/s + 1
			}
			ly.kvol = ly.k[0] * ly.k[1] * ly.k[2]
			shape := []int{l.Out, c}
			for ax := 3 - dims; ax < 3; ax++ {
				shape = append(shape, k)
			}
			w, b, err := take("planes", i, l, shape...)
			if err != nil {
				return nil, err
			}
			// PyTorch's [out, in, kd, kh, kw] becomes [(kd, kh, kw, in), out]:
			// an im2col row of channel-last input times this gives out.
			ly.w = make([]float64, ly.kvol*c*l.Out)
			for o := range l.Out {
				for ci := range c {
					for kk := range ly.kvol {
						ly.w[(kk*c+ci)*l.Out+o] = w[(o*c+ci)*ly.kvol+kk]
					}
				}
			}
			ly.b = slices.Clone(b)
			m.convs = append(m.convs, ly)
			c, sp = l.Out, ly.dims
			// Axis by axis (each at least 1): a padded 3-D output can have
			// more than 2^63 cells, and the product would wrap.
			if sp[0] > maxWidth/c || sp[1] > maxWidth/c/sp[0] || sp[2] > maxWidth/c/sp[0]/sp[1] {
				return nil, fmt.Errorf("planes[%d] (%s): output [%d,%v] has more than %d elements", i, l.Op, c, sp, maxWidth)
			}
			m.maxAct = max(m.maxAct, c*prod(sp[:]))
		case OpReLU, OpTanh:
			if l.Weight != "" || l.Bias != "" {
				return nil, fmt.Errorf("planes[%d] (%s): takes no tensors", i, l.Op)
			}
			m.convs = append(m.convs, layer{kind: actKind(l.Op), inC: c, out: c, dims: sp})
		case OpFlatten:
			if i != len(a.Planes)-1 {
				return nil, fmt.Errorf("planes[%d]: flatten must be the last layer of planes, and appear once", i)
			}
		case OpLinear:
			return nil, fmt.Errorf("planes[%d]: linear belongs in trunk, policy or value (planes takes conv2d, conv3d, relu, tanh and a final flatten)", i)
		default:
			return nil, fmt.Errorf("planes[%d]: unknown op %q (planes takes conv2d, conv3d, relu, tanh and a final flatten)", i, l.Op)
		}
	}
	m.flatC, m.flatPos = c, prod(sp[:])
	m.features = m.flatC*m.flatPos + m.scalarsLen
	m.maxFlat = m.features

	flat := func(list string, layers []Layer, in int) ([]layer, int, error) {
		var out []layer
		for i, l := range layers {
			switch l.Op {
			case OpLinear:
				if l.Out < 1 || l.Out > maxWidth {
					return nil, 0, fmt.Errorf("%s[%d] (linear): out %d, want 1 to %d", list, i, l.Out, maxWidth)
				}
				w, b, err := take(list, i, l, l.Out, in)
				if err != nil {
					return nil, 0, err
				}
				// [out, in] becomes [in, out], so that a batch [n, in] times
				// it is a plain (not transposed) product.
				ly := layer{kind: kLinear, inC: in, out: l.Out, w: make([]float64, in*l.Out), b: slices.Clone(b)}
				for o := range l.Out {
					for j := range in {
						ly.w[j*l.Out+o] = w[o*in+j]
					}
				}
				out = append(out, ly)
				in = l.Out
				m.maxFlat = max(m.maxFlat, in)
			case OpReLU, OpTanh:
				if l.Weight != "" || l.Bias != "" {
					return nil, 0, fmt.Errorf("%s[%d] (%s): takes no tensors", list, i, l.Op)
				}
				out = append(out, layer{kind: actKind(l.Op), inC: in, out: in})
			case OpFlatten:
				// A flat input stays as it is, as nn.Flatten leaves it.
			case OpConv2d, OpConv3d:
				return nil, 0, fmt.Errorf("%s[%d]: %s needs planes; %s takes linear, relu and tanh", list, i, l.Op, list)
			default:
				return nil, 0, fmt.Errorf("%s[%d]: unknown op %q (%s takes linear, relu and tanh)", list, i, l.Op, list)
			}
		}
		return out, in, nil
	}
	trunk, width, err := flat("trunk", a.Trunk, m.features)
	if err != nil {
		return nil, err
	}
	policy, pw, err := flat("policy", a.Policy, width)
	if err != nil {
		return nil, err
	}
	m.outputs = a.Actions
	if a.Head != nil && a.Head.Type == HeadFactored {
		if m.factored, m.outputs, err = newFactored(a.Head, a.Actions); err != nil {
			return nil, err
		}
		if pw != m.outputs {
			return nil, fmt.Errorf("policy: gives %d outputs, want %d (the factored head's %d commands and their cells)", pw, m.outputs, m.factored.commands)
		}
	} else if pw != a.Actions {
		return nil, fmt.Errorf("policy: gives %d outputs, want %d (actions)", pw, a.Actions)
	}
	value, vw, err := flat("value", a.Value, width)
	if err != nil {
		return nil, err
	}
	if vw != 1 {
		return nil, fmt.Errorf("value: gives %d outputs, want 1", vw)
	}
	m.head = append(trunk, policy...)
	m.value = value
	var unused []string
	for tn := range tensors {
		if !used[tn] {
			unused = append(unused, fmt.Sprintf("%q", tn))
		}
	}
	if len(unused) > 0 {
		slices.Sort(unused)
		return nil, fmt.Errorf("tensors %s are not used by the architecture", strings.Join(unused, ", "))
	}
	return m, nil
}

func actKind(op string) kind {
	if op == OpReLU {
		return kReLU
	}
	return kTanh
}

func prod(s []int) int {
	n := 1
	for _, d := range s {
		n *= d
	}
	return n
}

// Check reports whether the model can play the game spec describes: the
// spec's observation tensors must be exactly "planes" (uint8) and
// "scalars" (float32) with the shapes of the model's inputs, and its
// action count (and factors) the model's. It also accepts a spec whose
// planes have more leading channels or whose scalars are longer when the
// extra comes from config fields the game declares append-only
// ([env.AppendField]): when spec is, in its tensors' shapes, the spec of
// the config the model records (Architecture.Config on
// Architecture.Game) with append-only fields raised so that the recorded
// config's observations are prefixes of its ([env.ObsPrefix]). The model
// then reads the first elements of each tensor, which are what it was
// trained on. The error names both the policy and the game.
func (m *Model) Check(spec *env.Spec) error {
	problems := m.misfits(spec, false)
	if len(problems) == 0 {
		return nil
	}
	if len(m.misfits(spec, true)) == 0 {
		if m.readsPrefix(spec) {
			return nil
		}
		problems = append(problems, "the extra elements do not come from raising append-only config fields of the policy's config (env.AppendField)")
	}
	trained := m.arch.Game
	if c := strings.TrimSpace(string(m.arch.Config)); c != "" && c != "null" && c != "{}" {
		// A config field may shape the observations (bomberman's
		// view_radius): the file's config says which to play it with.
		trained += " with config " + c
	}
	return fmt.Errorf("policy %s (trained on %s: planes %v, scalars [%d], %d actions) does not fit %s: %s",
		m.name, trained, shapeString(m.planesShape), m.scalarsLen, m.actions, spec.Game, strings.Join(problems, "; "))
}

// misfits lists what of spec does not fit the model; with longer, a
// planes tensor with more leading channels and longer scalars fit.
func (m *Model) misfits(spec *env.Spec, longer bool) []string {
	var problems []string
	planes, okP := spec.Tensor("planes")
	scalars, okS := spec.Tensor("scalars")
	switch {
	case len(spec.Obs) != 2 || !okP || !okS:
		var names []string
		for _, t := range spec.Obs {
			names = append(names, t.Name)
		}
		problems = append(problems, fmt.Sprintf("observations are %v, want planes and scalars", names))
	default:
		fits := slices.Equal(planes.Shape, m.planesShape)
		if longer {
			fits = len(planes.Shape) == len(m.planesShape) && slices.Equal(planes.Shape[1:], m.planesShape[1:]) && planes.Shape[0] >= m.planesShape[0]
		}
		if planes.DType != env.Uint8 || !fits {
			problems = append(problems, fmt.Sprintf("planes %s%s, policy wants uint8%v", planes.DType, planes.ShapeString(), shapeString(m.planesShape)))
		}
		fits = scalars.Len() == m.scalarsLen
		if longer {
			fits = scalars.Len() >= m.scalarsLen
		}
		if scalars.DType != env.Float32 || !fits || len(scalars.Shape) != 1 {
			problems = append(problems, fmt.Sprintf("scalars %s%s, policy wants float32[%d]", scalars.DType, scalars.ShapeString(), m.scalarsLen))
		}
	}
	if spec.Actions != m.actions {
		problems = append(problems, fmt.Sprintf("%d actions, policy has %d", spec.Actions, m.actions))
	} else if f := m.factored; f != nil && spec.Factors != nil && !sameFactors(&f.factors, spec.Factors) {
		problems = append(problems, "the game factors its actions into commands and cells differently from the policy's head")
	}
	return problems
}

func sameFactors(a, b *env.ActionFactors) bool {
	return a.Cells == b.Cells && slices.Equal(a.Commands, b.Commands) && slices.Equal(a.Command, b.Command) && slices.Equal(a.Cell, b.Cell)
}

func shapeString(s []int) string {
	return strings.ReplaceAll(fmt.Sprint(s), " ", ",")
}
