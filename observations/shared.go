package observations

import (
	"encoding/json"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/botarena/botarena/env"
)

// Metadata of the shared form (see the package documentation).
const (
	// SharedKey is the field metadata of a tensor with shared channels
	// ([env.Tensor].Shared), in every form: the channels as a JSON array,
	// "[2,3,6,7,8,9,10,11]".
	SharedKey = "shared"
	// PartKey is the schema metadata of the two schemas of the shared
	// form: [PartRows] or [PartEnvs]. The full form has none.
	PartKey = "part"

	// PartRows marks the rows schema of the shared form: one row per agent,
	// each tensor with shared channels holding only its other channels.
	PartRows = "rows"
	// PartEnvs marks the envs schema of the shared form: one row per env,
	// one column per tensor with shared channels holding those channels.
	PartEnvs = "envs"
)

// HasShared reports whether a tensor of spec declares shared channels, so
// that spec has a shared form.
func HasShared(spec *env.Spec) bool {
	for _, t := range spec.Obs {
		if len(t.Shared) > 0 {
			return true
		}
	}
	return false
}

// run is a run of consecutive channels within one row of a tensor, in
// bytes.
type run struct{ off, n int }

// split is how the shared form splits tensor index of a spec: per row,
// rowBytes bytes of which the seat runs (the channels not shared, in
// order, seatBytes in all) go to the rows batch and the shared runs
// (envBytes in all) to the envs batch, once per env.
type split struct {
	index                         int
	rowBytes, seatBytes, envBytes int
	seat, shared                  []run
}

// splits returns the splits of spec's tensors that declare shared
// channels, in tensor order.
func splits(spec *env.Spec) []split {
	var out []split
	for i, t := range spec.Obs {
		if len(t.Shared) == 0 {
			continue
		}
		plane := t.Bytes() / t.Shape[0]
		sp := split{index: i, rowBytes: t.Bytes(), envBytes: len(t.Shared) * plane}
		sp.seatBytes = sp.rowBytes - sp.envBytes
		shared := make([]bool, t.Shape[0])
		for _, c := range t.Shared {
			shared[c] = true
		}
		for c := 0; c < len(shared); {
			end := c + 1
			for end < len(shared) && shared[end] == shared[c] {
				end++
			}
			r := run{off: c * plane, n: (end - c) * plane}
			if shared[c] {
				sp.shared = append(sp.shared, r)
			} else {
				sp.seat = append(sp.seat, r)
			}
			c = end
		}
		out = append(out, sp)
	}
	return out
}

// gather copies the seat channels of each of rows rows of src into seat,
// and the shared channels of the first row of each env (rowsPerEnv rows)
// into envs.
func (sp *split) gather(seat, envs, src []byte, rows, rowsPerEnv int) {
	for r := range rows {
		row := src[r*sp.rowBytes : (r+1)*sp.rowBytes]
		dst := seat[r*sp.seatBytes : (r+1)*sp.seatBytes]
		for _, c := range sp.seat {
			dst = dst[copy(dst, row[c.off:c.off+c.n]):]
		}
		if r%rowsPerEnv != 0 {
			continue
		}
		e := r / rowsPerEnv
		dst = envs[e*sp.envBytes : (e+1)*sp.envBytes]
		for _, c := range sp.shared {
			dst = dst[copy(dst, row[c.off:c.off+c.n]):]
		}
	}
}

// scatter is the inverse of gather: it rebuilds the full rows of dst.
func (sp *split) scatter(dst, seat, envs []byte, rows, rowsPerEnv int) {
	for r := range rows {
		row := dst[r*sp.rowBytes : (r+1)*sp.rowBytes]
		src := seat[r*sp.seatBytes : (r+1)*sp.seatBytes]
		for _, c := range sp.seat {
			src = src[copy(row[c.off:c.off+c.n], src):]
		}
		e := r / rowsPerEnv
		src = envs[e*sp.envBytes : (e+1)*sp.envBytes]
		for _, c := range sp.shared {
			src = src[copy(row[c.off:c.off+c.n], src):]
		}
	}
}

// SharedSchemas returns the two schemas of the shared form of spec's step
// batches: rows, which is [Schema] with each tensor that declares shared
// channels holding only its other channels (in order), and envs, one row
// per env with one column per such tensor, named after it, holding the
// shared channels (in order). Both carry the game's schema metadata and
// [PartKey]; their tensor fields carry the full tensor's shape, dtype,
// layout and [SharedKey]. It returns an error when [Schema] does or when
// no tensor declares shared channels.
func SharedSchemas(spec *env.Spec) (rows, envs *arrow.Schema, err error) {
	if err := checkSpec(spec); err != nil {
		return nil, nil, err
	}
	if !HasShared(spec) {
		return nil, nil, fmt.Errorf("observations: %s declares no shared channels", spec.Game)
	}
	if rows, err = schema(spec, PartRows); err != nil {
		return nil, nil, err
	}
	if envs, err = schema(spec, PartEnvs); err != nil {
		return nil, nil, err
	}
	return rows, envs, nil
}

// SharedSchemaMessage returns the schema messages of the shared form of
// spec (see [SharedSchemas]): the rows schema's message followed by the
// envs schema's. A reader that takes only the first message, such as
// pa.ipc.read_schema, gets the rows schema. The returned slice is new and
// owned by the caller.
func SharedSchemaMessage(spec *env.Spec) ([]byte, error) {
	rows, envs, err := SharedSchemas(spec)
	if err != nil {
		return nil, err
	}
	return append(schemaMessage(rows), schemaMessage(envs)...), nil
}

// checkShared returns an error unless t's shared channels are ascending
// channels of its first axis.
func checkShared(game string, t env.Tensor) error {
	for i, c := range t.Shared {
		if c < 0 || c >= t.Shape[0] || i > 0 && c <= t.Shared[i-1] {
			return fmt.Errorf("observations: %s: tensor %q: Shared %v: want ascending channels in 0..%d", game, t.Name, t.Shared, t.Shape[0]-1)
		}
	}
	return nil
}

// sharedJSON formats channels as a JSON array.
func sharedJSON(channels []int) string {
	b, _ := json.Marshal(channels) // ints always marshal
	return string(b)
}
