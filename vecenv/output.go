package vecenv

import (
	"errors"
	"fmt"

	"github.com/botarena/botarena/env"
)

// ErrOutput is wrapped by the errors of [Pool.SetOutput] and [NewAsync]
// for an [Output] of the wrong shape.
var ErrOutput = errors.New("vecenv: invalid output")

// Output is memory a pool writes learner rows into: the step buffers,
// laid out like [Pool.Buffers], the Ended flags like [Pool.Ended] and, in
// [SameStep] mode, the final observations like [Pool.FinalObs]. The
// caller may allocate it anywhere, memory the Go runtime does not manage
// included (a C allocation, or numpy arrays that a Python process passes
// to an in-process pool), so that the pool's writes are the only copy of a
// step's results. The pool keeps the slices, never the Output value.
type Output struct {
	// Buffers are the rows; Buffers.Spec must be the pool's [Pool.Spec].
	Buffers *env.Buffers
	// Ended has one flag per row.
	Ended []bool
	// FinalObs has, in SameStep mode, one slice per tensor of Spec.Obs
	// laid out like Buffers.Obs; it must be nil in NextStep mode.
	FinalObs [][]byte
}

// NewOutput allocates an Output of rows rows for p's spec and autoreset
// mode (with FinalObs in [SameStep] mode). On Linux its observation and
// mask buffers are advised to transparent huge pages (see
// adviseHugePages); the pool's own buffers are made the same way.
func (p *Pool) NewOutput(rows int) Output {
	out := Output{Buffers: env.NewBuffers(p.spec, rows), Ended: make([]bool, rows)}
	if p.mode == SameStep {
		out.FinalObs = make([][]byte, len(p.spec.Obs))
		for t, n := range p.tensorLen {
			out.FinalObs[t] = make([]byte, rows*n)
		}
	}
	for _, b := range out.Buffers.Obs {
		adviseHugePages(b)
	}
	for _, b := range out.FinalObs {
		adviseHugePages(b)
	}
	adviseHugePages(out.Buffers.Mask)
	return out
}

// checkOutput returns an error wrapping [ErrOutput] unless out has rows rows
// of p's spec and the FinalObs p's mode needs.
func (p *Pool) checkOutput(out Output, rows int) error {
	b := out.Buffers
	switch {
	case b == nil:
		return fmt.Errorf("%w: no Buffers", ErrOutput)
	case b.Spec != p.spec:
		return fmt.Errorf("%w: Buffers.Spec is not the pool's Spec()", ErrOutput)
	case b.Rows != rows:
		return fmt.Errorf("%w: %d rows, want %d", ErrOutput, b.Rows, rows)
	case len(out.Ended) != rows:
		return fmt.Errorf("%w: Ended has %d entries, want %d", ErrOutput, len(out.Ended), rows)
	}
	if err := b.Check(); err != nil {
		return fmt.Errorf("%w: %w", ErrOutput, err)
	}
	if p.mode != SameStep {
		if out.FinalObs != nil {
			return fmt.Errorf("%w: FinalObs must be nil in %s mode", ErrOutput, p.mode)
		}
		return nil
	}
	if len(out.FinalObs) != len(p.tensorLen) {
		return fmt.Errorf("%w: FinalObs has %d tensors, want %d", ErrOutput, len(out.FinalObs), len(p.tensorLen))
	}
	for t, n := range p.tensorLen {
		if len(out.FinalObs[t]) != rows*n {
			return fmt.Errorf("%w: FinalObs[%d] (%s) has %d bytes, want %d rows × %d", ErrOutput, t, p.spec.Obs[t].Name, len(out.FinalObs[t]), rows, n)
		}
	}
	return nil
}

// SetOutput makes p write its rows into out instead of the buffers it
// wrote so far: from now on [Pool.Buffers], [Pool.Ended] and
// [Pool.FinalObs] return out's slices. The current contents (the last
// Reset or Step) are copied into out, and the Env and Seat columns are
// filled; nothing else is ever copied. The previous buffers are no longer
// written.
//
// out must have [Pool.Rows] rows of p's spec, and FinalObs exactly in
// [SameStep] mode; otherwise SetOutput returns an error wrapping
// [ErrOutput] and p is unchanged. It returns [ErrClosed] after Close.
//
// out's memory must stay valid, and must not be written by anyone else,
// until p is closed or given another Output. Like every method, SetOutput
// must not run concurrently with Step (or while an [Async] of p has envs
// in flight).
func (p *Pool) SetOutput(out Output) error {
	if p.closed {
		return ErrClosed
	}
	if err := p.checkOutput(out, p.rows); err != nil {
		return err
	}
	old, b := p.out, out.Buffers
	for t := range b.Obs {
		copy(b.Obs[t], old.Obs[t])
	}
	copy(b.Mask, old.Mask)
	copy(b.Rewards, old.Rewards)
	copy(b.Terminated, old.Terminated)
	copy(b.Truncated, old.Truncated)
	copy(b.Env, old.Env)
	copy(b.Seat, old.Seat)
	copy(b.Episode, old.Episode)
	copy(out.Ended, old.ended)
	for t := range out.FinalObs {
		copy(out.FinalObs[t], old.final[t])
	}
	// The new rows' observations are written in full at the next step
	// and masks (every rowView's versions 0: unknown).
	p.out = versioned(b, out.FinalObs, out.Ended)
	return nil
}
