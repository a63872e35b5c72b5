package observations

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/botarena/botarena/env"
)

// The names of the columns that follow the observation tensors, in schema
// order. An observation tensor may not use one of these names.
const (
	MaskColumn       = "mask"
	RewardColumn     = "reward"
	TerminatedColumn = "terminated"
	TruncatedColumn  = "truncated"
	EnvColumn        = "env"
	SeatColumn       = "seat"
	EpisodeColumn    = "episode"
)

// Metadata keys of the schema (game-wide) and of the tensor and mask fields.
const (
	// Schema metadata.
	GameKey        = "game"         // Spec.Game, "bomberman"
	SeatsKey       = "seats"        // Spec.Seats in decimal, "4"
	ActionsKey     = "actions"      // Spec.Actions in decimal, "7"
	ActionNamesKey = "action_names" // Spec.ActionNames as a JSON array of strings
	MaxStepsKey    = "max_steps"    // Spec.MaxSteps in decimal
	RewardKey      = "reward"       // Spec.Reward, in words

	// Field metadata of each tensor column and of the mask column.
	ShapeKey  = "shape"  // the per-row shape as a JSON array, "[12,21,21]"
	DTypeKey  = "dtype"  // the numpy element type, "uint8", "float32" or "int32"
	LayoutKey = "layout" // Tensor.Layout: the axes and the index formula
)

// fixedColumns are the columns after the tensors, in schema order.
var fixedColumns = [...]string{MaskColumn, RewardColumn, TerminatedColumn, TruncatedColumn, EnvColumn, SeatColumn, EpisodeColumn}

// elemType returns the Arrow type of one tensor element.
func elemType(d env.DType) (arrow.DataType, error) {
	switch d {
	case env.Uint8:
		return arrow.PrimitiveTypes.Uint8, nil
	case env.Float32:
		return arrow.PrimitiveTypes.Float32, nil
	case env.Int32:
		return arrow.PrimitiveTypes.Int32, nil
	}
	return nil, fmt.Errorf("observations: unknown dtype %v", d)
}

// checkSpec returns an error unless spec can be turned into a schema.
func checkSpec(spec *env.Spec) error {
	if spec == nil {
		return fmt.Errorf("observations: nil Spec")
	}
	if spec.Actions < 1 || int64(spec.Actions) > 1<<31-1 {
		return fmt.Errorf("observations: %s: Actions must be positive, got %d", spec.Game, spec.Actions)
	}
	if len(spec.ActionNames) != 0 && len(spec.ActionNames) != spec.Actions {
		return fmt.Errorf("observations: %s: %d ActionNames for %d actions", spec.Game, len(spec.ActionNames), spec.Actions)
	}
	seen := make(map[string]bool, len(spec.Obs)+len(fixedColumns))
	for _, c := range fixedColumns {
		seen[c] = true
	}
	for _, t := range spec.Obs {
		if t.Name == "" {
			return fmt.Errorf("observations: %s: a tensor has no name", spec.Game)
		}
		if seen[t.Name] {
			return fmt.Errorf("observations: %s: tensor name %q is used twice or by a fixed column", spec.Game, t.Name)
		}
		seen[t.Name] = true
		if _, err := elemType(t.DType); err != nil {
			return fmt.Errorf("observations: %s: tensor %q: %w", spec.Game, t.Name, err)
		}
		n := 1
		for _, d := range t.Shape {
			if d < 1 || n > (1<<31-1)/d {
				return fmt.Errorf("observations: %s: tensor %q: bad shape %s", spec.Game, t.Name, t.ShapeString())
			}
			n *= d
		}
		if err := checkShared(spec.Game, t); err != nil {
			return err
		}
	}
	return nil
}

// Schema returns the Arrow schema of a step batch of spec's game: one row per
// agent, one FixedSizeList column per observation tensor, then the mask,
// reward, terminated, truncated, env, seat and episode columns. See the
// package documentation for the full layout and the metadata.
//
// Schema returns a new schema on each call; it returns an error when spec
// has no actions, a tensor without a name, a tensor name used twice or
// taken by a fixed column, an unknown dtype or bad shared channels.
func Schema(spec *env.Spec) (*arrow.Schema, error) {
	if err := checkSpec(spec); err != nil {
		return nil, err
	}
	return schema(spec, "")
}

// schema builds the schema of part of spec's batches: "" the full form,
// PartRows or PartEnvs the shared form's. spec has been checked.
func schema(spec *env.Spec, part string) (*arrow.Schema, error) {
	fields := make([]arrow.Field, 0, len(spec.Obs)+len(fixedColumns))
	for _, t := range spec.Obs {
		n := t.Len()
		switch {
		case part == PartRows:
			n -= t.SharedLen()
		case part == PartEnvs && len(t.Shared) == 0:
			continue
		case part == PartEnvs:
			n = t.SharedLen()
		}
		keys := []string{ShapeKey, DTypeKey, LayoutKey}
		values := []string{t.ShapeString(), t.DType.String(), t.Layout}
		if len(t.Shared) > 0 {
			keys, values = append(keys, SharedKey), append(values, sharedJSON(t.Shared))
		}
		et, _ := elemType(t.DType)
		fields = append(fields, arrow.Field{
			Name:     t.Name,
			Type:     arrow.FixedSizeListOfNonNullable(int32(n), et),
			Metadata: arrow.NewMetadata(keys, values),
		})
	}
	if part != PartEnvs {
		fields = append(fields,
			arrow.Field{
				Name: MaskColumn,
				Type: arrow.FixedSizeListOfNonNullable(int32(spec.Actions), arrow.PrimitiveTypes.Uint8),
				Metadata: arrow.NewMetadata(
					[]string{ShapeKey, DTypeKey, LayoutKey},
					[]string{"[" + strconv.Itoa(spec.Actions) + "]", env.Uint8.String(), "[A]: index = action; 1 legal, 0 not"},
				),
			},
			arrow.Field{Name: RewardColumn, Type: arrow.PrimitiveTypes.Float32},
			arrow.Field{Name: TerminatedColumn, Type: arrow.FixedWidthTypes.Boolean},
			arrow.Field{Name: TruncatedColumn, Type: arrow.FixedWidthTypes.Boolean},
			arrow.Field{Name: EnvColumn, Type: arrow.PrimitiveTypes.Int32},
			arrow.Field{Name: SeatColumn, Type: arrow.PrimitiveTypes.Int32},
			arrow.Field{Name: EpisodeColumn, Type: arrow.PrimitiveTypes.Int32},
		)
	}
	names := spec.ActionNames
	if names == nil {
		names = []string{}
	}
	actionNames, err := json.Marshal(names)
	if err != nil {
		return nil, fmt.Errorf("observations: %s: action names: %w", spec.Game, err)
	}
	keys := []string{GameKey, SeatsKey, ActionsKey, ActionNamesKey, MaxStepsKey, RewardKey}
	values := []string{spec.Game, strconv.Itoa(spec.Seats), strconv.Itoa(spec.Actions), string(actionNames), strconv.Itoa(spec.MaxSteps), spec.Reward}
	if part != "" {
		keys, values = append(keys, PartKey), append(values, part)
	}
	md := arrow.NewMetadata(keys, values)
	return arrow.NewSchema(fields, &md), nil
}

// SchemaMessage returns the Arrow IPC encapsulated message (continuation
// marker, length, flatbuffer Schema, padding; no body) of [Schema](spec): what
// a server sends once, when a pool is created, before any batch message.
// pyarrow reads it with pa.ipc.read_schema(pa.py_buffer(msg)). The returned
// slice is new and owned by the caller.
func SchemaMessage(spec *env.Spec) ([]byte, error) {
	schema, err := Schema(spec)
	if err != nil {
		return nil, err
	}
	return schemaMessage(schema), nil
}

// schemaMessage encodes the schema message of schema.
func schemaMessage(schema *arrow.Schema) []byte {
	p := ipc.GetSchemaPayload(schema, memory.DefaultAllocator)
	defer p.Release()
	var buf bytes.Buffer
	// Writing to a bytes.Buffer cannot fail.
	if _, err := p.WritePayload(&buf); err != nil {
		panic("observations: encoding a schema message: " + err.Error())
	}
	return buf.Bytes()
}

// SpecFromSchema rebuilds the game's spec from a schema made by [Schema], or
// from the rows schema of the shared form ([SharedSchemas]): the game name,
// seats, actions and action names, max steps, reward text and each tensor's
// name, dtype, shape, layout and shared channels. It returns an error when
// the schema does not have the layout Schema (or SharedSchemas) produces.
func SpecFromSchema(s *arrow.Schema) (*env.Spec, error) {
	md := s.Metadata()
	get := func(key string) (string, error) {
		i := md.FindKey(key)
		if i < 0 {
			return "", fmt.Errorf("observations: schema metadata has no %q", key)
		}
		return md.Values()[i], nil
	}
	getInt := func(key string) (int, error) {
		s, err := get(key)
		if err != nil {
			return 0, err
		}
		n, err := strconv.Atoi(s)
		if err != nil {
			return 0, fmt.Errorf("observations: schema metadata %q: %w", key, err)
		}
		return n, nil
	}
	spec := &env.Spec{}
	var err error
	if spec.Game, err = get(GameKey); err != nil {
		return nil, err
	}
	if spec.Seats, err = getInt(SeatsKey); err != nil {
		return nil, err
	}
	if spec.Actions, err = getInt(ActionsKey); err != nil {
		return nil, err
	}
	if spec.MaxSteps, err = getInt(MaxStepsKey); err != nil {
		return nil, err
	}
	if spec.Reward, err = get(RewardKey); err != nil {
		return nil, err
	}
	names, err := get(ActionNamesKey)
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal([]byte(names), &spec.ActionNames); err != nil {
		return nil, fmt.Errorf("observations: schema metadata %q: %w", ActionNamesKey, err)
	}
	if len(spec.ActionNames) == 0 {
		spec.ActionNames = nil
	}
	part := ""
	if i := md.FindKey(PartKey); i >= 0 {
		part = md.Values()[i]
	}
	if part != "" && part != PartRows {
		return nil, fmt.Errorf("observations: schema metadata %q is %q: want the full form's schema or the shared form's rows schema", PartKey, part)
	}
	nt := s.NumFields() - len(fixedColumns)
	if nt < 0 {
		return nil, fmt.Errorf("observations: schema has %d fields, want at least %d", s.NumFields(), len(fixedColumns))
	}
	for i := range nt {
		f := s.Field(i)
		fmd := f.Metadata
		t := env.Tensor{Name: f.Name}
		shape, dtype, layout := fmd.FindKey(ShapeKey), fmd.FindKey(DTypeKey), fmd.FindKey(LayoutKey)
		if shape < 0 || dtype < 0 || layout < 0 {
			return nil, fmt.Errorf("observations: field %q lacks shape, dtype or layout metadata", f.Name)
		}
		if err := json.Unmarshal([]byte(fmd.Values()[shape]), &t.Shape); err != nil {
			return nil, fmt.Errorf("observations: field %q: shape: %w", f.Name, err)
		}
		if k := fmd.FindKey(SharedKey); k >= 0 {
			if err := json.Unmarshal([]byte(fmd.Values()[k]), &t.Shared); err != nil {
				return nil, fmt.Errorf("observations: field %q: shared: %w", f.Name, err)
			}
		}
		switch d := fmd.Values()[dtype]; d {
		case "uint8":
			t.DType = env.Uint8
		case "float32":
			t.DType = env.Float32
		case "int32":
			t.DType = env.Int32
		default:
			return nil, fmt.Errorf("observations: field %q: unknown dtype %q", f.Name, d)
		}
		t.Layout = fmd.Values()[layout]
		spec.Obs = append(spec.Obs, t)
	}
	if err := checkSpec(spec); err != nil {
		return nil, err
	}
	want, err := schema(spec, part)
	if err != nil {
		return nil, err
	}
	if part == PartRows && !HasShared(spec) {
		return nil, fmt.Errorf("observations: a rows schema of the shared form without shared channels")
	}
	if !want.Equal(s) {
		return nil, fmt.Errorf("observations: schema does not have the step batch layout of %s: got %v, want %v", spec.Game, s, want)
	}
	return spec, nil
}
