package vecenv

import (
	"fmt"
	"testing"

	"github.com/botarena/botarena/env"
)

// TestRowViewsAreTheRowsSlices: whatever the number of tensors (inline in
// the rowView up to inlineObs, in rows.wideObs beyond), every row's
// observation views and mask view are exactly its slices of the buffers,
// with their capacity cut at the row's end.
func TestRowViewsAreTheRowsSlices(t *testing.T) {
	for _, T := range []int{1, 2, 3, 5} {
		t.Run(fmt.Sprintf("tensors=%d", T), func(t *testing.T) {
			spec := &env.Spec{Game: "views", Seats: 1, Actions: 3}
			for k := range T {
				spec.Obs = append(spec.Obs, env.Tensor{Name: fmt.Sprint("t", k), DType: env.Uint8, Shape: []int{k + 2}})
			}
			const n = 4
			b := env.NewBuffers(spec, n)
			out := versioned(b, nil, make([]bool, n))
			var dst [][]byte
			for r := range n {
				v := &out.views[r]
				got, want := out.obs(v, r, T), b.RowObs(dst, r)
				if len(got) != T || cap(got) != T {
					t.Fatalf("row %d: %d views (cap %d), want %d", r, len(got), cap(got), T)
				}
				for k := range T {
					if &got[k][0] != &want[k][0] || len(got[k]) != len(want[k]) || cap(got[k]) != len(want[k]) {
						t.Errorf("row %d tensor %d: view (len %d, cap %d) is not the row's slice (len %d)", r, k, len(got[k]), cap(got[k]), len(want[k]))
					}
				}
				if m := b.RowMask(r); &v.mask[0] != &m[0] || len(v.mask) != len(m) || cap(v.mask) != len(m) {
					t.Errorf("row %d: mask view is not the row's slice", r)
				}
			}
		})
	}
}
