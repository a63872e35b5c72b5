package policy

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"unicode/utf8"
)

// MaxHeaderBytes is the largest safetensors JSON header a reader accepts
// (100 MB), as docs/policy-format.md and the reference implementation
// require.
const MaxHeaderBytes = 100 << 20

// MetadataKey is the key of __metadata__ that holds a policy's
// architecture JSON.
const MetadataKey = "botarena.policy"

// tensor is one tensor of a safetensors file, converted to float64.
type tensor struct {
	shape []int
	data  []float64 // C order
}

// safetensors is a parsed safetensors file: its tensors by name and its
// __metadata__ strings.
type safetensors struct {
	tensors  map[string]tensor
	metadata map[string]string
}

// headerEntry is one tensor's entry in a safetensors header.
type headerEntry struct {
	DType       string  `json:"dtype"`
	Shape       []int64 `json:"shape"`
	DataOffsets []int64 `json:"data_offsets"`
}

// readSafetensors reads a safetensors file from r (size bytes in all)
// strictly: the header length must fit the file and MaxHeaderBytes, the
// header must be one JSON object without duplicate keys, every tensor must
// be F32 or F64 with a byte length that matches its shape, and the tensors
// must cover the data section exactly, without overlaps or holes (as the
// safetensors format requires). Values must be finite. Errors say what is
// wrong; the caller adds the file name.
func readSafetensors(r io.Reader, size int64) (*safetensors, error) {
	if size < 8 {
		return nil, fmt.Errorf("not a safetensors file: %d bytes, shorter than the 8-byte header length", size)
	}
	var lenBuf [8]byte
	if _, err := io.ReadFull(r, lenBuf[:]); err != nil {
		return nil, fmt.Errorf("reading the header length: %w", err)
	}
	// The length is the file's first 8 bytes: errors do not show it, so
	// that a file that is not a policy (policy:/etc/shadow) is not echoed.
	n := binary.LittleEndian.Uint64(lenBuf[:])
	if n > MaxHeaderBytes {
		return nil, fmt.Errorf("not a safetensors file: the header length is over the %d-byte limit", MaxHeaderBytes)
	}
	if int64(n) > size-8 {
		return nil, fmt.Errorf("truncated: the header length is more than the %d bytes that follow it", size-8)
	}
	if n < 2 {
		return nil, errors.New("not a safetensors file: the header length is too short for a JSON object")
	}
	header := make([]byte, n)
	if _, err := io.ReadFull(r, header); err != nil {
		return nil, fmt.Errorf("truncated: reading the %d-byte header: %w", n, err)
	}
	entries, meta, err := parseHeader(header)
	if err != nil {
		return nil, err
	}
	// Only a policy's tensors are read and checked (and named in errors).
	if _, ok := meta[MetadataKey]; !ok {
		return nil, fmt.Errorf("%w: a safetensors file without __metadata__[%q]", ErrNotPolicy, MetadataKey)
	}
	dataLen := size - 8 - int64(n)
	data := make([]byte, dataLen)
	if _, err := io.ReadFull(r, data); err != nil {
		return nil, fmt.Errorf("truncated: reading %d bytes of tensor data: %w", dataLen, err)
	}

	names := make([]string, 0, len(entries))
	for name := range entries {
		names = append(names, name)
	}
	slices.Sort(names)
	type span struct {
		name       string
		begin, end int64
	}
	spans := make([]span, 0, len(names))
	st := &safetensors{tensors: make(map[string]tensor, len(names)), metadata: meta}
	for _, name := range names {
		h := entries[name]
		var elem int64
		switch h.DType {
		case "F32":
			elem = 4
		case "F64":
			elem = 8
		default:
			return nil, fmt.Errorf("tensor %s: dtype %s, want F32 or F64", quoteName(name), quoteName(h.DType))
		}
		if h.Shape == nil {
			return nil, fmt.Errorf("tensor %s: no shape", quoteName(name))
		}
		count := int64(1)
		shape := make([]int, len(h.Shape))
		for i, d := range h.Shape {
			if d < 0 || d > math.MaxInt32 {
				return nil, fmt.Errorf("tensor %s: shape %s has a bad dimension %d", quoteName(name), shortInts(h.Shape), d)
			}
			shape[i] = int(d)
			count *= d
			if count > dataLen {
				// Also keeps the product from overflowing.
				return nil, fmt.Errorf("tensor %s: shape %s needs more than the %d bytes of data the file has", quoteName(name), shortInts(h.Shape), dataLen)
			}
		}
		if len(h.DataOffsets) != 2 {
			return nil, fmt.Errorf("tensor %s: data_offsets %s, want [begin, end]", quoteName(name), shortInts(h.DataOffsets))
		}
		begin, end := h.DataOffsets[0], h.DataOffsets[1]
		if begin < 0 || end < begin || end > dataLen {
			return nil, fmt.Errorf("tensor %s: data_offsets [%d, %d] are outside the %d bytes of data", quoteName(name), begin, end, dataLen)
		}
		if end-begin != count*elem {
			return nil, fmt.Errorf("tensor %s: shape %s of %s is %d bytes, but data_offsets [%d, %d] span %d", quoteName(name), shortInts(h.Shape), h.DType, count*elem, begin, end, end-begin)
		}
		spans = append(spans, span{name, begin, end})
		vals := make([]float64, count)
		raw := data[begin:end]
		for i := range vals {
			var v float64
			if elem == 4 {
				v = float64(math.Float32frombits(binary.LittleEndian.Uint32(raw[4*i:])))
			} else {
				v = math.Float64frombits(binary.LittleEndian.Uint64(raw[8*i:]))
			}
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("tensor %s: element %d is %v; weights must be finite", quoteName(name), i, v)
			}
			vals[i] = v
		}
		st.tensors[name] = tensor{shape: shape, data: vals}
	}
	slices.SortFunc(spans, func(a, b span) int {
		return cmp.Or(cmp.Compare(a.begin, b.begin), cmp.Compare(a.end, b.end))
	})
	for i := 1; i < len(spans); i++ {
		if s := spans[i]; s.begin < spans[i-1].end && s.end > s.begin {
			return nil, fmt.Errorf("tensor %s: data_offsets [%d, %d] overlap tensor %s", quoteName(s.name), s.begin, s.end, quoteName(spans[i-1].name))
		}
	}
	at := int64(0)
	for _, s := range spans {
		if s.begin > at {
			return nil, fmt.Errorf("bytes %d..%d of the data belong to no tensor (safetensors allows no holes)", at, s.begin-1)
		}
		at = s.end
	}
	if at != dataLen {
		return nil, fmt.Errorf("bytes %d..%d of the data belong to no tensor (safetensors allows no holes or trailing data)", at, dataLen-1)
	}
	return st, nil
}

// parseHeader decodes a safetensors JSON header: tensor entries by name and
// the __metadata__ strings. Duplicate keys are an error. The file may not
// be a policy at all (policy:/etc/shadow): errors quote nothing of a header
// that does not mention MetadataKey, and of one that does no more than a
// key or field name, cut short.
func parseHeader(header []byte) (map[string]headerEntry, map[string]string, error) {
	if !utf8.Valid(header) {
		return nil, nil, errors.New("header is not valid UTF-8")
	}
	show := bytes.Contains(header, []byte(`"`+MetadataKey+`"`))
	quoteName := func(s string) string {
		if !show {
			return "(not shown: no policy metadata)"
		}
		return quoteName(s)
	}
	dec := json.NewDecoder(bytes.NewReader(header))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil || tok != json.Delim('{') {
		return nil, nil, errors.New("header is not a JSON object")
	}
	entries := map[string]headerEntry{}
	var meta map[string]string
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, nil, jsonError("header", err, show)
		}
		key := tok.(string)
		if seen[key] {
			return nil, nil, fmt.Errorf("header: key %s appears twice", quoteName(key))
		}
		seen[key] = true
		if key == "__metadata__" {
			var raw map[string]any
			if err := dec.Decode(&raw); err != nil {
				return nil, nil, jsonError("header: __metadata__", err, show)
			}
			meta = make(map[string]string, len(raw))
			for k, v := range raw {
				s, ok := v.(string)
				if !ok {
					return nil, nil, fmt.Errorf("header: __metadata__[%s] is not a string", quoteName(k))
				}
				meta[k] = s
			}
			continue
		}
		var h headerEntry
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, nil, jsonError("header: tensor "+quoteName(key), err, show)
		}
		ed := json.NewDecoder(bytes.NewReader(raw))
		ed.DisallowUnknownFields()
		if err := ed.Decode(&h); err != nil {
			return nil, nil, jsonError("header: tensor "+quoteName(key), err, show)
		}
		entries[key] = h
	}
	if _, err := dec.Token(); err != nil {
		return nil, nil, jsonError("header", err, show)
	}
	// Only padding may follow the object.
	if strings.TrimRight(string(header[dec.InputOffset():]), " \t\r\n") != "" {
		return nil, nil, errors.New("header: data after the JSON object")
	}
	return entries, meta, nil
}

// jsonError describes a JSON decoding error of the header without quoting
// it: a syntax error by its offset, other errors (a wrong type, an unknown
// field) by their message cut short where show is set, else not at all.
func jsonError(what string, err error, show bool) error {
	var syn *json.SyntaxError
	switch {
	case errors.As(err, &syn):
		return fmt.Errorf("%s: not valid JSON (at byte %d of the header)", what, syn.Offset)
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return fmt.Errorf("%s: the JSON ends early", what)
	}
	if !show {
		return fmt.Errorf("%s: not the JSON of a safetensors header", what)
	}
	msg := err.Error()
	if len(msg) > 120 {
		msg = msg[:120] + "..."
	}
	return fmt.Errorf("%s: %s", what, msg)
}

// maxQuoted bounds the bytes of a name from the file that an error quotes.
const maxQuoted = 64

// quoteName quotes a name from the file (a tensor, a key) for an error,
// cut to 64 bytes.
func quoteName(s string) string {
	if len(s) > maxQuoted {
		return fmt.Sprintf("%q...", s[:maxQuoted])
	}
	return fmt.Sprintf("%q", s)
}

// shortInts formats a shape or offsets list from the file for an error,
// cut to its first 8 numbers.
func shortInts(v []int64) string {
	if len(v) > 8 {
		return fmt.Sprintf("%v... (%d numbers)", v[:8], len(v))
	}
	return fmt.Sprint(v)
}
