package mrcosine

import (
	"math"
	"math/rand/v2"
)

// The index hashes each signature by the signs of pseudo-random
// projections (random-hyperplane LSH, Charikar 2002), taken from a few
// pseudo-random rotations instead of one dense hyperplane per sign: each
// rotation pads the vector to a power of two and applies three rounds of a
// random ±1 diagonal and the Walsh-Hadamard transform (the HD₃HD₂HD₁
// rotation of Andoni, Indyk, Laarhoven, Razenshteyn and Schmidt 2015,
// "Practical and Optimal LSH for Angular Distance", §5.2), which costs
// O(d log d) for d projections instead of O(d·Parts). Band b packs Rows
// signs drawn at random from the pool of all rotations' signs, so bands
// share signs; the loss this costs against exhaustive comparison is
// measured on real news (docs/mrcosine.md in the repository).

// sketchWords is the number of 64-bit words of sign bits a document keeps
// to reject candidates before the exact cosine.
const sketchWords = 8

// hasher computes the sign pool and band keys of a vector.
type hasher struct {
	dim   int       // padded length, a power of two ≥ Parts
	rots  int       // rotations
	signf []float32 // rots·3 random ±1 diagonals of dim each
	pick  []uint32  // Bands·Rows indices into the sign pool
	rows  int
	bands int
}

// poolRotations is the number of rotations whose signs a detector of
// bands·rows draws from: at least the sketch, about a quarter of what
// independent bands would use, at most 8.
func poolRotations(dim, bands, rows int) int {
	want := max(sketchWords*64, bands*rows/4)
	return min(max(1, (want+dim-1)/dim), 8)
}

func newHasher(parts, bands, rows int, seed uint64) *hasher {
	dim := 1
	for dim < parts {
		dim *= 2
	}
	dim = max(dim, 64)
	h := &hasher{dim: dim, rows: rows, bands: bands}
	h.rots = poolRotations(dim, bands, rows)
	rng := rand.New(rand.NewPCG(seed, 0x6879706572706c61))
	signs := make([]uint64, h.rots*3*dim/64) // bit set = −1 on the diagonal
	for i := range signs {
		signs[i] = rng.Uint64()
	}
	h.signf = make([]float32, h.rots*3*dim)
	for i := range h.signf {
		h.signf[i] = 1
		if signs[i>>6]>>(i&63)&1 != 0 {
			h.signf[i] = -1
		}
	}
	pool := h.rots * dim
	h.pick = make([]uint32, bands*rows)
	perm := make([]uint32, pool)
	for i := range perm {
		perm[i] = uint32(i)
	}
	for b := range bands {
		// Distinct signs within a band: a partial Fisher-Yates shuffle.
		for r := range rows {
			j := r + rng.IntN(pool-r)
			perm[r], perm[j] = perm[j], perm[r]
			h.pick[b*rows+r] = perm[r]
		}
	}
	return h
}

// poolWords is the length of the sign pool in 64-bit words.
func (h *hasher) poolWords() int { return h.rots * h.dim / 64 }

// pool appends the sign bits of x (len Parts ≤ dim) to dst, using buf
// (len dim) as scratch.
func (h *hasher) pool(dst []uint64, x []float32, buf []float32) []uint64 {
	for r := range h.rots {
		copy(buf, x)
		clear(buf[len(x):])
		for k := range 3 {
			fwht(buf, h.signf[(r*3+k)*h.dim:(r*3+k+1)*h.dim])
		}
		for w := 0; w < h.dim; w += 64 {
			var word uint64
			for i, v := range buf[w : w+64] {
				// The bit of v ≥ 0 without a branch (the signs are coin
				// flips): v is finite, and negative when its sign bit is
				// set and it is not −0.
				b := math.Float32bits(v)
				neg := b >> 31 & ((b&0x7fffffff + 0x7fffffff) >> 31)
				word |= uint64(neg^1) << i
			}
			dst = append(dst, word)
		}
	}
	return dst
}

// keys appends the band keys drawn from the sign pool.
func (h *hasher) keys(dst []uint64, pool []uint64) []uint64 {
	for b := range h.bands {
		var key uint64
		for r, p := range h.pick[b*h.rows : (b+1)*h.rows] {
			key |= (pool[p>>6] >> (p & 63) & 1) << r
		}
		dst = append(dst, key)
	}
	return dst
}

// fwht multiplies x by the ±1 diagonal sf and applies the unnormalised
// Walsh-Hadamard transform in place; len(x) = len(sf) is a power of two,
// at least 4. Signs are all the index needs, so the scale is left. The
// levels are taken two at a time (a radix-4 butterfly on x[j], x[j+h],
// x[j+2h], x[j+3h]): the same additions as one level at a time, so the
// same bits, with half the passes over x.
func fwht(x, sf []float32) {
	n := len(x)
	sf = sf[:n]
	for i := 0; i+4 <= n; i += 4 {
		b, s := x[i:i+4:i+4], sf[i:i+4:i+4]
		e0, e1, e2, e3 := b[0]*s[0], b[1]*s[1], b[2]*s[2], b[3]*s[3]
		s0, d0 := e0+e1, e0-e1
		s1, d1 := e2+e3, e2-e3
		b[0], b[2] = s0+s1, s0-s1
		b[1], b[3] = d0+d1, d0-d1
	}
	h := 4
	for ; 4*h <= n; h *= 4 {
		for i := 0; i < n; i += 4 * h {
			b0 := x[i : i+h : i+h]
			b1 := x[i+h : i+2*h : i+2*h][:len(b0)]
			b2 := x[i+2*h : i+3*h : i+3*h][:len(b0)]
			b3 := x[i+3*h : i+4*h : i+4*h][:len(b0)]
			for j := range b0 {
				e0, e1, e2, e3 := b0[j], b1[j], b2[j], b3[j]
				s0, d0 := e0+e1, e0-e1
				s1, d1 := e2+e3, e2-e3
				b0[j], b2[j] = s0+s1, s0-s1
				b1[j], b3[j] = d0+d1, d0-d1
			}
		}
	}
	if 2*h <= n { // an odd number of levels: one left
		for i := 0; i < n; i += 2 * h {
			a := x[i : i+h : i+h]
			b := x[i+h : i+2*h : i+2*h][:len(a)]
			for j := range a {
				u, v := a[j], b[j]
				a[j], b[j] = u+v, u-v
			}
		}
	}
}

// maxHamming returns the largest number of differing sketch bits out of
// sketchWords·64 with which a pair can still have cosine lo between its
// hashed vectors: the expected count at cosine lo plus five standard
// deviations, so a pair at or above lo is rejected with probability below
// 10⁻⁶ under the random-hyperplane model.
func maxHamming(lo float64) int {
	const n = sketchWords * 64
	if lo <= -1 {
		return n
	}
	p := math.Acos(min(lo, 1)) / math.Pi
	return int(math.Ceil(n*p + 5*math.Sqrt(n*p*(1-p)) + 1))
}
