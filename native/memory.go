package native

import (
	"fmt"
	"slices"
	"unsafe"

	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/vecenv"
)

// Array is one array of an output (see [Info].Layout): its name, its
// numpy dtype and its per-row shape; the array holds rows × the shape's
// elements, C-contiguous.
//
// The arrays of an output are, in order: "obs/NAME" for each observation
// tensor (its dtype and shape), "mask" (uint8, [Actions]), "reward"
// (float32), "terminated", "truncated" (bool), "env", "seat", "episode"
// (int32), "ended" (bool) and, in same_step mode, "final_obs/NAME" for
// each tensor.
type Array struct {
	Name  string `json:"name"`
	DType string `json:"dtype"`
	Shape []int  `json:"shape"`
}

// layout returns the arrays of one output of p.
func layout(p *vecenv.Pool) []Array {
	spec := p.Spec()
	var out []Array
	for _, t := range spec.Obs {
		out = append(out, Array{"obs/" + t.Name, t.DType.String(), slices.Clone(t.Shape)})
	}
	out = append(out,
		Array{"mask", "uint8", []int{spec.Actions}},
		Array{"reward", "float32", []int{}},
		Array{"terminated", "bool", []int{}},
		Array{"truncated", "bool", []int{}},
		Array{"env", "int32", []int{}},
		Array{"seat", "int32", []int{}},
		Array{"episode", "int32", []int{}},
		Array{"ended", "bool", []int{}},
	)
	if p.AutoReset() == vecenv.SameStep {
		for _, t := range spec.Obs {
			out = append(out, Array{"final_obs/" + t.Name, t.DType.String(), slices.Clone(t.Shape)})
		}
	}
	return out
}

// Bind hands pool h the caller's memory: the addresses of the arrays of
// one output per [Info].Layout, in that order, each holding rows rows.
//
// With batch 0 the output has the pool's Rows rows and becomes the
// pool's step buffers ([vecenv.Pool.SetOutput]); with batch > 0 the pool
// becomes async with batches of batch envs ([vecenv.NewAsync]), and ptrs
// holds [vecenv.AsyncBatches](NumEnvs, batch) outputs of batch ×
// len(LearnerSeats) rows, one after the other, which [Recv] indexes. An
// async pool cannot go back, and its sync calls fail.
//
// The memory must not be Go's (or must be pinned), must stay valid until
// [Close] and must not be written by the caller. Null or misaligned
// addresses, a wrong count and a bad batch size are InvalidArgument;
// sizes cannot be checked and are the caller's promise.
func Bind(h int64, ptrs []unsafe.Pointer, batch int) error {
	return with(h, func(p *pool) error {
		if p.async != nil {
			return errorf(FailedPrecondition, "native: pool %d is async already", h)
		}
		per := len(p.layout)
		if batch == 0 {
			if len(ptrs) != per {
				return errorf(InvalidArgument, "native: bind: got %d addresses, want %d (one output)", len(ptrs), per)
			}
			out, err := p.output(ptrs, p.p.Rows())
			if err != nil {
				return err
			}
			return p.p.SetOutput(out)
		}
		n := p.p.NumEnvs()
		if batch < 0 || batch > n {
			return errorf(InvalidArgument, "native: bind: batch size %d, want 0 (sync) or 1..%d (num_envs)", batch, n)
		}
		nb := vecenv.AsyncBatches(n, batch)
		if len(ptrs) != nb*per {
			return errorf(InvalidArgument, "native: bind: got %d addresses, want %d (%d outputs of %d arrays)", len(ptrs), nb*per, nb, per)
		}
		outs := make([]vecenv.Output, nb)
		for k := range outs {
			var err error
			if outs[k], err = p.output(ptrs[k*per:(k+1)*per], batch*len(p.p.LearnerSeats())); err != nil {
				return fmt.Errorf("batch %d: %w", k, err)
			}
		}
		a, err := vecenv.NewAsync(p.p, batch, outs)
		if err != nil {
			return err
		}
		p.async, p.batch = a, batch
		return nil
	})
}

// output makes an output of rows rows over the memory at ptrs (one address
// per array of p.layout).
func (p *pool) output(ptrs []unsafe.Pointer, rows int) (vecenv.Output, error) {
	spec := p.p.Spec()
	for i, ptr := range ptrs {
		a := p.layout[i]
		align := uintptr(1)
		switch a.DType {
		case "float32", "int32":
			align = 4
		}
		if ptr == nil || uintptr(ptr)%align != 0 {
			return vecenv.Output{}, errorf(InvalidArgument, "native: bind: %s: address %p is null or not %d-byte aligned", a.Name, ptr, align)
		}
	}
	T := len(spec.Obs)
	b := &env.Buffers{Spec: spec, Rows: rows, Obs: make([][]byte, T)}
	for t, ts := range spec.Obs {
		b.Obs[t] = unsafe.Slice((*byte)(ptrs[t]), rows*ts.Bytes())
	}
	rest := ptrs[T:]
	b.Mask = unsafe.Slice((*uint8)(rest[0]), rows*spec.Actions)
	b.Rewards = unsafe.Slice((*float32)(rest[1]), rows)
	b.Terminated = unsafe.Slice((*bool)(rest[2]), rows)
	b.Truncated = unsafe.Slice((*bool)(rest[3]), rows)
	b.Env = unsafe.Slice((*int32)(rest[4]), rows)
	b.Seat = unsafe.Slice((*int32)(rest[5]), rows)
	b.Episode = unsafe.Slice((*int32)(rest[6]), rows)
	out := vecenv.Output{Buffers: b, Ended: unsafe.Slice((*bool)(rest[7]), rows)}
	if final := rest[8:]; len(final) > 0 {
		out.FinalObs = make([][]byte, T)
		for t, ts := range spec.Obs {
			out.FinalObs[t] = unsafe.Slice((*byte)(final[t]), rows*ts.Bytes())
		}
	}
	return out, nil
}
