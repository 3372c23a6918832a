package minhash

import (
	"fmt"
	"math"
	"sync"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/hashtab"
)

// Similarity returns the MinHash estimate of the Jaccard similarity of
// the sets behind signatures a and b (for ICWS signatures, of the weighted
// Jaccard): the fraction of agreeing positions among those where at least
// one signature holds a sampled value. A value with the top bit set marks
// a one-permutation bin that no element fell into, filled by densification
// only so that LSH bands stay comparable; bins marked in both signatures
// are left out and a bin marked in one only counts as a disagreement. That
// is the estimator N_mat/(K − N_emp) of Li, Owen and Zhang (One Permutation
// Hashing, NIPS 2012, §3), unbiased, with an error below the densified
// signatures' and K-hash MinHash's (internal/peerbench
// TestRecallOverSeeds). K-hash and weighted signatures
// never mark a value, so for them it is the plain fraction of agreeing
// positions, standard error √(J(1−J)/K).
//
// It returns 0 if either signature is empty or every position is marked
// in both, and panics if the lengths differ (signatures of different
// Configs). It does not allocate.
func Similarity(a, b []uint32) float64 {
	if len(a) == 0 || len(b) == 0 {
		return 0
	}
	if len(a) != len(b) {
		panic(fmt.Sprintf("minhash: Similarity of signatures of lengths %d and %d", len(a), len(b)))
	}
	b = b[:len(a)]
	eq, both := 0, 0
	for i, v := range a {
		w := b[i]
		if v == w && v&densifiedBit == 0 {
			eq++
		}
		if v&w&densifiedBit != 0 {
			both++
		}
	}
	if both == len(a) {
		return 0
	}
	return float64(eq) / float64(len(a)-both)
}

// ContainmentOf estimates |A∩C|/|A|, the containment of A in C, from the
// estimated Jaccard j of A and C and their set sizes: |A∩C| = J(|A|+|C|)/(1+J),
// so Ĉ = (|C|/|A| + 1)·Ĵ/(1+Ĵ), clipped to [0, 1]. It is
// 0 when either size is 0. Its relative error grows with |C|/|A|.
func ContainmentOf(j float64, sizeA, sizeC int) float64 {
	if sizeA <= 0 || sizeC <= 0 || !(j > 0) {
		return 0
	}
	j = min(j, 1) // a Jaccard estimate above 1 (or +Inf) is 1
	c := (float64(sizeC)/float64(sizeA) + 1) * j / (1 + j)
	return min(c, 1)
}

// collision returns P(s) = 1 − (1 − s^r)^b, the probability that two sets of
// similarity s share at least one of b bands of r rows (MMDS §3.4).
func collision(s float64, b, r int) float64 {
	return 1 - math.Pow(1-math.Pow(s, float64(r)), float64(b))
}

// integrate is Simpson's rule on [lo, hi] with 64 intervals.
func integrate(f func(float64) float64, lo, hi float64) float64 {
	if hi <= lo {
		return 0
	}
	const n = 64
	h := (hi - lo) / n
	sum := f(lo) + f(hi)
	for i := 1; i < n; i++ {
		w := 2.0
		if i%2 == 1 {
			w = 4
		}
		sum += w * f(lo+float64(i)*h)
	}
	return sum * h / 3
}

// Params returns the LSH banding (bands, rows), bands·rows ≤ k, for a
// Jaccard threshold: the pair minimising
//
//	fpWeight·∫₀ᵗ P(s) ds + fnWeight·∫ₜ¹ (1 − P(s)) ds,  P(s) = 1 − (1 − s^rows)^bands,
//
// the expected false positive and false negative probability under a
// uniform prior on similarity (datasketch _optimal_param).
// At k = 128 with equal weights it gives (25, 5) for t = 0.5 and (9, 13)
// for t = 0.8. It returns an error wrapping detector.ErrInvalidConfig for a
// threshold outside (0, 1], k < 1 or a weight that is not a positive
// finite number.
//
// Params is O(k log k) integrations of 65 points each.
func Params(threshold float64, k int, fpWeight, fnWeight float64) (bands, rows int, err error) {
	if !(threshold > 0 && threshold <= 1) || k < 1 || !(fpWeight > 0 && fpWeight <= math.MaxFloat64) || !(fnWeight > 0 && fnWeight <= math.MaxFloat64) {
		return 0, 0, fmt.Errorf("minhash: Params(%v, %d, %v, %v): threshold must be in (0, 1], k ≥ 1, weights positive and finite: %w",
			threshold, k, fpWeight, fnWeight, detector.ErrInvalidConfig)
	}
	key := paramsKey{threshold, k, fpWeight, fnWeight}
	if v, ok := paramsCache.Load(key); ok {
		br := v.([2]int)
		return br[0], br[1], nil
	}
	best := math.Inf(1)
	for b := 1; b <= k; b++ {
		for r := 1; b*r <= k; r++ {
			fp := integrate(func(s float64) float64 { return collision(s, b, r) }, 0, threshold)
			fn := integrate(func(s float64) float64 { return 1 - collision(s, b, r) }, threshold, 1)
			if e := fpWeight*fp + fnWeight*fn; e < best-1e-12 {
				best, bands, rows = e, b, r
			}
		}
	}
	paramsCache.Store(key, [2]int{bands, rows})
	return bands, rows, nil
}

// paramsCache memoises Params, a pure function that costs milliseconds.
var paramsCache sync.Map // paramsKey → [2]int

type paramsKey struct {
	threshold float64
	k         int
	fp, fn    float64
}

// AppendBandKeys appends the LSH band keys of sig under (bands, rows) to dst:
// key i hashes values [i·rows, (i+1)·rows) together with i, so equal keys in
// the same band mean equal values (up to 64-bit collisions). These are also
// the supershingles of Alonso et al. 2013 §3 ("hashes of a collection of
// samples") when bands·rows covers the signature. It panics if bands·rows
// exceeds len(sig).
func AppendBandKeys(dst []uint64, sig []uint32, bands, rows int) []uint64 {
	if bands*rows > len(sig) {
		panic(fmt.Sprintf("minhash: %d bands of %d rows over a signature of %d values", bands, rows, len(sig)))
	}
	for i := range bands {
		dst = append(dst, bandKey(sig, i, rows))
	}
	return dst
}

// bandKey returns the key of band b of sig under rows rows per band, as
// [AppendBandKeys] appends it.
func bandKey(sig []uint32, b, rows int) uint64 {
	h := hashtab.Mix64(uint64(b) + 1)
	for _, v := range sig[b*rows : (b+1)*rows] {
		h = hashtab.Combine(h, uint64(v))
	}
	return h
}

// maxProbe bounds the groups probed per band key by Add, Query and
// Containers: the newest maxProbe groups of exact copies sharing a key,
// the query's own group not counted. A key shared by more (a stream
// flooded with near-copies of one story) then costs a query no more than
// maxProbe candidates per band, where walking the whole chain made each
// Add O(copies) and a flood of 5,000 near-copies quadratic; a copy still
// finds its near-duplicates among the newest of them.
const maxProbe = 1024

// table is one LSH banding over the groups of exact copies (numbered
// densely; the code calls them doc): per band a [bandTags] from key to the
// newest group of a chain; next.of(doc)[band] is the next (older) group of
// doc's chain in that band and prev.of(doc)[band] the previous (newer)
// one (−1 ends them), so that removal unlinks in O(1). Chains are in the
// order the groups entered them. A group's band keys are not stored: they
// are a function of its signature, sigs.of(doc) (the index's signature
// store), and are computed again where a band needs one (bandKey), which
// costs less than writing and reading 8 bytes a band per group.
type table struct {
	bands, rows int
	heads       []bandTags
	next, prev  strided[int32]
	sigs        *strided[uint32] // the index's signatures by group
	sink        uint32           // the sums of touch, kept so that its loads stay
}

func newTable(bands, rows int, sigs *strided[uint32]) *table {
	return &table{bands: bands, rows: rows, heads: make([]bandTags, bands),
		next: newStrided[int32](bands, -1), prev: newStrided[int32](bands, -1), sigs: sigs}
}

// touchBands is how many bands' home slots are loaded ahead of their
// probes.
const touchBands = 16

// insert puts doc, signed, at the head of its chains in every band; keys
// are its band keys, computed before the lock, or nil. The keys of up to
// touchBands bands are computed (when not given), and their home slots
// touched, before any of their maps is probed, so that the reads, cache
// misses in tables larger than the caches, overlap instead of each
// waiting for the one before.
func (t *table) insert(doc uint32, given []uint64) {
	t.next.ensure(doc)
	t.prev.ensure(doc)
	next, prev, sig := t.next.of(doc), t.prev.of(doc), t.sigs.of(doc)
	var keys [touchBands]uint64
	for lo := 0; lo < t.bands; lo += touchBands {
		end := min(lo+touchBands, t.bands)
		for b := lo; b < end; b++ {
			if given != nil {
				keys[b-lo] = given[b]
			} else {
				keys[b-lo] = bandKey(sig, b, t.rows)
			}
		}
		t.sink += t.touch(lo, keys[:end-lo])
		for b := lo; b < end; b++ {
			prev[b] = -1
			h := t.set(b, keys[b-lo], int32(doc))
			next[b] = h
			if h >= 0 {
				t.prev.of(uint32(h))[b] = int32(doc)
			}
		}
	}
}

// touch loads the home slot of keys[i] in band lo+i, for each i, and
// returns the sum of what it read: the loads do not depend on each other,
// so the processor overlaps their cache misses, which the probes of get
// and set, band after band, wait for one after the other (the band maps
// of a Containment index are far larger than the caches).
func (t *table) touch(lo int, keys []uint64) (sum uint32) {
	for i, key := range keys {
		if m := &t.heads[lo+i]; len(m.slots) > 0 {
			sum += m.slots[m.home(t.tag(key))].head1
		}
	}
	return sum
}

// remove unlinks doc, which must be indexed under its current signature,
// from every chain. O(bands).
func (t *table) remove(doc uint32) {
	next, prev, sig := t.next.of(doc), t.prev.of(doc), t.sigs.of(doc)
	for b := range t.bands {
		n, p := next[b], prev[b]
		if n >= 0 {
			t.prev.of(uint32(n))[b] = p
		}
		switch {
		case p >= 0:
			t.next.of(uint32(p))[b] = n
		case n >= 0:
			t.set(b, bandKey(sig, b, t.rows), n)
		default:
			t.delete(b, bandKey(sig, b, t.rows))
		}
		next[b], prev[b] = -1, -1
	}
}

// each calls fn for the newest maxProbe groups other than skip sharing
// band key keys[b] in band b, for every band; skip is passed over without
// counting; touch's sums go to *sink. The engine's lock, shared or
// exclusive, guards the table.
func (t *table) each(keys []uint64, skip uint32, sink *uint32, fn func(doc uint32)) {
	for lo := 0; lo < t.bands; lo += touchBands {
		end := min(lo+touchBands, t.bands)
		*sink += t.touch(lo, keys[lo:end])
		for b := lo; b < end; b++ {
			h, ok := t.get(b, keys[b])
			if !ok {
				continue
			}
			n := 0
			for p := h; p >= 0 && n < maxProbe; p = t.next.of(uint32(p))[b] {
				if uint32(p) != skip {
					fn(uint32(p))
					n++
				}
			}
		}
	}
}
