package policy

import (
	"encoding/binary"
	"fmt"
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
)

// chunkRows is the most samples a [Batch] pushes through the network at
// once: it bounds the scratch (a Bomberman-sized network needs about 11 MB
// for 32 samples) while keeping the products large enough to be efficient.
const chunkRows = 32

// Tiles of the products handed to gonum. gonum's Dgemm splits a product
// into 64×64 blocks and, from 4 blocks of C on, runs them on new goroutines
// (which allocates); tiles of at most 3 blocks stay on the calling
// goroutine and allocate nothing. The k tile keeps the slice of weights a
// tile reads in cache while every sample of the tile uses it.
const (
	gemmBlock = 64  // gonum's blockSize
	gemmPar   = 4   // gonum's minParBlock: blocks of C from which Dgemm goes parallel
	tileN     = 192 // columns of C per call: 3 blocks
	tileK     = 128 // rows of B per call
)

// Batch is the scratch of forward passes over up to Cap observations: the
// raw observations and masks (filled by the caller), and the logits and
// probabilities [Batch.Forward] computes.
//
// A Batch is not safe for concurrent use: each goroutine needs its own
// (they may share the [Model]). After [Model.NewBatch], Forward does not
// allocate.
type Batch struct {
	m       *Model
	cap     int
	planes  []byte    // [cap][pStride] uint8, a sample's planes input first
	scalars []byte    // [cap][sStride] little-endian float32, a sample's scalars input first
	pStride int       // bytes of a planes row: PlanesLen, or a longer observation's
	sStride int       // bytes of a scalars row: 4*ScalarsLen, or a longer observation's
	mask    []uint8   // [cap][Actions]
	logits  []float64 // [cap][Outputs]
	probs   []float64 // [cap][Actions]
	head    headScratch

	actA, actB []float64 // [chunk][maxAct], channel-last
	cols       []float64 // one im2col tile
	x, y       []float64 // [chunk][maxFlat]
}

// NewBatch returns scratch for forward passes of up to capacity samples.
// It panics if capacity is less than 1.
func (m *Model) NewBatch(capacity int) *Batch {
	return m.newBatch(capacity, m.PlanesLen(), 4*m.scalarsLen)
}

// newBatch is [Model.NewBatch] with rows of pStride planes bytes and
// sStride scalars bytes, at least the model's: a row holds a whole
// observation of a game whose tensors the model's inputs are prefixes of
// (see [Model.Check]), and Forward reads the first bytes of each.
func (m *Model) newBatch(capacity, pStride, sStride int) *Batch {
	if pStride < m.PlanesLen() || sStride < 4*m.scalarsLen {
		panic(fmt.Sprintf("policy: rows of %d planes and %d scalars bytes, shorter than the model's %d and %d", pStride, sStride, m.PlanesLen(), 4*m.scalarsLen))
	}
	if capacity < 1 {
		panic(fmt.Sprintf("policy: NewBatch(%d): capacity must be at least 1", capacity))
	}
	chunk := min(capacity, chunkRows)
	a := m.actions
	cols := 0 // the largest im2col tile for chunks of this size
	for i := range m.convs {
		if ly := &m.convs[i]; ly.kind == kConv {
			K := ly.kvol * ly.inC
			cols = max(cols, min(colsTile(K), chunk*prod(ly.dims[:]))*K)
		}
	}
	return &Batch{
		m:       m,
		cap:     capacity,
		planes:  make([]byte, capacity*pStride),
		scalars: make([]byte, capacity*sStride),
		pStride: pStride,
		sStride: sStride,
		mask:    make([]uint8, capacity*a),
		logits:  make([]float64, capacity*m.outputs),
		probs:   make([]float64, capacity*a),
		head:    newHeadScratch(m.factored),
		actA:    make([]float64, chunk*m.maxAct),
		actB:    make([]float64, chunk*m.maxAct),
		cols:    make([]float64, cols),
		x:       make([]float64, chunk*m.maxFlat),
		y:       make([]float64, chunk*m.maxFlat),
	}
}

// Cap returns the most samples the batch holds.
func (b *Batch) Cap() int { return b.cap }

// Model returns the model the batch computes.
func (b *Batch) Model() *Model { return b.m }

// Planes returns sample k's planes input (uint8, the model's planes shape
// in C order), for the caller to fill. It aliases the batch.
func (b *Batch) Planes(k int) []byte {
	n := b.m.PlanesLen()
	return b.planes[k*b.pStride : k*b.pStride+n : k*b.pStride+n]
}

// planesRow returns sample k's whole planes row, the model's input first.
func (b *Batch) planesRow(k int) []byte {
	return b.planes[k*b.pStride : (k+1)*b.pStride : (k+1)*b.pStride]
}

// Scalars returns sample k's scalars input (little-endian float32), for the
// caller to fill. It aliases the batch.
func (b *Batch) Scalars(k int) []byte {
	n := 4 * b.m.scalarsLen
	return b.scalars[k*b.sStride : k*b.sStride+n : k*b.sStride+n]
}

// scalarsRow returns sample k's whole scalars row, the model's input
// first.
func (b *Batch) scalarsRow(k int) []byte {
	return b.scalars[k*b.sStride : (k+1)*b.sStride : (k+1)*b.sStride]
}

// Mask returns sample k's action mask (1 = legal), for the caller to fill.
// It aliases the batch.
func (b *Batch) Mask(k int) []uint8 {
	n := b.m.actions
	return b.mask[k*n : (k+1)*n : (k+1)*n]
}

// Logits returns sample k's logits from the last Forward: one per action
// for a flat head, a factored head's command and cell logits otherwise
// ([Model.Outputs] of them). It aliases the batch and is overwritten by the
// next Forward.
func (b *Batch) Logits(k int) []float64 {
	n := b.m.outputs
	return b.logits[k*n : (k+1)*n : (k+1)*n]
}

// Probs returns sample k's action probabilities from the last Forward
// (see [Probabilities]). It aliases the batch and is overwritten by the
// next Forward.
func (b *Batch) Probs(k int) []float64 {
	n := b.m.actions
	return b.probs[k*n : (k+1)*n : (k+1)*n]
}

// Forward computes the logits and probabilities of samples 0..n-1 from
// their planes, scalars and masks, in float64. Each sample's result depends
// only on its own inputs, bit for bit, whatever n and the sample's position
// in the batch. It panics if n is outside 0..Cap(). It does not allocate.
func (b *Batch) Forward(n int) {
	if n < 0 || n > b.cap {
		panic(fmt.Sprintf("policy: Forward(%d) on a batch of capacity %d", n, b.cap))
	}
	for lo := 0; lo < n; lo += chunkRows {
		b.forwardChunk(lo, min(n, lo+chunkRows))
	}
	a, o := b.m.actions, b.m.outputs
	for k := range n {
		if f := b.m.factored; f != nil {
			f.probabilities(b.probs[k*a:(k+1)*a], b.logits[k*o:(k+1)*o], b.mask[k*a:(k+1)*a], &b.head)
		} else {
			Probabilities(b.probs[k*a:(k+1)*a], b.logits[k*a:(k+1)*a], b.mask[k*a:(k+1)*a])
		}
	}
}

// forwardChunk runs samples lo..hi-1 through the network.
func (b *Batch) forwardChunk(lo, hi int) {
	m := b.m
	n := hi - lo
	// Input: planes [C, positions] uint8 to channel-last float64, scaled.
	c := m.planesShape[0]
	pos := m.PlanesLen() / c
	cur, next := b.actA, b.actB
	for r := range n {
		src := b.Planes(lo + r)
		dst := cur[r*m.maxAct:]
		for ch := range c {
			s := m.planesScale[ch]
			row := src[ch*pos : (ch+1)*pos]
			for p, v := range row {
				dst[p*c+ch] = float64(v) * s
			}
		}
	}
	for i := range m.convs {
		ly := &m.convs[i]
		switch ly.kind {
		case kConv:
			b.conv(ly, cur, next, n)
			cur, next = next, cur
		case kReLU, kTanh:
			size := ly.out * prod(ly.dims[:])
			for r := range n {
				activate(ly.kind, cur[r*m.maxAct:r*m.maxAct+size])
			}
		}
	}
	// Flatten: channel-last back to C order, then the scaled scalars.
	x, y := b.x, b.y
	w := m.maxFlat
	fc, fp := m.flatC, m.flatPos
	for r := range n {
		src := cur[r*m.maxAct:]
		dst := x[r*w : r*w+m.features]
		for p := range fp {
			for ch := range fc {
				dst[ch*fp+p] = src[p*fc+ch]
			}
		}
		sc := b.Scalars(lo + r)
		for i, s := range m.scalarsScl {
			dst[fc*fp+i] = float64(math.Float32frombits(binary.LittleEndian.Uint32(sc[4*i:]))) * s
		}
	}
	width := m.features
	for i := range m.head {
		ly := &m.head[i]
		switch ly.kind {
		case kLinear:
			for r := range n {
				copy(y[r*w:r*w+ly.out], ly.b)
			}
			gemm(n, ly.out, ly.inC, x, w, ly.w, ly.out, y, w)
			x, y = y, x
			width = ly.out
		case kReLU, kTanh:
			for r := range n {
				activate(ly.kind, x[r*w:r*w+width])
			}
		}
	}
	o := m.outputs
	for r := range n {
		copy(b.logits[(lo+r)*o:(lo+r+1)*o], x[r*w:r*w+o])
	}
}

// conv computes convolution ly over n samples of channel-last activations
// in (stride maxAct per sample) into out: im2col one tile of output
// positions at a time, then one product with the [(kernel, in), out]
// weights.
func (b *Batch) conv(ly *layer, in, out []float64, n int) {
	m := b.m
	K := ly.kvol * ly.inC
	oPos := prod(ly.dims[:])
	rows := n * oPos
	tile := colsTile(K) // NewBatch sized cols for min(tile, rows) rows
	for r0 := 0; r0 < rows; r0 += tile {
		r1 := min(rows, r0+tile)
		// Rows r0..r1-1 are (sample, position) pairs; a tile may span
		// samples, whose outputs lie maxAct apart, so a tile is split at
		// sample boundaries for the product.
		for r := r0; r < r1; r++ {
			b.im2col(ly, in, r/oPos, r%oPos, b.cols[(r-r0)*K:(r-r0+1)*K])
		}
		for r := r0; r < r1; {
			s, p := r/oPos, r%oPos
			cnt := min(r1-r, oPos-p)
			c := out[s*m.maxAct+p*ly.out:]
			for i := range cnt {
				copy(c[i*ly.out:(i+1)*ly.out], ly.b)
			}
			gemm(cnt, ly.out, K, b.cols[(r-r0)*K:], K, ly.w, ly.out, c, ly.out)
			r += cnt
		}
	}
}

// im2col writes the input patch of output position p of sample s into dst:
// for each kernel offset (kd, kh, kw) the inC channels there, zero where
// the patch lies in the padding.
func (b *Batch) im2col(ly *layer, in []float64, s, p int, dst []float64) {
	m := b.m
	src := in[s*m.maxAct:]
	ox := p % ly.dims[2]
	oy := (p / ly.dims[2]) % ly.dims[1]
	oz := p / (ly.dims[2] * ly.dims[1])
	c := ly.inC
	j := 0
	for kz := range ly.k[0] {
		iz := oz*ly.s[0] - ly.p[0] + kz
		for ky := range ly.k[1] {
			iy := oy*ly.s[1] - ly.p[1] + ky
			for kx := range ly.k[2] {
				ix := ox*ly.s[2] - ly.p[2] + kx
				d := dst[j : j+c]
				if iz < 0 || iz >= ly.in[0] || iy < 0 || iy >= ly.in[1] || ix < 0 || ix >= ly.in[2] {
					clear(d)
				} else {
					q := ((iz*ly.in[1]+iy)*ly.in[2] + ix) * c
					copy(d, src[q:q+c])
				}
				j += c
			}
		}
	}
}

// colsTile returns the number of im2col rows per tile for rows of K
// values: about 256 KB of them, at least one block.
func colsTile(K int) int {
	return max(gemmBlock, min(1024, (256<<10)/8/max(K, 1)))
}

// gemm adds A·B to C, where A is m×k (row stride lda), B is k×n (ldb) and
// C is m×n (ldc), all row-major, in tiles small enough that gonum's Dgemm
// runs them serially without allocating. Every element of C accumulates
// its k products in index order, whatever m, so a row's result does not
// depend on the other rows.
func gemm(m, n, k int, a []float64, lda int, b []float64, ldb int, c []float64, ldc int) {
	tn := min(n, tileN)
	nBlocks := (tn + gemmBlock - 1) / gemmBlock
	tm := gemmBlock * max(1, (gemmPar-1)/nBlocks) // tileN keeps nBlocks at 3 or less
	for j := 0; j < n; j += tn {
		nj := min(tn, n-j)
		for l := 0; l < k; l += tileK {
			kl := min(tileK, k-l)
			for i := 0; i < m; i += tm {
				mi := min(tm, m-i)
				blas64.Gemm(blas.NoTrans, blas.NoTrans, 1,
					blas64.General{Rows: mi, Cols: kl, Stride: lda, Data: a[i*lda+l:]},
					blas64.General{Rows: kl, Cols: nj, Stride: ldb, Data: b[l*ldb+j:]},
					1,
					blas64.General{Rows: mi, Cols: nj, Stride: ldc, Data: c[i*ldc+j:]})
			}
		}
	}
}

// activate applies relu or tanh in place.
func activate(k kind, x []float64) {
	if k == kReLU {
		for i, v := range x {
			if v < 0 {
				x[i] = 0
			}
		}
		return
	}
	for i, v := range x {
		x[i] = math.Tanh(v)
	}
}
