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
	n := binary.LittleEndian.Uint64(lenBuf[:])
	if n > MaxHeaderBytes {
		return nil, fmt.Errorf("not a safetensors file: header length %d is over the %d-byte limit", n, MaxHeaderBytes)
	}
	if int64(n) > size-8 {
		return nil, fmt.Errorf("truncated: header length %d, but only %d bytes follow the length", n, size-8)
	}
	if n < 2 {
		return nil, fmt.Errorf("not a safetensors file: header length %d is too short for a JSON object", n)
	}
	header := make([]byte, n)
	if _, err := io.ReadFull(r, header); err != nil {
		return nil, fmt.Errorf("truncated: reading the %d-byte header: %w", n, err)
	}
	entries, meta, err := parseHeader(header)
	if err != nil {
		return nil, err
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
			return nil, fmt.Errorf("tensor %q: dtype %q, want F32 or F64", name, h.DType)
		}
		if h.Shape == nil {
			return nil, fmt.Errorf("tensor %q: no shape", name)
		}
		count := int64(1)
		shape := make([]int, len(h.Shape))
		for i, d := range h.Shape {
			if d < 0 || d > math.MaxInt32 {
				return nil, fmt.Errorf("tensor %q: shape %v has a bad dimension %d", name, h.Shape, d)
			}
			shape[i] = int(d)
			count *= d
			if count > dataLen {
				// Also keeps the product from overflowing.
				return nil, fmt.Errorf("tensor %q: shape %v needs more than the %d bytes of data the file has", name, h.Shape, dataLen)
			}
		}
		if len(h.DataOffsets) != 2 {
			return nil, fmt.Errorf("tensor %q: data_offsets %v, want [begin, end]", name, h.DataOffsets)
		}
		begin, end := h.DataOffsets[0], h.DataOffsets[1]
		if begin < 0 || end < begin || end > dataLen {
			return nil, fmt.Errorf("tensor %q: data_offsets [%d, %d] are outside the %d bytes of data", name, begin, end, dataLen)
		}
		if end-begin != count*elem {
			return nil, fmt.Errorf("tensor %q: shape %v of %s is %d bytes, but data_offsets [%d, %d] span %d", name, h.Shape, h.DType, count*elem, begin, end, end-begin)
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
				return nil, fmt.Errorf("tensor %q: element %d is %v; weights must be finite", name, i, v)
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
			return nil, fmt.Errorf("tensor %q: data_offsets [%d, %d] overlap tensor %q", s.name, s.begin, s.end, spans[i-1].name)
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
// the __metadata__ strings. Duplicate keys are an error.
func parseHeader(header []byte) (map[string]headerEntry, map[string]string, error) {
	if !utf8.Valid(header) {
		return nil, nil, errors.New("header is not valid UTF-8")
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
			return nil, nil, fmt.Errorf("header: %w", err)
		}
		key := tok.(string)
		if seen[key] {
			return nil, nil, fmt.Errorf("header: key %q appears twice", key)
		}
		seen[key] = true
		if key == "__metadata__" {
			var raw map[string]any
			if err := dec.Decode(&raw); err != nil {
				return nil, nil, fmt.Errorf("header: __metadata__: %w", err)
			}
			meta = make(map[string]string, len(raw))
			for k, v := range raw {
				s, ok := v.(string)
				if !ok {
					return nil, nil, fmt.Errorf("header: __metadata__[%q] is not a string", k)
				}
				meta[k] = s
			}
			continue
		}
		var h headerEntry
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, nil, fmt.Errorf("header: tensor %q: %w", key, err)
		}
		ed := json.NewDecoder(bytes.NewReader(raw))
		ed.DisallowUnknownFields()
		if err := ed.Decode(&h); err != nil {
			return nil, nil, fmt.Errorf("header: tensor %q: %w", key, err)
		}
		entries[key] = h
	}
	if _, err := dec.Token(); err != nil {
		return nil, nil, fmt.Errorf("header: %w", err)
	}
	// Only padding may follow the object.
	if strings.TrimRight(string(header[dec.InputOffset():]), " \t\r\n") != "" {
		return nil, nil, errors.New("header: data after the JSON object")
	}
	return entries, meta, nil
}
