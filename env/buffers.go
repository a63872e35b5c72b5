package env

import "fmt"

// Buffers are the flat step buffers of a batch of agent rows: what a pool
// writes each step and what an Arrow record batch wraps without copying.
// Row r holds one agent (one seat of one env); which env and seat is in
// Env[r] and Seat[r]. Every slice has Rows entries (Obs[i] and Mask have
// Rows × the per-row size), laid out row after row.
//
// Buffers hold no locks: the owner (a pool) overwrites them on every step,
// so readers must finish with them, or copy them, before the next step.
type Buffers struct {
	// Spec is the game's spec; Obs follows Spec.Obs.
	Spec *Spec
	// Rows is the number of agent rows.
	Rows int
	// Obs holds one slice per tensor of Spec.Obs, each Rows × Tensor.Bytes()
	// bytes: row r's tensor i is Obs[i][r*b : (r+1)*b] with b =
	// Spec.Obs[i].Bytes(), in the tensor's documented layout.
	Obs [][]byte
	// Mask is Rows × Spec.Actions legal-action flags (1 legal, 0 not).
	Mask []uint8
	// Rewards, Terminated and Truncated are the last step's per-row values.
	Rewards    []float32
	Terminated []bool
	Truncated  []bool
	// Env and Seat identify each row's env index and seat.
	Env  []int32
	Seat []int32
	// Episode is each row's episode number within its env, counting from 0
	// at pool creation; it changes when the env is reset.
	Episode []int32
}

// NewBuffers allocates buffers of rows rows for spec.
func NewBuffers(spec *Spec, rows int) *Buffers {
	b := &Buffers{
		Spec:       spec,
		Rows:       rows,
		Obs:        make([][]byte, len(spec.Obs)),
		Mask:       make([]uint8, rows*spec.Actions),
		Rewards:    make([]float32, rows),
		Terminated: make([]bool, rows),
		Truncated:  make([]bool, rows),
		Env:        make([]int32, rows),
		Seat:       make([]int32, rows),
		Episode:    make([]int32, rows),
	}
	for i, t := range spec.Obs {
		b.Obs[i] = make([]byte, rows*t.Bytes())
	}
	return b
}

// RowObs returns row r's observation tensors as sub-slices of b.Obs, in the
// form [Env.WriteObs] takes, appended to dst.
func (b *Buffers) RowObs(dst [][]byte, r int) [][]byte {
	for i, t := range b.Spec.Obs {
		n := t.Bytes()
		dst = append(dst, b.Obs[i][r*n:(r+1)*n:(r+1)*n])
	}
	return dst
}

// RowMask returns row r's action mask as a sub-slice of b.Mask.
func (b *Buffers) RowMask(r int) []uint8 {
	n := b.Spec.Actions
	return b.Mask[r*n : (r+1)*n : (r+1)*n]
}

// Check returns an error unless every slice has the size Rows and Spec
// require.
func (b *Buffers) Check() error {
	if b.Spec == nil {
		return fmt.Errorf("env: Buffers: no Spec")
	}
	if len(b.Obs) != len(b.Spec.Obs) {
		return fmt.Errorf("env: Buffers: %d observation tensors, want %d", len(b.Obs), len(b.Spec.Obs))
	}
	for i, t := range b.Spec.Obs {
		if len(b.Obs[i]) != b.Rows*t.Bytes() {
			return fmt.Errorf("env: Buffers: tensor %q has %d bytes, want %d rows × %d", t.Name, len(b.Obs[i]), b.Rows, t.Bytes())
		}
	}
	for _, c := range []struct {
		name string
		got  int
		want int
	}{
		{"Mask", len(b.Mask), b.Rows * b.Spec.Actions},
		{"Rewards", len(b.Rewards), b.Rows},
		{"Terminated", len(b.Terminated), b.Rows},
		{"Truncated", len(b.Truncated), b.Rows},
		{"Env", len(b.Env), b.Rows},
		{"Seat", len(b.Seat), b.Rows},
		{"Episode", len(b.Episode), b.Rows},
	} {
		if c.got != c.want {
			return fmt.Errorf("env: Buffers: %s has %d entries, want %d", c.name, c.got, c.want)
		}
	}
	return nil
}
