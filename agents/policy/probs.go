package policy

import "math"

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
