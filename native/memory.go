package native

import (
	"fmt"
	"unsafe"

	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/rpc/envproto"
	botarenav1 "github.com/botarena/botarena/rpc/gen/botarena/v1"
	"github.com/botarena/botarena/vecenv"
)

// layout returns the arrays of one output of p, as
// CreatePoolResponse.output_arrays lists them: name, numpy dtype and
// per-row shape (an array holds rows × the shape's elements,
// C-contiguous).
func layout(p *vecenv.Pool) []*botarenav1.TensorSpec {
	spec := p.Spec()
	array := func(name, dtype string, shape ...int) *botarenav1.TensorSpec {
		return envproto.TensorSpec(name, dtype, shape, "", nil)
	}
	var out []*botarenav1.TensorSpec
	for _, t := range spec.Obs {
		out = append(out, array("obs/"+t.Name, t.DType.String(), t.Shape...))
	}
	out = append(out,
		array("mask", "uint8", spec.Actions),
		array("reward", "float32"),
		array("terminated", "bool"),
		array("truncated", "bool"),
		array("env", "int32"),
		array("seat", "int32"),
		array("episode", "int32"),
		array("ended", "bool"),
	)
	if p.AutoReset() == vecenv.SameStep {
		for _, t := range spec.Obs {
			out = append(out, array("final_obs/"+t.Name, t.DType.String(), t.Shape...))
		}
	}
	return out
}

// Bind hands pool h the caller's memory: the addresses of the arrays of
// one output per CreatePoolResponse.output_arrays, in that order, each
// holding rows rows.
//
// For a synchronous pool the output has the pool's rows and becomes the
// pool's step buffers ([vecenv.Pool.SetOutput]); for an async pool (made
// with a batch_size B) ptrs holds [vecenv.AsyncBatches](num_envs, B)
// outputs of B × len(learner_seats) rows, one after the other, which
// [Recv] indexes, and the pool's [vecenv.Async] starts. An async pool is
// bound once.
//
// The memory must not be Go's (or must be pinned), must stay valid until
// [Close] and must not be written by the caller. Null or misaligned
// addresses and a wrong count are InvalidArgument; sizes cannot be
// checked and are the caller's promise.
func Bind(h int64, ptrs []unsafe.Pointer) error {
	return with(h, func(p *pool) error {
		if p.async != nil {
			return errorf(FailedPrecondition, "native: pool %d is bound already", h)
		}
		per := len(p.layout)
		batch := p.batch
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
		nb := vecenv.AsyncBatches(p.p.NumEnvs(), batch)
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
		p.async = a
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
		switch a.GetDtype() {
		case "float32", "int32":
			align = 4
		}
		if ptr == nil || uintptr(ptr)%align != 0 {
			return vecenv.Output{}, errorf(InvalidArgument, "native: bind: %s: address %p is null or not %d-byte aligned", a.GetName(), ptr, align)
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
