package shingle

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/internal/dataset"
)

// exhaustiveJaccard computes the multiset Jaccard similarity Σmin/Σmax of
// two multisets held in maps, independently of jaccard's merge.
func exhaustiveJaccard(a, b map[uint32]int) float64 {
	smin, smax := 0, 0
	for s, ca := range a {
		smin += min(ca, b[s])
		smax += max(ca, b[s])
	}
	for s, cb := range b {
		if _, ok := a[s]; !ok {
			smax += cb
		}
	}
	if smax == 0 {
		return 0
	}
	return float64(smin) / float64(smax)
}

// randomMultisets returns n raw signature multisets: variants of a few base
// documents (signatures dropped, added and re-counted) over a Zipf-like
// alphabet, so that many pairs sit near any threshold.
func randomMultisets(r *rand.Rand, n int) [][2][]uint64 {
	alphabet := 400
	draw := func() uint64 {
		// Skewed: low hashes are common.
		return uint64(r.IntN(1+r.IntN(alphabet))) + 1
	}
	var bases [][]uint64
	out := make([][2][]uint64, 0, n)
	for range n {
		var raw []uint64
		if len(bases) == 0 || r.IntN(3) == 0 {
			for range 2 + r.IntN(60) {
				raw = append(raw, draw())
			}
			bases = append(bases, raw)
		} else {
			base := bases[r.IntN(len(bases))]
			for _, h := range base {
				switch r.IntN(10) {
				case 0: // dropped
				case 1:
					raw = append(raw, h, h)
				default:
					raw = append(raw, h)
				}
			}
			for range r.IntN(8) {
				raw = append(raw, draw())
			}
		}
		slices.Sort(raw)
		var hs []uint64
		var cnt []uint64
		for i := 0; i < len(raw); {
			j := i
			for j < len(raw) && raw[j] == raw[i] {
				j++
			}
			hs = append(hs, raw[i])
			cnt = append(cnt, uint64(j-i))
			i = j
		}
		out = append(out, [2][]uint64{hs, cnt})
	}
	return out
}

// spotReference computes, from first principles, what the SpotSigs index
// must answer for a collection of raw multisets: the live statistics, the
// band of each signature, each document's filtered multiset (with the
// rescue of documents the upper edge empties, unless noRescue) and the
// exhaustive multiset Jaccard of every pair.
func spotReference(x *spotIndex, raw map[uint32][2][]uint64) map[uint32]map[uint32]float64 {
	cfg := x.cfg
	n := 0
	df := map[uint64]int{}
	for _, r := range raw {
		total := 0
		for _, c := range r[1] {
			total += int(c)
		}
		if total < cfg.MinSignatures {
			continue
		}
		n++
		for _, h := range r[0] {
			df[h]++
		}
	}
	// Filtered multisets keyed by hash (the random hashes are small).
	byHash := map[uint32]map[uint32]int{}
	for i, r := range raw {
		total, band, above := 0, map[uint32]int{}, map[uint32]int{}
		nb, na := 0, 0
		for k, h := range r[0] {
			c := int(r[1][k])
			total += c
			switch {
			case x.keep(df[h], n):
				band[uint32(h)] = c
				nb += c
			case idf(df[h], n) < cfg.MinIDF:
				above[uint32(h)] = c
				na += c
			}
		}
		switch {
		case total < cfg.MinSignatures:
		case nb >= cfg.MinSignatures:
			byHash[i] = band
		case !x.noRescue && na > 0 && nb+na >= cfg.MinSignatures:
			maps.Copy(band, above)
			byHash[i] = band
		}
	}
	want := map[uint32]map[uint32]float64{}
	for i := range raw {
		want[i] = map[uint32]float64{}
		if _, ok := byHash[i]; !ok {
			continue
		}
		for j := range byHash {
			if j == i {
				continue
			}
			if s := exhaustiveJaccard(byHash[i], byHash[j]); s >= cfg.Threshold {
				want[i][j] = s
			}
		}
	}
	return want
}

// TestSpotPruningNeverDrops is the property test of the SpotSigs search:
// on random collections, at random thresholds, with and without the idf
// band (and its rescue of emptied documents), through adds and removals,
// the inverted-index search with early termination returns exactly the
// pairs (and scores) an exhaustive multiset-Jaccard comparison of the
// filtered multisets under the live statistics finds at the same τ.
func TestSpotPruningNeverDrops(t *testing.T) {
	trials := dataset.LongSize(24, 40) // 24 meets every threshold with every band
	if testing.Short() || raceEnabled {
		trials = 10
	}
	for trial := range trials {
		r := rand.New(rand.NewPCG(uint64(trial), 99))
		cfg := Config{Method: SpotSigs, MinOverlap: 1, Threshold: []float64{0.05, 0.1, 0.3, 0.5, 0.7, 0.85, 0.95, 1}[trial%8]}
		switch trial % 3 {
		case 1:
			cfg.MinIDF, cfg.MaxIDF = -1, 2 // no band
		case 2:
			cfg.MinIDF, cfg.MaxIDF = 0.5, 0.9 // a narrow band: many rescued documents
		}
		cfg.MinSignatures = 1 + r.IntN(4)
		cfg, err := cfg.withDefaults()
		require.NoError(t, err)
		x := &spotIndex{cfg: cfg, noRescue: trial%5 == 4}
		sets := randomMultisets(r, 40+r.IntN(120))
		live := map[uint32][2][]uint64{}
		check := func(when string) {
			want := spotReference(x, live)
			for self := range live {
				got := map[uint32]float64{}
				for _, h := range x.similar(self, len(x.docs), nil, &spotQuery{}) {
					got[h.Group] = h.Score
				}
				require.Equal(t, len(want[self]), len(got), "trial %d %s τ=%v doc %d: similar = %v, exhaustive = %v", trial, when, cfg.Threshold, self, got, want[self])
				for o, s := range want[self] {
					assert.InDelta(t, s, got[o], 1e-12, "trial %d %s doc %d vs %d", trial, when, self, o)
				}
			}
		}
		insert := func(i int) {
			s := sets[i]
			cnt := make([]uint32, len(s[1]))
			for k, c := range s[1] {
				cnt[k] = uint32(c)
			}
			x.insert(uint32(i), s[0], cnt)
			live[uint32(i)] = s
		}
		for i := range sets {
			insert(i)
			if i%17 == 5 {
				check(fmt.Sprintf("after %d adds", i+1))
			}
		}
		check("after all adds")
		for i := range sets {
			if r.IntN(4) == 0 {
				x.remove(uint32(i))
				delete(live, uint32(i))
			}
		}
		check("after removals")
		for i := range sets {
			if _, ok := live[uint32(i)]; !ok && r.IntN(2) == 0 {
				insert(i)
			}
		}
		check("after re-adds")
	}
}

// bounds returns the band [lo, hi] of df among n documents by binary
// search, as the index found it before boundsNear: the reference
// TestSpotBoundsNear compares boundsNear with (TestSpotBounds checks it
// against keep).
func (x *spotIndex) bounds(n int) (lo, hi int) {
	if n <= 0 {
		return 1, 0
	}
	lo = 1 + sort.Search(n, func(i int) bool { return idf(i+1, n) <= x.cfg.MaxIDF })
	hi = sort.Search(n, func(i int) bool { return idf(i+1, n) < x.cfg.MinIDF })
	return lo, hi
}

// TestSpotBounds checks that the band [lo, hi] of bounds is exactly the
// set of document frequencies keep accepts.
func TestSpotBounds(t *testing.T) {
	for _, band := range [][2]float64{{0.2, 0.8}, {-1, 2}, {0.5, 0.9}, {0, 0.3}, {0.7, 0.71}} {
		cfg, err := Config{Method: SpotSigs, MinIDF: band[0], MaxIDF: band[1]}.withDefaults()
		require.NoError(t, err)
		x := &spotIndex{cfg: cfg}
		check := func(n, df int) {
			lo, hi := x.bounds(n)
			require.Equal(t, x.keep(df, n), lo <= df && df <= hi, "band %v n=%d df=%d: [%d, %d]", band, n, df, lo, hi)
		}
		for n := 1; n <= 600; n++ {
			for df := 1; df <= n; df++ {
				check(n, df)
			}
		}
		for _, n := range []int{10_000, 123_457, 1 << 20, 50_000_000} {
			lo, hi := x.bounds(n)
			for _, df := range []int{1, lo - 1, lo, lo + 1, hi - 1, hi, hi + 1, n} {
				if df >= 1 && df <= n {
					check(n, df)
				}
			}
		}
	}
}

// TestSpotBoundsNear requires boundsNear to find bounds' band from the
// band of n−1 and n+1 documents (the steps of an Add and a Remove), and
// from far-off starts.
func TestSpotBoundsNear(t *testing.T) {
	for _, band := range [][2]float64{{0.2, 0.8}, {-1, 2}, {0.5, 0.9}, {0, 0.3}, {0.7, 0.71}} {
		cfg, err := Config{Method: SpotSigs, MinIDF: band[0], MaxIDF: band[1]}.withDefaults()
		require.NoError(t, err)
		x := &spotIndex{cfg: cfg}
		ns := []int{0, 1, 2, 3, 99_999, 100_000, 1 << 20}
		for n := 4; n <= 3000; n++ {
			ns = append(ns, n)
		}
		for _, n := range ns {
			lo, hi := x.bounds(n)
			for _, m := range []int{n - 1, n + 1} {
				plo, phi := x.bounds(max(m, 0))
				glo, ghi := x.boundsNear(n, plo, phi)
				require.Equal(t, [2]int{lo, hi}, [2]int{glo, ghi}, "band %v n=%d from n=%d", band, n, m)
			}
			if n <= 3000 {
				glo, ghi := x.boundsNear(n, 0, 0)
				require.Equal(t, [2]int{lo, hi}, [2]int{glo, ghi}, "band %v n=%d from (0, 0)", band, n)
				glo, ghi = x.boundsNear(n, n+7, n+7)
				require.Equal(t, [2]int{lo, hi}, [2]int{glo, ghi}, "band %v n=%d from above", band, n)
			}
		}
	}
}

// TestSpotReleaseBreakBug builds the pair the release's posting-list break
// drops: |A| = 100 with 8 signatures of its own visited first, |B| = 92
// all shared, J = 0.92 at τ = 0.85 (δ + |A| − |B| = 16 > (1−τ)|A| = 15).
func TestSpotReleaseBreakBug(t *testing.T) {
	cfg, err := Config{Method: SpotSigs, Threshold: 0.85, MinIDF: -1, MaxIDF: 2}.withDefaults()
	require.NoError(t, err)
	x := &spotIndex{cfg: cfg}
	var ah, bh []uint64
	var ac, bc []uint32
	for h := uint64(1); h <= 8; h++ { // A's own signatures
		ah, ac = append(ah, h), append(ac, 1)
	}
	for h := uint64(100); h < 192; h++ { // shared
		ah, ac = append(ah, h), append(ac, 1)
		bh, bc = append(bh, h), append(bc, 1)
	}
	// A third document holds the shared signatures too, so their lists are
	// longer than A's own and A visits its own first.
	x.insert(0, bh, bc)
	x.insert(1, bh, bc)
	x.insert(2, ah, ac)
	got := x.similar(2, 3, nil, &spotQuery{})
	require.Len(t, got, 2, "similar(A) = %v", got)
	assert.InDelta(t, 0.92, got[0].Score, 1e-12)
	// The release's bound, δ + Δ > (1−τ)|A|, breaks off here and loses B.
	delta, dA, dB := 8.0, 100.0, 92.0
	assert.Greater(t, delta+dA-dB, (1-0.85)*dA, "the case must trigger the release's break")
	x.releaseBounds = true
	assert.Empty(t, x.similar(2, 3, nil, &spotQuery{}), "with the release's bounds the pair is lost")
}

// TestJaccardEarlyExit checks the corrected pairwise bound: the release's
// exit (max − D)/max < τ rejects |A| = |B| = 100, D = 20 at τ = 0.81,
// where J = 0.818; jaccard does not.
func TestJaccardEarlyExit(t *testing.T) {
	var as, bs, ac, bc []uint32
	for s := uint32(0); s < 90; s++ {
		as, ac = append(as, s), append(ac, 1)
		bs, bc = append(bs, s), append(bc, 1)
	}
	for s := uint32(90); s < 100; s++ {
		as, ac = append(as, s), append(ac, 1)
		bs, bc = append(bs, s+100), append(bc, 1)
	}
	want := 90.0 / 110.0
	assert.InDelta(t, want, jaccard(as, ac, bs, bc, 100, 100, 0.81, nil, false, false), 1e-12)
	assert.Less(t, (100.0-20)/100, 0.81, "the release's bound would have rejected the pair")
	assert.Zero(t, jaccard(as, ac, bs, bc, 100, 100, 0.9, nil, false, false), "J = 0.818 < 0.9 must be rejected")
}

// keep, the band filter's reference, reports whether a signature of document frequency df among n
// documents passes the band filter MinIDF ≤ idf ≤ MaxIDF (the release's
// SpotSigsIndexer: "Skip overly long (meaningless?) lists by global DF
// value").
func (x *spotIndex) keep(df, n int) bool {
	if df <= 0 || n <= 0 {
		return false
	}
	v := idf(df, n)
	return v >= x.cfg.MinIDF && v <= x.cfg.MaxIDF
}

// insert is insertIDs with no signature IDs resolved beforehand.
func (x *spotIndex) insert(idx uint32, hashes []uint64, cnt []uint32) {
	x.insertIDs(idx, hashes, cnt, nil)
}

// jaccard returns the multiset Jaccard similarity Σmin/Σmax of two
// filtered multisets of masses a and b (Theobald et al. 2008), or 0 as soon
// as it is certain to stay below tau (tau ≤ 0 never exits early). With a
// non-nil place, a signature counts for a side only when in(place[s],
// rescued) holds for it; with nil, every signature counts.
func jaccard(asig, acnt, bsig, bcnt []uint32, a, b int, tau float64, place []uint8, arescued, brescued bool) float64 {
	return jaccardP(asig, acnt, bsig, bcnt, a, b, tau, placer{place: place}, arescued, brescued)
}
