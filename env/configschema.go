package env

import (
	"encoding"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// ConfigField describes one field of a game's JSON config: what
// `botarena games GAME` prints and ListGames sends. [ConfigSchema] derives
// it from the config struct and its tags.
type ConfigField struct {
	// Name is the JSON name, as a config object spells it.
	Name string
	// Type is the JSON type: "integer", "number", "boolean", "string",
	// "array" or "object". It is empty only for a field whose Go type does
	// not tell (an interface, or a type with its own MarshalJSON) and whose
	// default is null.
	Type string
	// Default is the field's value in the config the schema was taken from
	// (the game's default config, for [Registry.ConfigFields]), as
	// encoding/json writes it: compact, null for a nil slice.
	Default json.RawMessage
	// Allowed states the values the game accepts, from the field's allowed
	// tag, for example "2..12" or "auto, random, distance"; empty when any
	// value of the type is.
	Allowed string
	// Doc is the one-line meaning of the field, from its doc tag.
	Doc string
	// Appends is the observation tensor the field only appends to, from an
	// obs:"append TENSOR" tag ([AppendField]: raising it adds elements at the
	// end of that tensor's leading axis and changes nothing else); empty for
	// every other field.
	Appends string
}

// schemaField is the part of a [ConfigField] that depends only on the
// config's type, cached per type.
type schemaField struct {
	index   []int  // reflect.Value.FieldByIndex path
	name    string // JSON name
	typ     string // JSON type; "" when only the value tells
	allowed string
	doc     string
	appends string // the tensor an `obs:"append TENSOR"` tag names; "" for none
	kind    reflect.Kind
}

var schemaCache sync.Map // reflect.Type → []schemaField

// ConfigSchema returns the fields of cfg, a config struct or a pointer to
// one, in the struct's field order, with cfg's values as the defaults.
//
// The fields are those encoding/json reads and writes: exported fields not
// tagged `json:"-"`, named by their json tag, with the fields of embedded
// structs promoted as encoding/json promotes them. Each field's doc tag
// gives [ConfigField.Doc] and its allowed tag [ConfigField.Allowed], for
// example
//
//	Players int `json:"players" doc:"number of players (seats)" allowed:"2..12"`
//
// An obs tag declares an append-only field ([AppendFields]).
//
// The fields are derived once per type by reflection and cached; ConfigSchema
// is safe for concurrent use. It returns no fields for a config that is not
// a struct, and an error when encoding/json cannot marshal cfg.
func ConfigSchema(cfg Config) ([]ConfigField, error) {
	t := structType(cfg)
	if t == nil {
		return nil, nil
	}
	data, err := json.Marshal(cfg)
	if err != nil {
		return nil, fmt.Errorf("env: config schema of %s: %w", t, err)
	}
	var values map[string]json.RawMessage
	if err := json.Unmarshal(data, &values); err != nil {
		values = nil // a config with its own MarshalJSON; the zero values below stand in
	}
	sfs := schemaOf(t)
	fields := make([]ConfigField, len(sfs))
	for i, sf := range sfs {
		def, ok := values[sf.name]
		if !ok {
			// Left out by omitempty (or a nil embedded pointer): the
			// field's zero value.
			ft := t.FieldByIndex(sf.index).Type
			if def, err = json.Marshal(reflect.Zero(ft).Interface()); err != nil {
				def = json.RawMessage("null")
			}
		}
		typ := sf.typ
		if typ == "" {
			typ = jsonTypeOfValue(def)
		}
		fields[i] = ConfigField{Name: sf.name, Type: typ, Default: def, Allowed: sf.allowed, Doc: sf.doc, Appends: sf.appends}
	}
	return fields, nil
}

// ConfigFields returns the fields of name's default config (see
// [ConfigSchema]). The error wraps [ErrUnknownGame] for a name that is not
// registered.
func (r *Registry) ConfigFields(name string) ([]ConfigField, error) {
	e, err := r.Lookup(name)
	if err != nil {
		return nil, err
	}
	return ConfigSchema(e.NewConfig())
}

// configFieldNames returns the JSON names of cfg's fields, in order.
func configFieldNames(cfg Config) []string {
	t := structType(cfg)
	if t == nil {
		return nil
	}
	sfs := schemaOf(t)
	names := make([]string, len(sfs))
	for i, sf := range sfs {
		names[i] = sf.name
	}
	return names
}

// unknownFieldHint returns " (valid: a, b, ...)" when msg, a decoding
// error of config into cfg without its "json: " prefix, reports an unknown
// field of config's top-level object; "" otherwise (an unknown field of a
// nested object has other valid names).
func unknownFieldHint(cfg Config, config []byte, msg string) string {
	quoted, ok := strings.CutPrefix(msg, "unknown field ")
	if !ok {
		return ""
	}
	key, err := strconv.Unquote(quoted)
	if err != nil {
		return ""
	}
	var top map[string]json.RawMessage
	if json.Unmarshal(config, &top) != nil {
		return ""
	}
	if _, ok := top[key]; !ok {
		return ""
	}
	names := configFieldNames(cfg)
	if len(names) == 0 {
		return ""
	}
	for _, n := range names {
		if strings.EqualFold(n, key) { // encoding/json matches names without case
			return ""
		}
	}
	return " (valid: " + strings.Join(names, ", ") + ")"
}

// structType returns the struct type of cfg (through pointers), nil when
// cfg is not a struct.
func structType(cfg Config) reflect.Type {
	t := reflect.TypeOf(cfg)
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == nil || t.Kind() != reflect.Struct {
		return nil
	}
	return t
}

// schemaOf returns the cached fields of the struct type t.
func schemaOf(t reflect.Type) []schemaField {
	if f, ok := schemaCache.Load(t); ok {
		return f.([]schemaField)
	}
	f, _ := schemaCache.LoadOrStore(t, typeFields(t))
	return f.([]schemaField)
}

// typeFields returns the JSON fields of the struct type t as encoding/json
// finds them: breadth first through embedded structs, a name at a shallower
// depth (or, at the same depth, the only tagged one) hiding the others, a
// name that stays ambiguous dropped; ordered by index sequence.
func typeFields(t reflect.Type) []schemaField {
	type candidate struct {
		schemaField
		tagged bool
	}
	type queued struct {
		typ   reflect.Type
		index []int
	}
	var found []candidate
	visited := map[reflect.Type]bool{}
	for next := []queued{{typ: t}}; len(next) > 0; {
		current := next
		next = nil
		for _, q := range current {
			if visited[q.typ] {
				continue
			}
			for i := range q.typ.NumField() {
				sf := q.typ.Field(i)
				ft := sf.Type
				if ft.Name() == "" && ft.Kind() == reflect.Pointer {
					ft = ft.Elem()
				}
				if sf.Anonymous {
					if !sf.IsExported() && ft.Kind() != reflect.Struct {
						continue
					}
				} else if !sf.IsExported() {
					continue
				}
				tag := sf.Tag.Get("json")
				if tag == "-" {
					continue
				}
				name, opts, _ := strings.Cut(tag, ",")
				index := append(slices.Clone(q.index), i)
				if name == "" && sf.Anonymous && ft.Kind() == reflect.Struct {
					next = append(next, queued{ft, index})
					continue
				}
				tagged := name != ""
				if !tagged {
					name = sf.Name
				}
				quoted := slices.Contains(strings.Split(opts, ","), "string")
				found = append(found, candidate{schemaField{
					index:   index,
					name:    name,
					typ:     jsonTypeOf(sf.Type, quoted),
					allowed: sf.Tag.Get("allowed"),
					doc:     sf.Tag.Get("doc"),
					appends: appendTensor(sf.Tag.Get("obs")),
					kind:    sf.Type.Kind(),
				}, tagged})
			}
		}
		// A type embedded twice at one depth is walked twice, so that its
		// fields conflict and drop out, as in encoding/json; at a deeper
		// depth it is hidden by the shallower copy.
		for _, q := range current {
			visited[q.typ] = true
		}
	}
	slices.SortStableFunc(found, func(a, b candidate) int {
		if c := strings.Compare(a.name, b.name); c != 0 {
			return c
		}
		if c := len(a.index) - len(b.index); c != 0 {
			return c
		}
		if a.tagged != b.tagged {
			if a.tagged {
				return -1
			}
			return 1
		}
		return slices.Compare(a.index, b.index)
	})
	var fields []schemaField
	for i := 0; i < len(found); {
		j := i + 1
		for j < len(found) && found[j].name == found[i].name {
			j++
		}
		if j-i == 1 || len(found[i].index) != len(found[i+1].index) || found[i].tagged != found[i+1].tagged {
			fields = append(fields, found[i].schemaField)
		}
		i = j
	}
	slices.SortFunc(fields, func(a, b schemaField) int { return slices.Compare(a.index, b.index) })
	return fields
}

var (
	jsonMarshalerType = reflect.TypeFor[json.Marshaler]()
	textMarshalerType = reflect.TypeFor[encoding.TextMarshaler]()
)

// jsonTypeOf returns the JSON type encoding/json writes a value of t as
// ("string" for the scalars of a field tagged ",string"), or "" when t does
// not tell.
func jsonTypeOf(t reflect.Type, quoted bool) string {
	implements := func(u reflect.Type) bool { return t.Implements(u) || reflect.PointerTo(t).Implements(u) }
	switch {
	case implements(jsonMarshalerType):
		return ""
	case implements(textMarshalerType):
		return "string"
	}
	switch t.Kind() {
	case reflect.Pointer:
		return jsonTypeOf(t.Elem(), quoted)
	case reflect.Bool:
		if quoted {
			return "string"
		}
		return "boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		if quoted {
			return "string"
		}
		return "integer"
	case reflect.Float32, reflect.Float64:
		if quoted {
			return "string"
		}
		return "number"
	case reflect.String:
		return "string"
	case reflect.Slice:
		if e := t.Elem(); e.Kind() == reflect.Uint8 && !reflect.PointerTo(e).Implements(jsonMarshalerType) && !reflect.PointerTo(e).Implements(textMarshalerType) {
			return "string" // base64
		}
		return "array"
	case reflect.Array:
		return "array"
	case reflect.Map, reflect.Struct:
		return "object"
	}
	return ""
}

// jsonTypeOfValue returns the JSON type of the value data, "" for null.
func jsonTypeOfValue(data json.RawMessage) string {
	if len(data) == 0 {
		return ""
	}
	switch data[0] {
	case '{':
		return "object"
	case '[':
		return "array"
	case '"':
		return "string"
	case 't', 'f':
		return "boolean"
	case 'n':
		return ""
	}
	if strings.ContainsAny(string(data), ".eE") {
		return "number"
	}
	return "integer"
}
