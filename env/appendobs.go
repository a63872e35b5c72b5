package env

import (
	"fmt"
	"reflect"
	"strings"
)

// AppendField is a config field declared append-only: a field whose only
// effect is to add elements at the end of one observation tensor's leading
// axis. A game declares one with the struct tag obs:"append TENSOR" on its
// config field, beside the doc and allowed tags, for example
//
//	History int `json:"history" doc:"..." allowed:"0..8" obs:"append scalars"`
//
// The declaration states the rule, for every config and every state:
//
//   - the field is a bool or an integer, and its zero value (false, 0)
//     adds nothing;
//   - the tensor's leading axis (the scalars' elements, the planes'
//     channels) is what the config gives with every append-only field of
//     that tensor at zero, followed by one segment per such field, in the
//     config struct's order;
//   - a field's segment at a value is a prefix of its segment at any
//     larger value (true is larger than false), and nothing else of the
//     game (rules, rewards, masks, the other tensors, the earlier
//     elements of this one) depends on the field.
//
// So a policy trained with a config reads the first elements of the
// tensors of any config that differs from it only in append-only fields
// and whose tensors its own are prefixes of ([ObsPrefix]), byte for byte,
// at every step: the elements after its own are the ones it never saw.
// games.TestAppendOnlyFieldsOnlyAppend checks the rule for every game
// that declares a field.
type AppendField struct {
	// Name is the field's JSON name.
	Name string
	// Tensor is the observation tensor it appends to.
	Tensor string
	// Bool is true for a bool field, false for an integer.
	Bool bool

	index []int
}

// appendTensor returns the tensor an obs tag names ("append TENSOR"), ""
// for none.
func appendTensor(tag string) string {
	name, ok := strings.CutPrefix(tag, "append ")
	if !ok {
		return ""
	}
	return strings.TrimSpace(name)
}

// AppendFields returns the append-only fields of cfg, a config struct or a
// pointer to one (see [AppendField]), in the struct's order. It returns an
// error for a malformed obs tag or one on a field that is neither a bool
// nor an integer.
func AppendFields(cfg Config) ([]AppendField, error) {
	t := structType(cfg)
	if t == nil {
		return nil, nil
	}
	var out []AppendField
	for _, sf := range schemaOf(t) {
		tag := t.FieldByIndex(sf.index).Tag.Get("obs")
		if tag == "" {
			continue
		}
		if sf.appends == "" {
			return nil, fmt.Errorf("env: config %s field %s: obs tag %q, want \"append TENSOR\"", t, sf.name, tag)
		}
		f := AppendField{Name: sf.name, Tensor: sf.appends, index: sf.index}
		switch sf.kind {
		case reflect.Bool:
			f.Bool = true
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
			reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		default:
			return nil, fmt.Errorf("env: config %s field %s is declared append-only but is a %s, want a bool or an integer", t, sf.name, sf.kind)
		}
		out = append(out, f)
	}
	return out, nil
}

// Value returns the field's value in cfg, a config struct of the type the
// field was read from or a pointer to one: 0 or 1 for a bool.
func (f AppendField) Value(cfg Config) int64 {
	v := reflect.ValueOf(cfg)
	for v.Kind() == reflect.Pointer {
		v = v.Elem()
	}
	fv := v.FieldByIndex(f.index)
	switch fv.Kind() {
	case reflect.Bool:
		if fv.Bool() {
			return 1
		}
		return 0
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return int64(fv.Uint())
	}
	return fv.Int()
}

// With returns a copy of cfg, a config struct of the type the field was
// read from or a pointer to one, with the field set to v (a bool field to
// v != 0), as a pointer to a new struct. The copy shares cfg's slices and
// maps; it is not validated.
func (f AppendField) With(cfg Config, v int64) Config {
	src := reflect.ValueOf(cfg)
	for src.Kind() == reflect.Pointer {
		src = src.Elem()
	}
	dst := reflect.New(src.Type())
	dst.Elem().Set(src)
	fv := dst.Elem().FieldByIndex(f.index)
	switch fv.Kind() {
	case reflect.Bool:
		fv.SetBool(v != 0)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		fv.SetUint(uint64(v))
	default:
		fv.SetInt(v)
	}
	return dst.Interface().(Config)
}

// JSON returns value v of the field as its config JSON writes it: a bool
// for a bool field, else the integer.
func (f AppendField) JSON(v int64) any {
	if f.Bool {
		return v != 0
	}
	return v
}

// ObsPrefix reports whether the observations of config a are prefixes of
// those of config b by the append-only rule ([AppendField]), given the
// append-only fields of their type: a and b hold the same values in every
// field but fields, and, tensor by tensor, b holds a's value in every
// append-only field declared before a's last non-zero one, at least a's
// value in that one, and any value in the later ones. It is false when a
// and b are of different types.
func ObsPrefix(fields []AppendField, a, b Config) bool {
	va, vb := reflect.ValueOf(a), reflect.ValueOf(b)
	for va.Kind() == reflect.Pointer {
		va = va.Elem()
	}
	for vb.Kind() == reflect.Pointer {
		vb = vb.Elem()
	}
	if va.Type() != vb.Type() || va.Kind() != reflect.Struct {
		return false
	}
	// Every other field equal: compare copies with the append-only fields
	// zeroed.
	ca, cb := reflect.New(va.Type()).Elem(), reflect.New(vb.Type()).Elem()
	ca.Set(va)
	cb.Set(vb)
	for _, f := range fields {
		ca.FieldByIndex(f.index).SetZero()
		cb.FieldByIndex(f.index).SetZero()
	}
	if !reflect.DeepEqual(ca.Interface(), cb.Interface()) {
		return false
	}
	last := map[string]int{} // tensor → index in fields of a's last non-zero field
	for i, f := range fields {
		if f.Value(a) != 0 {
			last[f.Tensor] = i
		}
	}
	for i, f := range fields {
		j, ok := last[f.Tensor]
		switch {
		case !ok || i > j:
			// after a's segments of this tensor: any value
		case i < j && f.Value(b) != f.Value(a):
			return false
		case i == j && f.Value(b) < f.Value(a):
			return false
		}
	}
	return true
}
