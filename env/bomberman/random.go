package bomberman

// dotnetRandom is a port of .NET's System.Random seeded algorithm (Knuth's
// subtractive generator as .NET implements it), which the original map
// generator uses. All arithmetic is int32 with wrap-around, as in C#.
type dotnetRandom struct {
	seedArray [56]int32
	inext     int
	inextp    int
}

const (
	netMBIG  = 2147483647
	netMSEED = 161803398
)

// newDotnetRandom returns the generator `new Random(seed)` would give.
func newDotnetRandom(seed int32) dotnetRandom {
	var r dotnetRandom
	r.seed(seed)
	return r
}

// initialMJ is the first value of .NET's seeding, MSEED - |seed| (with
// |MinValue| taken as MBIG), stored at a[55].
func initialMJ(seed int32) int32 {
	subtraction := seed
	if seed == -2147483648 {
		subtraction = netMBIG
	} else if seed < 0 {
		subtraction = -seed
	}
	return int32(netMSEED) - subtraction
}

func (r *dotnetRandom) seed(seed int32) {
	mj := initialMJ(seed)
	a := &r.seedArray
	a[55] = mj
	spreadSeed(a, mj, 1)
	for k := 1; k < 5; k++ {
		// a[i] -= a[1 + (i+30) mod 55]: i+31 for i < 25, i-24 after; two
		// at a time (a[i-24] for i >= 49 was updated earlier in this pass,
		// as in the original order).
		for i := 1; i < 25; i += 2 {
			a[i] = wrapNonNegative(a[i] - a[i+31])
			a[i+1] = wrapNonNegative(a[i+1] - a[i+32])
		}
		for i := 25; i < 55; i += 2 {
			a[i] = wrapNonNegative(a[i] - a[i-24])
			a[i+1] = wrapNonNegative(a[i+1] - a[i-23])
		}
		a[55] = wrapNonNegative(a[55] - a[31])
	}
	r.inext = 0
	r.inextp = 21
}

// spreadSeed is the first loop of .NET's seeding, unrolled: for i = 1..54
// it stores mk at a[21*i mod 55], then mk, mj = mj-mk (plus MBIG when
// negative), mk; p is mj and q is mk on entry, and the two swap roles
// from one store to the next.
func spreadSeed(a *[56]int32, p, q int32) {
	a[21] = q
	p = wrapNonNegative(p - q)
	a[42] = p
	q = wrapNonNegative(q - p)
	a[8] = q
	p = wrapNonNegative(p - q)
	a[29] = p
	q = wrapNonNegative(q - p)
	a[50] = q
	p = wrapNonNegative(p - q)
	a[16] = p
	q = wrapNonNegative(q - p)
	a[37] = q
	p = wrapNonNegative(p - q)
	a[3] = p
	q = wrapNonNegative(q - p)
	a[24] = q
	p = wrapNonNegative(p - q)
	a[45] = p
	q = wrapNonNegative(q - p)
	a[11] = q
	p = wrapNonNegative(p - q)
	a[32] = p
	q = wrapNonNegative(q - p)
	a[53] = q
	p = wrapNonNegative(p - q)
	a[19] = p
	q = wrapNonNegative(q - p)
	a[40] = q
	p = wrapNonNegative(p - q)
	a[6] = p
	q = wrapNonNegative(q - p)
	a[27] = q
	p = wrapNonNegative(p - q)
	a[48] = p
	q = wrapNonNegative(q - p)
	a[14] = q
	p = wrapNonNegative(p - q)
	a[35] = p
	q = wrapNonNegative(q - p)
	a[1] = q
	p = wrapNonNegative(p - q)
	a[22] = p
	q = wrapNonNegative(q - p)
	a[43] = q
	p = wrapNonNegative(p - q)
	a[9] = p
	q = wrapNonNegative(q - p)
	a[30] = q
	p = wrapNonNegative(p - q)
	a[51] = p
	q = wrapNonNegative(q - p)
	a[17] = q
	p = wrapNonNegative(p - q)
	a[38] = p
	q = wrapNonNegative(q - p)
	a[4] = q
	p = wrapNonNegative(p - q)
	a[25] = p
	q = wrapNonNegative(q - p)
	a[46] = q
	p = wrapNonNegative(p - q)
	a[12] = p
	q = wrapNonNegative(q - p)
	a[33] = q
	p = wrapNonNegative(p - q)
	a[54] = p
	q = wrapNonNegative(q - p)
	a[20] = q
	p = wrapNonNegative(p - q)
	a[41] = p
	q = wrapNonNegative(q - p)
	a[7] = q
	p = wrapNonNegative(p - q)
	a[28] = p
	q = wrapNonNegative(q - p)
	a[49] = q
	p = wrapNonNegative(p - q)
	a[15] = p
	q = wrapNonNegative(q - p)
	a[36] = q
	p = wrapNonNegative(p - q)
	a[2] = p
	q = wrapNonNegative(q - p)
	a[23] = q
	p = wrapNonNegative(p - q)
	a[44] = p
	q = wrapNonNegative(q - p)
	a[10] = q
	p = wrapNonNegative(p - q)
	a[31] = p
	q = wrapNonNegative(q - p)
	a[52] = q
	p = wrapNonNegative(p - q)
	a[18] = p
	q = wrapNonNegative(q - p)
	a[39] = q
	p = wrapNonNegative(p - q)
	a[5] = p
	q = wrapNonNegative(q - p)
	a[26] = q
	p = wrapNonNegative(p - q)
	a[47] = p
	q = wrapNonNegative(q - p)
	a[13] = q
	p = wrapNonNegative(p - q)
	a[34] = p
}

// wrapNonNegative adds MBIG to a negative v, without a branch (the sign is
// random, so a branch mispredicts half the time).
func wrapNonNegative(v int32) int32 { return v + netMBIG&(v>>31) }

// internalSample is .NET's InternalSample: the next raw draw in [0, MBIG).
func (r *dotnetRandom) internalSample() int32 {
	i, j := r.inext+1, r.inextp+1
	if i >= 56 {
		i = 1
	}
	if j >= 56 {
		j = 1
	}
	r.inext, r.inextp = i, j
	v := r.seedArray[i] - r.seedArray[j]
	if v == netMBIG {
		v--
	}
	v = wrapNonNegative(v) // if v < 0, without a branch
	r.seedArray[i] = v
	return v
}

// fill writes the next len(dst) raw draws into dst, as that many calls of
// internalSample would return them. Draw index i subtracts index i+21
// while i <= 34 and i-34 after, so each run between wrap-arounds is a
// plain loop.
func (r *dotnetRandom) fill(dst []int32) {
	a := &r.seedArray
	i := r.inext // the index of the last draw, 0 before the first
	for len(dst) > 0 {
		if i >= 55 {
			i = 0
		}
		n, lag := 34-i, 21
		if i >= 34 {
			n, lag = 55-i, -34
		}
		n = min(n, len(dst))
		run := a[i+1 : i+1+n]
		src, out := a[i+1+lag:][:len(run)], dst[:len(run)]
		for k := range run {
			v := run[k] - src[k]
			if v == netMBIG {
				v--
			}
			v = wrapNonNegative(v)
			run[k], out[k] = v, v
		}
		dst = dst[n:]
		i += n
	}
	r.inext = i
	r.inextp = i + 21
	if i > 34 {
		r.inextp = i - 34
	}
}

// Next is Random.Next(): a draw in [0, 2147483647).
func (r *dotnetRandom) Next() int32 { return r.internalSample() }

// Sample is Random.Sample(): a float64 in [0, 1), multiplying by the
// reciprocal as .NET does.
func (r *dotnetRandom) Sample() float64 { return float64(r.internalSample()) * (1.0 / netMBIG) }

// NextN is Random.Next(max): an int in [0, max).
func (r *dotnetRandom) NextN(max int) int { return int(r.Sample() * float64(max)) }

// NextRange is Random.Next(min, max) for the small ranges the engine uses:
// an int in [min, max).
func (r *dotnetRandom) NextRange(min, max int) int {
	return int(r.Sample()*float64(max-min)) + min
}

// drawLimit returns the smallest raw draw (see internalSample) for which
// NextRange(0, n) is at least k: NextRange(0, n) < k exactly when the raw
// draw is below it, since Sample()*n grows with the draw. The map
// generator compares raw draws with it instead of converting each draw.
func drawLimit(k, n int) int32 {
	lo, hi := int32(0), int32(netMBIG)
	for lo < hi {
		mid := lo + (hi-lo)/2
		if int(float64(mid)*(1.0/netMBIG)*float64(n)) >= k {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo
}
