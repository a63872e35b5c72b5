package policy

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"
)

// tinyFile returns the tiny network's file after mutate changed its
// architecture and tensors.
func tinyFile(mutate func(arch map[string]any, tensors map[string]testTensor)) []byte {
	arch, tensors := tiny.build(1)
	if mutate != nil {
		mutate(arch, tensors)
	}
	return encodePolicy(arch, tensors)
}

// rawTiny returns the tiny network's header (as a generic value) and data,
// for cases that break the container itself.
func rawTiny() (map[string]any, []byte) {
	arch, tensors := tiny.build(1)
	file := encodePolicy(arch, tensors)
	n := binary.LittleEndian.Uint64(file)
	var h map[string]any
	if err := json.Unmarshal(file[8:8+n], &h); err != nil {
		panic(err)
	}
	return h, file[8+n:]
}

func archLayer(arch map[string]any, list string, i int) map[string]any {
	return arch[list].([]any)[i].(map[string]any)
}

// tinyFactoredHead is a factored head for the tiny network: its 4 actions
// are 2 commands × 2 cells, so shared cell logits need its 4 outputs.
func tinyFactoredHead() map[string]any {
	return map[string]any{"type": "factored", "cell_logits": "shared", "commands": []string{"a", "b"}, "cells": 2,
		"command": []int{0, 1, 1, 0}, "cell": []int{0, 0, 1, 1}}
}

func TestDecodeRejects(t *testing.T) {
	valid := tinyFile(nil)
	if _, err := Decode("tiny.policy", valid); err != nil {
		t.Fatalf("the valid base file: %v", err)
	}
	withHeader := func(f func(h map[string]any)) []byte {
		h, data := rawTiny()
		f(h)
		return encodeRaw(h, data)
	}
	entry := func(h map[string]any, name string) map[string]any { return h[name].(map[string]any) }
	for _, tc := range []struct {
		name string
		file []byte
		want string
	}{
		{"shorter_than_length", []byte{1, 2, 3}, "shorter than the 8-byte header length"},
		{"header_over_100MB", binary.LittleEndian.AppendUint64(nil, 100<<20+1), "over the 104857600-byte limit"},
		{"header_past_end", append(binary.LittleEndian.AppendUint64(nil, 64), "{}"...), "truncated: the header length is more than the 2 bytes"},
		{"header_not_json", encodeRaw(nil, nil)[:8:8], "truncated"},
		{"header_not_object", append(binary.LittleEndian.AppendUint64(nil, 2), "[]"...), "header is not a JSON object"},
		{"header_duplicate_key", func() []byte {
			js := `{"__metadata__":{"botarena.policy":"{}"},"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]},"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}}`
			return append(append(binary.LittleEndian.AppendUint64(nil, uint64(len(js))), js...), 0, 0, 0, 0)
		}(), `key "a" appears twice`},
		{"data_truncated", valid[:len(valid)-4], "are outside the"},
		{"dtype_not_float", withHeader(func(h map[string]any) { entry(h, "trunk.0.bias")["dtype"] = "F16" }), `tensor "trunk.0.bias": dtype "F16", want F32 or F64`},
		{"offsets_outside_data", withHeader(func(h map[string]any) {
			entry(h, "value.0.bias")["data_offsets"] = []int{1 << 20, 1<<20 + 4}
		}), `tensor "value.0.bias": data_offsets [1048576, 1048580] are outside`},
		{"offsets_overlap", withHeader(func(h map[string]any) {
			entry(h, "planes.0.bias")["data_offsets"] = entry(h, "planes.0.weight")["data_offsets"]
			entry(h, "planes.0.bias")["shape"] = entry(h, "planes.0.weight")["shape"]
		}), "overlap tensor"},
		{"shape_size_mismatch", withHeader(func(h map[string]any) { entry(h, "policy.0.bias")["shape"] = []int{5} }), `tensor "policy.0.bias": shape [5] of F32 is 20 bytes, but data_offsets`},
		{"negative_dimension", withHeader(func(h map[string]any) { entry(h, "policy.0.bias")["shape"] = []int{-4} }), "bad dimension -4"},
		{"data_hole", func() []byte {
			h, data := rawTiny()
			return encodeRaw(h, append(data, 0, 0, 0, 0))
		}(), "belong to no tensor"},
		{"unknown_entry_field", withHeader(func(h map[string]any) { entry(h, "policy.0.bias")["offsets"] = 1 }), `unknown field "offsets"`},
		{"metadata_missing", encodeFile(nil, map[string]testTensor{"w": {shape: []int{1}, data: []float64{1}}}), "not a botarena policy: a safetensors file without __metadata__[\"botarena.policy\"]"},
		{"metadata_not_string", withHeader(func(h map[string]any) { h["__metadata__"] = map[string]any{"botarena.policy": 1} }), `__metadata__["botarena.policy"] is not a string`},
		{"architecture_not_json", encodeFile(map[string]string{MetadataKey: "{"}, nil), "is not valid JSON"},
		{"wrong_format", tinyFile(func(a map[string]any, _ map[string]testTensor) { a["format"] = "other" }), `format "other" version 1, want "botarena.policy" version 1`},
		{"wrong_version", tinyFile(func(a map[string]any, _ map[string]testTensor) { a["version"] = 2 }), "version 2, want"},
		{"no_actions", tinyFile(func(a map[string]any, _ map[string]testTensor) { a["actions"] = 0 }), "actions 0, want at least 1"},
		{"extra_input", tinyFile(func(a map[string]any, _ map[string]testTensor) {
			a["inputs"].(map[string]any)["rgb"] = map[string]any{"shape": []int{1}, "scale": []float64{1}}
		}), `inputs "rgb"`},
		{"scale_count", tinyFile(func(a map[string]any, _ map[string]testTensor) {
			a["inputs"].(map[string]any)["planes"].(map[string]any)["scale"] = []float64{1}
		}), "inputs.planes.scale has 1 factors, want 2 (one per channel)"},
		{"planes_without_flatten", tinyFile(func(a map[string]any, _ map[string]testTensor) {
			a["planes"] = a["planes"].([]any)[:2]
		}), "planes: the layer list must end with flatten"},
		{"unknown_op", tinyFile(func(a map[string]any, _ map[string]testTensor) { archLayer(a, "trunk", 1)["op"] = "gelu" }), `trunk[1]: unknown op "gelu"`},
		{"conv_in_trunk", tinyFile(func(a map[string]any, _ map[string]testTensor) { archLayer(a, "trunk", 1)["op"] = "conv2d" }), "trunk[1]: conv2d needs planes"},
		{"conv3d_on_2d_planes", tinyFile(func(a map[string]any, _ map[string]testTensor) { archLayer(a, "planes", 0)["op"] = "conv3d" }), "planes[0]: conv3d needs 3-D planes, but inputs.planes.shape is [2 3 3]"},
		{"tensor_missing", tinyFile(func(_ map[string]any, ts map[string]testTensor) { delete(ts, "trunk.0.bias") }), `trunk[0] (linear): tensor "trunk.0.bias" is missing`},
		{"tensor_wrong_shape", tinyFile(func(_ map[string]any, ts map[string]testTensor) {
			ts["policy.0.weight"] = testTensor{shape: []int{5, 4}, data: make([]float64, 20)}
		}), `policy[0] (linear): tensor "policy.0.weight" has shape [5 4], want [4 5]`},
		{"out_disagrees_with_weight", tinyFile(func(a map[string]any, _ map[string]testTensor) { archLayer(a, "planes", 0)["out"] = 3 }), `tensor "planes.0.weight" has shape [2 2 3 3], want [3 2 3 3]`},
		{"tensor_misnamed", tinyFile(func(a map[string]any, _ map[string]testTensor) { archLayer(a, "value", 0)["weight"] = "trunk.0.weight" }), `value[0] (linear): tensors must be named "value.0.weight"`},
		{"tensor_unused", tinyFile(func(_ map[string]any, ts map[string]testTensor) {
			ts["extra"] = testTensor{shape: []int{1}, data: []float64{0}}
		}), `tensors "extra" are not used by the architecture`},
		{"policy_outputs_not_actions", tinyFile(func(a map[string]any, _ map[string]testTensor) { a["actions"] = 5 }), "policy: gives 4 outputs, want 5 (actions)"},
		{"kernel_too_large", tinyFile(func(a map[string]any, _ map[string]testTensor) {
			archLayer(a, "planes", 0)["padding"] = 0
			archLayer(a, "planes", 0)["kernel"] = 5
		}), "kernel 5 with padding 0 does not fit an input of size 3"},
		{"head_type", tinyFile(func(a map[string]any, _ map[string]testTensor) { a["head"] = map[string]any{"type": "tree"} }), `head type "tree", want "flat" or "factored"`},
		{"head_cell_logits", tinyFile(func(a map[string]any, _ map[string]testTensor) {
			h := tinyFactoredHead()
			h["cell_logits"] = "mixed"
			a["head"] = h
		}), `head: cell_logits "mixed"`},
		{"head_outputs", tinyFile(func(a map[string]any, _ map[string]testTensor) {
			h := tinyFactoredHead()
			h["cell_logits"] = "per_command"
			a["head"] = h
		}), "policy: gives 4 outputs, want 6 (the factored head's 2 commands and their cells)"},
		{"head_pair_twice", tinyFile(func(a map[string]any, _ map[string]testTensor) {
			h := tinyFactoredHead()
			h["cell"] = []int{0, 0, 1, 0}
			a["head"] = h
		}), "head: action factors: actions 0 and 3 are both command 0, cell 0"},
		{"head_short_table", tinyFile(func(a map[string]any, _ map[string]testTensor) {
			h := tinyFactoredHead()
			h["command"] = []int{0, 1, 1}
			a["head"] = h
		}), "head: action factors: 3 commands and 4 cells listed for 4 actions"},
		{"weight_not_finite", tinyFile(func(_ map[string]any, ts map[string]testTensor) { ts["trunk.0.bias"].data[2] = math.Inf(1) }), `tensor "trunk.0.bias": element 2 is +Inf`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := Decode("tiny.policy", tc.file)
			if err == nil {
				t.Fatalf("Decode gave a model (%d parameters), want an error containing %q", m.Parameters(), tc.want)
			}
			if !strings.HasPrefix(err.Error(), "policy tiny.policy: ") || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q, want it to start with %q and contain %q", err, "policy tiny.policy: ", tc.want)
			}
		})
	}
}

func TestDecodeAccepts(t *testing.T) {
	base, err := Decode("tiny", tinyFile(nil))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		mutate func(arch map[string]any, tensors map[string]testTensor)
	}{
		{"f64_tensors", func(_ map[string]any, ts map[string]testTensor) {
			for k, v := range ts {
				for i, x := range v.data {
					v.data[i] = float64(float32(x)) // what F32 would hold
				}
				v.f64 = true
				ts[k] = v
			}
		}},
		{"conv_geometry_defaults", func(a map[string]any, _ map[string]testTensor) {
			l := archLayer(a, "planes", 0)
			delete(l, "kernel")
			delete(l, "stride")
			delete(l, "padding")
		}},
		{"flatten_in_trunk", func(a map[string]any, _ map[string]testTensor) {
			a["trunk"] = append(a["trunk"].([]any), map[string]any{"op": "flatten"})
		}},
		{"unknown_fields_ignored", func(a map[string]any, _ map[string]testTensor) { a["comment"] = "x" }},
		{"flat_head", func(a map[string]any, _ map[string]testTensor) { a["head"] = map[string]any{"type": "flat"} }},
		{"factored_head", func(a map[string]any, _ map[string]testTensor) { a["head"] = tinyFactoredHead() }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := Decode("tiny", tinyFile(tc.mutate))
			if err != nil {
				t.Fatal(err)
			}
			// The same weights (float32 values), so the same logits.
			b0, b1 := base.NewBatch(1), m.NewBatch(1)
			for i := range b0.Planes(0) {
				b0.Planes(0)[i], b1.Planes(0)[i] = uint8(i%3), uint8(i%3)
			}
			b0.Forward(1)
			b1.Forward(1)
			for i, z := range b0.Logits(0) {
				if b1.Logits(0)[i] != z {
					t.Fatalf("logit %d: %v, want %v", i, b1.Logits(0)[i], z)
				}
			}
		})
	}
}

func TestLoadNamesTheFile(t *testing.T) {
	_, err := Load("testdata/nonexistent.policy.safetensors")
	if err == nil || !strings.Contains(err.Error(), "testdata/nonexistent.policy.safetensors") {
		t.Errorf("Load of a missing file: %v", err)
	}
	_, err = Load("testdata/make_fixtures.py")
	if err == nil || !strings.Contains(err.Error(), "policy testdata/make_fixtures.py: ") {
		t.Errorf("Load of a Python file: %v", err)
	}
	if _, err := Load("testdata"); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("Load of a folder: %v", err)
	}
	data := tinyFile(func(_ map[string]any, ts map[string]testTensor) { delete(ts, "value.0.bias") })
	_, err = Decode("x", data)
	if errors.Is(err, ErrNotPolicy) {
		t.Errorf("a missing tensor is not ErrNotPolicy: %v", err)
	}
	_, err = Decode("x", encodeFile(map[string]string{}, nil))
	if !errors.Is(err, ErrNotPolicy) {
		t.Errorf("no metadata: %v, want ErrNotPolicy", err)
	}
}

// FuzzDecode: no input makes Decode panic, and what it accepts computes.
func FuzzDecode(f *testing.F) {
	f.Add(tinyFile(nil))
	f.Add(tinyFile(func(a map[string]any, _ map[string]testTensor) { a["planes"] = []any{map[string]any{"op": "flatten"}} }))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := Decode("fuzz", data)
		if err != nil {
			return
		}
		b := m.NewBatch(1)
		b.Forward(1)
		ArgMax(b.Logits(0), b.Mask(0))
	})
}

// TestAFileWithEncodersIsRefusedAsPythonOnly checks that a policy over
// another observation contract than the version-1 layout (its
// architecture has "encoders") is refused with an error that says why.
func TestAFileWithEncodersIsRefusedAsPythonOnly(t *testing.T) {
	arch, tensors := tiny.build(1)
	arch["encoders"] = map[string]any{"scores": []any{map[string]any{"op": "flatten"}}}
	arch["inputs"] = map[string]any{"scores": map[string]any{"shape": []int{2}, "scale": []float64{1, 1}}}
	_, err := Decode("enc", encodePolicy(arch, tensors))
	if err == nil || !strings.Contains(err.Error(), `encoders over inputs "scores"`) || !strings.Contains(err.Error(), "plays in Python") {
		t.Fatalf("Decode = %v, want the encoders refusal", err)
	}
}
