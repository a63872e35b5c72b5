package policy

import (
	"fmt"
	"math"
)

// Probabilities writes into dst the action probabilities of logits under
// mask, as docs/policy-format.md defines them: the softmax of the logits
// over the legal actions (mask != 0) and exactly 0 for the illegal ones;
// if no action is legal, every action counts as legal. dst, logits and mask
// have one element per action (dst may be logits); a length mismatch
// panics. It does not allocate.
func Probabilities(dst, logits []float64, mask []uint8) {
	if len(dst) != len(logits) || len(mask) != len(logits) {
		panic("policy: Probabilities: dst, logits and mask must have one element per action")
	}
	all := allIllegal(mask)
	mx := math.Inf(-1)
	for i, z := range logits {
		if (all || mask[i] != 0) && z > mx {
			mx = z
		}
	}
	sum := 0.0
	for i, z := range logits {
		if all || mask[i] != 0 {
			e := math.Exp(z - mx)
			dst[i] = e
			sum += e
		} else {
			dst[i] = 0
		}
	}
	for i := range dst {
		dst[i] /= sum
	}
}

// ArgMax returns the legal action (mask != 0; every action if none is
// legal) with the highest logit, the lowest index among equals: the action
// `policy:PATH` plays. It panics if logits is empty or mask's length
// differs.
func ArgMax(logits []float64, mask []uint8) int32 {
	if len(logits) == 0 || len(mask) != len(logits) {
		panic("policy: ArgMax: logits and mask must have one element per action")
	}
	all := allIllegal(mask)
	best := -1
	for i, z := range logits {
		if (all || mask[i] != 0) && (best < 0 || z > logits[best]) {
			best = i
		}
	}
	return int32(best)
}

// Sample returns the action that u, a uniform number in [0, 1), picks from
// the probabilities p: the first action whose cumulative probability
// exceeds u, skipping actions of probability 0. When rounding leaves u at
// or above the total, it returns the last action of non-zero probability.
// It panics if p has no positive element.
func Sample(p []float64, u float64) int32 {
	cum := 0.0
	last := -1
	for i, q := range p {
		if q <= 0 {
			continue
		}
		cum += q
		last = i
		if u < cum {
			return int32(i)
		}
	}
	if last < 0 {
		panic("policy: Sample: no action has a positive probability")
	}
	return int32(last)
}

func allIllegal(mask []uint8) bool {
	for _, v := range mask {
		if v != 0 {
			return false
		}
	}
	return true
}

// headScratch is what a factored head's probabilities need per command.
type headScratch struct {
	legal    []bool    // the command has a legal action
	max, sum []float64 // over the command's legal cells: the largest cell logit, the sum of exp(z − max)
}

func newHeadScratch(f *factored) headScratch {
	if f == nil {
		return headScratch{}
	}
	return headScratch{legal: make([]bool, f.commands), max: make([]float64, f.commands), sum: make([]float64, f.commands)}
}

// probabilities writes into dst the action probabilities of a factored
// head's outputs out under mask, as docs/policy-format.md defines them:
// p(a) = p(command) · p(cell | command), where p(command) is the softmax of
// the command logits over the commands with a legal action, and p(cell |
// command) the softmax of the command's cell logits over its legal actions;
// illegal actions get exactly 0, and if no action is legal every action
// counts as legal. It does not allocate.
func (f *factored) probabilities(dst, out []float64, mask []uint8, h *headScratch) {
	all := allIllegal(mask)
	for k := range f.commands {
		h.legal[k], h.max[k], h.sum[k] = false, math.Inf(-1), 0
	}
	for a, m := range mask {
		if all || m != 0 {
			k := f.command[a]
			h.legal[k] = true
			h.max[k] = max(h.max[k], out[f.cellOut[a]])
		}
	}
	cmax := math.Inf(-1)
	for k, ok := range h.legal {
		if ok {
			cmax = max(cmax, out[k])
		}
	}
	csum := 0.0
	for k, ok := range h.legal {
		if ok {
			csum += math.Exp(out[k] - cmax)
		}
	}
	for a, m := range mask {
		if all || m != 0 {
			k := f.command[a]
			e := math.Exp(out[f.cellOut[a]] - h.max[k])
			dst[a] = e
			h.sum[k] += e
		} else {
			dst[a] = 0
		}
	}
	for a, m := range mask {
		if all || m != 0 {
			k := f.command[a]
			dst[a] = math.Exp(out[k]-cmax) / csum * (dst[a] / h.sum[k])
		}
	}
}

// mostLikely returns the action of highest probability in p, the lowest
// index among equals: the arg-max `policy:PATH` plays for a factored head.
// It panics if p is empty.
func mostLikely(p []float64) int32 {
	if len(p) == 0 {
		panic("policy: mostLikely: no actions")
	}
	best := 0
	for i, q := range p {
		if q > p[best] {
			best = i
		}
	}
	return int32(best)
}

// SampleTemperature returns the action that u, a uniform number in [0, 1),
// picks from the probabilities p raised to the power 1/t and renormalised:
// t = 1 draws as [Sample] does, t below 1 sharpens the distribution towards
// the arg-max, t above 1 flattens it; actions of probability 0 are never
// picked. It is what `policy:PATH?temp=T` plays. It panics if p has no
// positive element or t is not above 0. It does not allocate.
func SampleTemperature(p []float64, t, u float64) int32 {
	if !(t > 0) {
		panic(fmt.Sprintf("policy: SampleTemperature: temperature %v, want above 0", t))
	}
	top := 0.0
	for _, q := range p {
		top = max(top, q)
	}
	if top <= 0 {
		panic("policy: SampleTemperature: no action has a positive probability")
	}
	lt := math.Log(top)
	w := func(q float64) float64 { return math.Exp((math.Log(q) - lt) / t) }
	sum := 0.0
	for _, q := range p {
		if q > 0 {
			sum += w(q)
		}
	}
	target := u * sum
	cum := 0.0
	last := -1
	for i, q := range p {
		if q <= 0 {
			continue
		}
		cum += w(q)
		last = i
		if target < cum {
			return int32(i)
		}
	}
	return int32(last)
}
