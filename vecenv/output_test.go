package vecenv_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/botarena/botarena/internal/testutil"
	"github.com/botarena/botarena/vecenv"
)

// TestSetOutput: a pool given its own Output writes the same bytes there
// as a pool writing its default buffers, and Buffers, Ended and FinalObs
// return the new memory.
func TestSetOutput(t *testing.T) {
	for _, mode := range []vecenv.AutoReset{vecenv.NextStep, vecenv.SameStep} {
		t.Run(mode.String(), func(t *testing.T) {
			cfg := mixedConfig(5, 2, 11, mode)
			ref, other := testutil.NewPool(t, cfg), testutil.NewPool(t, cfg)
			for _, p := range []*vecenv.Pool{ref, other} {
				if err := p.Reset(); err != nil {
					t.Fatal(err)
				}
			}
			out := other.NewOutput(other.Rows())
			if err := other.SetOutput(out); err != nil {
				t.Fatal(err)
			}
			if other.Buffers() != out.Buffers || &other.Ended()[0] != &out.Ended[0] {
				t.Fatal("Buffers and Ended are not the Output's")
			}
			next := actionStream(ref.Rows(), ref.Spec().Actions, 3)
			for s := range 100 {
				if s > 0 {
					acts := next()
					for _, p := range []*vecenv.Pool{ref, other} {
						if err := p.Step(acts); err != nil {
							t.Fatal(err)
						}
					}
				}
				if testutil.Digest(ref.Buffers(), ref.Ended(), ref.FinalObs()) != testutil.Digest(out.Buffers, out.Ended, out.FinalObs) {
					t.Fatalf("step %d: the Output differs from the default buffers", s)
				}
			}
		})
	}
}

func TestSetOutputErrors(t *testing.T) {
	p := testutil.NewPool(t, mixedConfig(3, 1, 1, vecenv.NextStep))
	same := testutil.NewPool(t, mixedConfig(3, 1, 1, vecenv.SameStep))
	for _, tc := range []struct {
		name string
		out  func() vecenv.Output
		want string
	}{
		{"no_buffers", func() vecenv.Output { return vecenv.Output{} }, "no Buffers"},
		{"rows", func() vecenv.Output { return p.NewOutput(5) }, "5 rows, want 6"},
		{"other_spec", func() vecenv.Output {
			o := p.NewOutput(6)
			spec := *p.Spec()
			o.Buffers.Spec = &spec
			return o
		}, "not the pool's Spec"},
		{"ended", func() vecenv.Output { o := p.NewOutput(6); o.Ended = o.Ended[:2]; return o }, "Ended has 2 entries"},
		{"mask", func() vecenv.Output { o := p.NewOutput(6); o.Buffers.Mask = o.Buffers.Mask[1:]; return o }, "Mask has"},
		{"final_in_next_step", func() vecenv.Output { o := p.NewOutput(6); o.FinalObs = [][]byte{}; return o }, "FinalObs must be nil"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := p.Buffers()
			err := p.SetOutput(tc.out())
			if !errors.Is(err, vecenv.ErrOutput) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("SetOutput: %v, want ErrOutput containing %q", err, tc.want)
			}
			if p.Buffers() != before {
				t.Error("a refused Output was taken")
			}
		})
	}
	o := same.NewOutput(6)
	o.FinalObs[1] = o.FinalObs[1][:3]
	if err := same.SetOutput(o); err == nil || !strings.Contains(err.Error(), "FinalObs[1]") {
		t.Errorf("SetOutput with a short FinalObs tensor: %v", err)
	}
	same.Close()
	if err := same.SetOutput(same.NewOutput(6)); !errors.Is(err, vecenv.ErrClosed) {
		t.Errorf("SetOutput after Close: %v", err)
	}
}
