package mrcosine

import (
	"cmp"
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The fast paths of signing, hashing and the sketch test must give the
// same bits as the plain reading they replace: snapshots store signatures,
// and the sketch test decides which pairs are compared.

// naiveSignature is Mohammadi and Khasteh 2020 §3.4 read one trigram
// occurrence at a time, with each gene's count in every part read from the
// reference's genes rather than from its table.
func naiveSignature(r *Reference, text string) []float32 {
	inPart := map[uint64][]float64{} // gene → its count in each part (at most 1 under Binary)
	for j := range r.Parts() {
		for _, g := range r.genes[r.bounds[j]:r.bounds[j+1]] {
			if inPart[g] == nil {
				inPart[g] = make([]float64, r.Parts())
			}
			if !r.tc.Binary || inPart[g][j] == 0 {
				inPart[g][j]++
			}
		}
	}
	var c counter
	dot := make([]float64, r.Parts())
	var ss float64
	eachTrigram(r.tc, text, &c.text, func(code uint64) {
		old := c.inc(code)
		if r.tc.Binary {
			if old > 0 {
				return
			}
			ss++
		} else {
			ss += float64(2*old + 1)
		}
		for j, n := range inPart[code] {
			dot[j] += n
		}
	})
	norm := math.Sqrt(ss)
	out := make([]float32, len(dot))
	for j, d := range dot {
		if d > 0 {
			out[j] = float32(min(d/(norm*r.pnorm[j]), 1))
		}
	}
	return out
}

func TestSignatureSameBits(t *testing.T) {
	texts := append(synthTexts(300, 11), "", "a", "ab", "abc abc abc", "Ünïcödé TEXT, text; TEXT!")
	binRef, err := NewReference(Default().Genes(), Default().Parts(), TextConfig{Binary: true})
	require.NoError(t, err)
	for _, r := range []*Reference{Default(), binRef} {
		for _, text := range texts {
			want, got := naiveSignature(r, text), r.Signature(text)
			require.Len(t, got, len(want))
			for j := range want {
				require.Equal(t, math.Float32bits(want[j]), math.Float32bits(got[j]), "part %d of %q", j, text)
			}
		}
	}
}

// naiveFWHT is the Walsh-Hadamard transform one level at a time, after
// negating the elements whose diagonal sign is −1.
func naiveFWHT(x, sf []float32) {
	for i := range x {
		if sf[i] < 0 {
			x[i] = -x[i]
		}
	}
	n := len(x)
	for h := 1; h < n; h *= 2 {
		for i := 0; i < n; i += 2 * h {
			for j := i; j < i+h; j++ {
				u, v := x[j], x[j+h]
				x[j], x[j+h] = u+v, u-v
			}
		}
	}
}

func TestFWHTSameBits(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{4, 8, 64, 128, 256, 512, 1024} {
		for range 50 {
			x, sf := make([]float32, n), make([]float32, n)
			for i := range x {
				x[i] = float32(rng.NormFloat64())
				if rng.IntN(8) == 0 {
					x[i] = 0
				}
				sf[i] = float32(1 - 2*rng.IntN(2))
			}
			want := append([]float32(nil), x...)
			naiveFWHT(want, sf)
			fwht(x, sf)
			for i := range x {
				require.Equal(t, math.Float32bits(want[i]), math.Float32bits(x[i]), "n %d element %d", n, i)
			}
		}
	}
}

func TestSignBits(t *testing.T) {
	h := newHasher(150, 68, 7, 1)
	buf := make([]float32, h.dim)
	rng := rand.New(rand.NewPCG(5, 6))
	for range 200 {
		x := make([]float32, 150)
		for i := range x {
			x[i] = float32(rng.NormFloat64())
		}
		pool := h.pool(nil, x, buf)
		// buf holds the last rotation: its signs are the last words.
		last := pool[len(pool)-h.dim/64:]
		for i, v := range buf {
			assert.Equal(t, v >= 0, last[i/64]>>(i%64)&1 == 1)
		}
	}
	// −0 counts as ≥ 0, as the comparison reads it.
	buf = make([]float32, h.dim)
	pool := h.pool(nil, make([]float32, 150), buf)
	for _, w := range pool {
		assert.Equal(t, ^uint64(0), w)
	}
}

func TestMaxBits(t *testing.T) {
	hi := hiCos()
	for n := 1; n < len(hi); n++ {
		require.LessOrEqual(t, hi[n], hi[n-1], "hiCos must not increase")
	}
	for _, lo := range []float64{-1, -0.5, 0, 0.3, 0.604, 0.67, 0.88, 0.95, 0.999, 1} {
		m := maxBits(lo)
		for n, c := range hi {
			assert.Equal(t, !(lo > c), n <= m, "lo %g n %d", lo, n)
		}
	}
	rng := rand.New(rand.NewPCG(7, 8))
	for range 1000 {
		var a, b sketch
		for i := range a {
			a[i], b[i] = rng.Uint64(), rng.Uint64()
		}
		require.Equal(t, hamming(a[:], b[:]), hamming8(&a, &b))
	}
}

// nearestSketches keeps the m nearest candidates by sketch distance and
// the ties of the m-th, as sorting them would, in the order met.
func TestNearestSketches(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 5))
	for trial := range 200 {
		n, m := 1+r.IntN(300), 1+r.IntN(80)
		near := make([]rankCand, n)
		for i := range near {
			near[i] = rankCand{g: uint32(i), h: r.IntN(1 + r.IntN(sketchWords*64))}
		}
		sorted := slices.Clone(near)
		slices.SortStableFunc(sorted, func(a, b rankCand) int { return cmp.Compare(a.h, b.h) })
		want := sorted
		if len(sorted) > m {
			want = sorted[:m]
			for len(want) < len(sorted) && sorted[len(want)].h == sorted[m-1].h {
				want = sorted[:len(want)+1]
			}
		}
		var wantG []uint32
		for _, c := range want {
			wantG = append(wantG, c.g)
		}
		slices.Sort(wantG)
		var got []uint32
		for _, c := range nearestSketches(near, m) {
			got = append(got, c.g)
		}
		require.True(t, slices.IsSorted(got), "trial %d: the order met is kept", trial)
		require.Equal(t, wantG, got, "trial %d: n %d, m %d", trial, n, m)
	}
}

// hamming counts the bits a and b differ in.
func hamming(a, b []uint64) int {
	n := 0
	for i := range sketchWords {
		n += bits.OnesCount64(a[i] ^ b[i])
	}
	return n
}
