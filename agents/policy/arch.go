package policy

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
)

// Format and Version identify the architecture JSON this package reads.
const (
	Format  = "botarena.policy"
	Version = 1
)

// Architecture is a policy's architecture JSON, as docs/policy-format.md
// specifies it: the game, the inputs with their scales, and the layer
// lists. Fields this package does not know are ignored.
type Architecture struct {
	Format  string           `json:"format"`
	Version int              `json:"version"`
	Game    string           `json:"game"`
	Config  json.RawMessage  `json:"config,omitempty"`
	Actions int              `json:"actions"`
	Inputs  map[string]Input `json:"inputs"`
	Planes  []Layer          `json:"planes"`
	Trunk   []Layer          `json:"trunk"`
	Policy  []Layer          `json:"policy"`
	Value   []Layer          `json:"value"`
	// Encoders, one layer list per observation tensor, is the layout of
	// a policy over any observation contract ([Contract]); this package
	// reads only the version-1 layout (Planes, over "planes" and
	// "scalars": [GoPlays]) and refuses a file with encoders.
	Encoders json.RawMessage `json:"encoders,omitempty"`
	// Head is the policy head; nil means a flat head.
	Head *Head `json:"head,omitempty"`
	// Trained is free-form provenance (steps, opponent, seconds, ...).
	Trained json.RawMessage `json:"trained,omitempty"`
}

// Head describes how the policy layers' outputs become action
// probabilities (docs/policy-format.md). Type "flat" (or no head): one
// logit per action. Type "factored": every action a is command Command[a]
// aimed at cell Cell[a]; the outputs are len(Commands) command logits, then
// the cell logits: Cells of them shared by every command (CellLogits
// "shared") or Cells per command, command after command ("per_command").
type Head struct {
	Type       string   `json:"type"`
	CellLogits string   `json:"cell_logits,omitempty"`
	Commands   []string `json:"commands,omitempty"`
	Cells      int      `json:"cells,omitempty"`
	Command    []int32  `json:"command,omitempty"`
	Cell       []int32  `json:"cell,omitempty"`
}

// The head types and cell-logit layouts of a [Head].
const (
	HeadFlat             = "flat"
	HeadFactored         = "factored"
	CellLogitsShared     = "shared"
	CellLogitsPerCommand = "per_command"
)

// Input is one observation tensor of the architecture: its per-row shape
// and one scale per channel (planes) or element (scalars).
type Input struct {
	Shape []int     `json:"shape"`
	Scale []float64 `json:"scale"`
}

// Layer is one entry of a layer list. Kernel, Stride and Padding are nil
// when absent, which means 3, 1 and 1 (what the Python reference assumes).
type Layer struct {
	Op      string `json:"op"`
	Weight  string `json:"weight,omitempty"`
	Bias    string `json:"bias,omitempty"`
	Out     int    `json:"out,omitempty"`
	Kernel  *int   `json:"kernel,omitempty"`
	Stride  *int   `json:"stride,omitempty"`
	Padding *int   `json:"padding,omitempty"`
}

// The ops a layer may have.
const (
	OpConv2d  = "conv2d"
	OpConv3d  = "conv3d"
	OpLinear  = "linear"
	OpReLU    = "relu"
	OpTanh    = "tanh"
	OpFlatten = "flatten"
)

// maxWidth bounds the elements of one sample's input and of any layer's
// output, so that a hostile file cannot make [Model.NewBatch] allocate
// without limit: 2^24 float64s are 128 MB per sample.
const maxWidth = 1 << 24

// maxArchBytes bounds the architecture JSON (a few KB in practice): decoding
// allocates up to about 150 times its size (a layer list of "{}"s), so a
// file's header must not choose that size freely.
const maxArchBytes = 1 << 20

// parseArchitecture decodes and checks the header fields of an
// architecture; the layers are checked when the model is built.
func parseArchitecture(text string) (*Architecture, error) {
	if len(text) > maxArchBytes {
		return nil, fmt.Errorf("architecture (__metadata__[%q]) is %d bytes, over the %d-byte limit", MetadataKey, len(text), maxArchBytes)
	}
	var a Architecture
	if err := json.Unmarshal([]byte(text), &a); err != nil {
		return nil, fmt.Errorf("architecture (__metadata__[%q]) is not valid JSON: %w", MetadataKey, err)
	}
	if a.Format != Format || a.Version != Version {
		return nil, fmt.Errorf("architecture: format %q version %d, want %q version %d", a.Format, a.Version, Format, Version)
	}
	if a.Actions < 1 {
		return nil, fmt.Errorf("architecture: actions %d, want at least 1", a.Actions)
	}
	if len(a.Encoders) > 0 && string(a.Encoders) != "null" {
		var names []string
		for name := range a.Inputs {
			names = append(names, fmt.Sprintf("%q", name))
		}
		sort.Strings(names)
		return nil, fmt.Errorf("architecture: encoders over inputs %s: Go's forward pass computes the version-1 layout only, a uint8 \"planes\" image and a float32 \"scalars\" vector (docs/policy-format.md); this policy plays in Python (botarena.policy)", strings.Join(names, ", "))
	}
	var extra []string
	for name := range a.Inputs {
		if name != "planes" && name != "scalars" {
			extra = append(extra, fmt.Sprintf("%q", name))
		}
	}
	if len(extra) > 0 {
		sort.Strings(extra)
		return nil, fmt.Errorf("architecture: inputs %s without encoders: the version-1 layout has only \"planes\" and \"scalars\" (docs/policy-format.md)", strings.Join(extra, ", "))
	}
	pin, ok := a.Inputs["planes"]
	if !ok {
		return nil, errors.New(`architecture: inputs: no "planes"`)
	}
	sin, ok := a.Inputs["scalars"]
	if !ok {
		return nil, errors.New(`architecture: inputs: no "scalars"`)
	}
	if n := len(pin.Shape); n != 3 && n != 4 {
		return nil, fmt.Errorf("architecture: inputs.planes.shape %v, want [C,H,W] or [C,D,H,W]", pin.Shape)
	}
	if len(sin.Shape) != 1 {
		return nil, fmt.Errorf("architecture: inputs.scalars.shape %v, want [S]", sin.Shape)
	}
	for name, in := range map[string]Input{"planes": pin, "scalars": sin} {
		n := 1
		for _, d := range in.Shape {
			if d < 1 || d > maxWidth {
				return nil, fmt.Errorf("architecture: inputs.%s.shape %v has a bad dimension %d", name, in.Shape, d)
			}
			if n *= d; n > maxWidth {
				return nil, fmt.Errorf("architecture: inputs.%s.shape %v has more than %d elements", name, in.Shape, maxWidth)
			}
		}
		if len(in.Scale) != in.Shape[0] {
			return nil, fmt.Errorf("architecture: inputs.%s.scale has %d factors, want %d (one per %s)", name, len(in.Scale), in.Shape[0], map[string]string{"planes": "channel", "scalars": "element"}[name])
		}
	}
	if a.Head != nil && a.Head.Type != HeadFlat && a.Head.Type != HeadFactored {
		return nil, fmt.Errorf("architecture: head type %q, want %q or %q", a.Head.Type, HeadFlat, HeadFactored)
	}
	if len(a.Planes) == 0 || a.Planes[len(a.Planes)-1].Op != OpFlatten {
		return nil, errors.New("architecture: planes: the layer list must end with flatten")
	}
	return &a, nil
}

// Geometry returns a conv layer's kernel, stride and padding, with the
// defaults (3, 1, 1) filled in for absent fields.
func (l Layer) Geometry() (kernel, stride, padding int) {
	kernel, stride, padding = 3, 1, 1
	if l.Kernel != nil {
		kernel = *l.Kernel
	}
	if l.Stride != nil {
		stride = *l.Stride
	}
	if l.Padding != nil {
		padding = *l.Padding
	}
	return
}
