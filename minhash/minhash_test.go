package minhash

import (
	"errors"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/dataset"
	"github.com/seed-9ef9c1df/neardup/internal/naive"
	"github.com/seed-9ef9c1df/neardup/textproc"
)

// setPair returns two sets of 64-bit elements with |A∩B| = inter,
// |A \ B| = onlyA, |B \ A| = onlyB.
func setPair(r *rand.Rand, inter, onlyA, onlyB int) (a, b []uint64) {
	for range inter {
		x := r.Uint64()
		a, b = append(a, x), append(b, x)
	}
	for range onlyA {
		a = append(a, r.Uint64())
	}
	for range onlyB {
		b = append(b, r.Uint64())
	}
	return a, b
}

// TestOnePermutationMatchesKHash shows that one-permutation hashing with
// optimal densification, read by [Similarity]'s estimator over the bins
// non-empty in either signature (Li, Owen, Zhang 2012), estimates Jaccard
// at least as well as classic K-hash MinHash: both unbiased, and the mean
// squared error of one-permutation no more than K-hash's for large and
// small sets (measured 0.49-0.96×; it samples without replacement, and
// for sets smaller than K nearly every element has a bin of its own). The
// plain fraction of agreeing positions over densified signatures measured
// 0.86-1.22× for sets of K or more elements and up to 1.9× at 15 elements.
func TestOnePermutationMatchesKHash(t *testing.T) {
	if raceEnabled {
		t.Skip("pure computation; slow under -race")
	}
	cases := []struct {
		name                string
		inter, onlyA, onlyB int
	}{
		{"large-J0.5", 400, 200, 200},
		{"large-J0.2", 200, 400, 400},
		{"large-J0.8", 800, 100, 100},
		{"skewed", 50, 0, 950},
		{"union-K", 64, 32, 32},
		{"small-J0.5", 20, 10, 10},
		{"small-J0.25", 10, 15, 15},
		{"tiny-J0.33", 5, 5, 5},
	}
	const trials = 300
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			j := float64(tc.inter) / float64(tc.inter+tc.onlyA+tc.onlyB)
			var sum, mse [2]float64
			for trial := range trials {
				r := rand.New(rand.NewPCG(uint64(trial), 99))
				a, b := setPair(r, tc.inter, tc.onlyA, tc.onlyB)
				for s, scheme := range []Scheme{OnePermutation, KHash} {
					sk, err := NewSketcher(Config{Scheme: scheme, Seed: uint64(trial)})
					require.NoError(t, err)
					sa := sk.sign(nil, a)
					sb := sk.sign(nil, b)
					e := Similarity(sa, sb)
					sum[s] += e
					mse[s] += (e - j) * (e - j)
				}
			}
			se := math.Sqrt(j * (1 - j) / DefaultNumHashes / trials)
			for s, name := range []string{"OnePermutation", "KHash"} {
				mean := sum[s] / trials
				assert.InDelta(t, j, mean, 4*se, "%s mean estimate %.4f, J = %.4f", name, mean, j)
			}
			ratio := mse[0] / mse[1]
			t.Logf("J=%.3f MSE one-permutation %.5f, K-hash %.5f, ratio %.3f (theory J(1−J)/K = %.5f)",
				j, mse[0]/trials, mse[1]/trials, ratio, j*(1-j)/DefaultNumHashes)
			assert.Less(t, ratio, 1.05, "MSE ratio one-permutation / K-hash")
			assert.Greater(t, ratio, 0.3, "MSE ratio one-permutation / K-hash")
		})
	}
}

// TestICWSUnbiased checks over many seeds that the ICWS collision rate
// matches the exact weighted Jaccard Σmin/Σmax within 4 standard errors,
// for weights below 1 (negative t), around 1 and far above.
func TestICWSUnbiased(t *testing.T) {
	cases := []struct {
		name  string
		scale float64
	}{
		{"small", 0.01}, {"unit", 1}, {"large", 1e6},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) { checkUnbiased(t, ICWS, tc.scale) })
	}
	t.Run("Consistent", func(t *testing.T) {
		keys := []uint64{1, 2, 3}
		a := ICWS(nil, keys, []float64{1, 2, 3}, 32, 5)
		assert.Equal(t, a, ICWS(nil, keys, []float64{1, 2, 3}, 32, 5), "same input, same samples")
		assert.Equal(t, a, ICWS(nil, []uint64{3, 1, 2}, []float64{3, 1, 2}, 32, 5), "order does not matter")
		assert.Empty(t, ICWS(nil, keys, []float64{0, -1, math.NaN()}, 32, 5), "no positive weight, no sample")
	})
}

// TestParams pins the banding search to the (bands, rows) that minimise
// false positives plus false negatives at each threshold
// (datasketch's _optimal_param at k = 128).
func TestParams(t *testing.T) {
	for _, tc := range []struct {
		t    float64
		b, r int
	}{{0.5, 25, 5}, {0.7, 14, 9}, {0.8, 9, 13}, {0.9, 5, 25}} {
		b, r, err := Params(tc.t, 128, 0.5, 0.5)
		require.NoError(t, err)
		assert.Equal(t, [2]int{tc.b, tc.r}, [2]int{b, r}, "Params(%v, 128)", tc.t)
	}
	_, _, err := Params(0, 128, 0.5, 0.5)
	assert.ErrorIs(t, err, detector.ErrInvalidConfig)
	for _, w := range []float64{math.Inf(1), math.NaN(), -1} {
		_, _, err = Params(0.5, 128, w, 1)
		assert.ErrorIs(t, err, detector.ErrInvalidConfig, "false-positive weight %v", w)
		_, _, err = Params(0.5, 128, 1, w)
		assert.ErrorIs(t, err, detector.ErrInvalidConfig, "false-negative weight %v", w)
	}
}

// TestHelpersOnOddArguments: ContainmentOf stays in [0, 1] for an
// estimate above 1, the samplers name a mismatch of keys and weights, and
// a caller's values alike in their low bits are counted as fast as mixed
// ones (they all probed from one slot, quadratic in their number).
func TestHelpersOnOddArguments(t *testing.T) {
	assert.Equal(t, 1.0, ContainmentOf(math.Inf(1), 10, 10))
	assert.Equal(t, 1.0, ContainmentOf(1.5, 10, 10))
	for name, f := range map[string]func([]uint32, []uint64, []float64, int, uint64) []uint32{
		"ICWS": ICWS, "DartMinHash": DartMinHash, "PackedDartMinHash": PackedDartMinHash,
	} {
		assert.PanicsWithValue(t, "minhash: "+name+" of 3 keys and 2 weights", func() { f(nil, []uint64{1, 2, 3}, []float64{1, 1}, 16, 0) })
	}
	sk, err := NewSketcher(Config{})
	require.NoError(t, err)
	shifted := make([]uint64, 20000)
	for i := range shifted {
		shifted[i] = uint64(i+1) << 32
	}
	_, size := sk.AppendHashSignature(nil, shifted)
	assert.Equal(t, len(shifted), size)
	run, longest := 0, 0 // the longest run of filled slots bounds a probe
	for _, x := range sk.set.tab {
		if run = run + 1; x == 0 {
			run = 0
		}
		longest = max(longest, run)
	}
	assert.Less(t, longest, 200, "the longest run of filled slots among %d", len(sk.set.tab))
}

// TestLSHRecall checks that every pair whose Jaccard is above the threshold
// by a margin is found by the banded index and passes verification. The
// margin is where the S-curve 1 − (1 − s^r)^b reaches 0.9999.
func TestLSHRecall(t *testing.T) {
	for _, th := range []float64{0.3, 0.5, 0.7} {
		d, err := New(Config{Threshold: th, Shingle: 1})
		require.NoError(t, err)
		b, rows := d.Banding()
		lo := th
		for collision(lo, b, rows) < 0.9999 {
			lo += 0.01
		}
		r := rand.New(rand.NewPCG(uint64(th*100), 3))
		for p := range 150 {
			// J = 200 / (200 + 2·only), drawn in [lo, 1].
			j := lo + (1-lo)*r.Float64()
			only := int(math.Floor(200 * (1 - j) / (2 * j)))
			words := func(prefix string, n int) []string {
				out := make([]string, n)
				for i := range out {
					out[i] = prefix + itoa(i)
				}
				return out
			}
			common := words("c"+itoa(p)+"w", 200)
			ta := strings.Join(append(common, words("a"+itoa(p)+"w", only)...), " ")
			tb := strings.Join(append(append([]string{}, common...), words("b"+itoa(p)+"w", only)...), " ")
			_, err := d.Add(detector.Doc{ID: "a" + itoa(p), Text: ta})
			require.NoError(t, err)
			ms, err := d.Add(detector.Doc{ID: "b" + itoa(p), Text: tb})
			require.NoError(t, err)
			if assert.Len(t, ms, 1, "threshold %v (b=%d r=%d), pair %d with J=%.3f", th, b, rows, p, j) {
				assert.Equal(t, "a"+itoa(p), ms[0].ID)
			}
		}
		t.Logf("threshold %v: bands %d rows %d; 150 pairs with J ≥ %.2f all found", th, b, rows, lo)
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

// TestDifferential compares the Jaccard detector with the exact reference
// of internal/naive on a synthetic news stream: every pair with exact
// Jaccard ≥ threshold + 0.15 is reported, and every reported pair has exact
// Jaccard above threshold − 0.15.
func TestDifferential(t *testing.T) {
	const th = 0.5
	n := 400
	if raceEnabled {
		n = 120
	}
	docs := dataset.SynthDocs(n, dataset.SynthConfig{Seed: 3})
	d, err := New(Config{Threshold: th, Content: textproc.ContentAll, MinOverlap: 1}) // the reference: whole texts, no evidence rule
	require.NoError(t, err)
	an, err := textproc.NewAnalyzer(textproc.Config{})
	require.NoError(t, err)
	sets := map[string]map[uint64]struct{}{}
	sk, err := NewSketcher(Config{Content: textproc.ContentAll})
	require.NoError(t, err)
	for _, doc := range docs {
		sets[doc.ID] = naive.Shingles(an, doc.Text, DefaultShingle)
		// The sketcher's shingles are exactly the reference's.
		got := sk.Shingles(nil, doc.Text)
		require.Len(t, got, len(sets[doc.ID]), "Shingles(%q)", doc.ID)
		for _, h := range got {
			_, ok := sets[doc.ID][h]
			require.True(t, ok, "Shingles(%q) has a hash the reference lacks", doc.ID)
		}
		_, err := d.Add(doc)
		require.NoError(t, err)
	}
	jac := func(a, b map[uint64]struct{}) float64 {
		n := 0
		for x := range a {
			if _, ok := b[x]; ok {
				n++
			}
		}
		return float64(n) / float64(len(a)+len(b)-n)
	}
	high := 0
	for i, a := range docs {
		ms, err := d.Containers(a.ID)
		require.NoError(t, err)
		got := map[string]bool{}
		for _, m := range ms {
			got[m.ID] = true
			assert.Greater(t, jac(sets[a.ID], sets[m.ID]), th-0.15, "reported %s~%s", a.ID, m.ID)
		}
		for _, b := range docs[i+1:] {
			if j := jac(sets[a.ID], sets[b.ID]); j >= th+0.15 {
				high++
				assert.True(t, got[b.ID], "missed %s~%s with exact Jaccard %.3f", a.ID, b.ID, j)
			}
		}
	}
	require.Positive(t, high, "the stream must hold near-duplicate pairs")
	t.Logf("%d pairs with exact Jaccard ≥ %.2f, all found", high, th+0.15)
}

func TestConfigErrors(t *testing.T) {
	for _, tc := range []struct {
		cfg  Config
		want string
	}{
		{Config{Mode: 7}, "unknown Mode 7"},
		{Config{Scheme: 3}, "unknown Scheme 3"},
		{Config{Bands: 7, Rows: 19}, "Bands·Rows (7·19) must not exceed NumHashes (128)"},
		{Config{Bands: 7}, "must be set together"},
		{Config{Threshold: 1.5}, "Threshold (1.5) must be in (0, 1]"},
		{Config{Threshold: -0.1}, "Threshold (-0.1)"},
		{Config{NumHashes: -1}, "NumHashes (-1)"},
		{Config{Shingle: 100}, "Shingle (100)"},
		{Config{Supershingles: 200}, "Supershingles (200)"},
		{Config{Supershingles: 4, SupershingleMatches: 5}, "SupershingleMatches (5)"},
		{Config{RarePercent: 150}, "RarePercent (150)"},
		{Config{Power: -2}, "Power (-2)"},
		{Config{Weighting: 9}, "unknown Weighting 9"},
		{Config{Scale: 9}, "unknown Scale 9"},
		{Config{Rare: 9}, "unknown Rare 9"},
		{Config{Language: "!!"}, "Language"},
		{Config{MaxTextBytes: -1}, "MaxTextBytes (-1)"},
		{Config{FalsePositiveWeight: -1}, "must be in (0, 1e100]"},
	} {
		_, err := New(tc.cfg)
		require.Error(t, err, "New(%+v)", tc.cfg)
		assert.True(t, errors.Is(err, detector.ErrInvalidConfig), "New(%+v) = %v, want ErrInvalidConfig", tc.cfg, err)
		assert.Contains(t, err.Error(), tc.want)
		assert.True(t, strings.HasPrefix(err.Error(), "minhash: "), "error %q lacks the package prefix", err)
	}
	st, err := NewStats(Config{Mode: Weighted})
	require.NoError(t, err)
	_, err = NewWithStats(Config{Mode: Weighted, Shingle: 5}, st)
	assert.ErrorIs(t, err, detector.ErrInvalidConfig, "Stats of another phrase length")
	_, err = NewWithStats(Config{}, st)
	assert.ErrorIs(t, err, detector.ErrInvalidConfig, "Stats outside Weighted mode")
}

func TestNoAllocs(t *testing.T) {
	text := dataset.SynthDocs(1, dataset.SynthConfig{Seed: 1})[0].Text
	sk, err := NewSketcher(Config{})
	require.NoError(t, err)
	dst := make([]uint32, 0, DefaultNumHashes)
	sig, _ := sk.AppendSignature(dst, text) // grow buffers
	allocs := testing.AllocsPerRun(50, func() { sk.AppendSignature(dst[:0], text) })
	assert.Zero(t, allocs, "AppendSignature allocations per run")
	other, _ := sk.Signature(text + " more words here")
	allocs = testing.AllocsPerRun(50, func() { Similarity(sig, other) })
	assert.Zero(t, allocs, "Similarity allocations per run")
}

func TestSimilarityPanicsOnMismatch(t *testing.T) {
	assert.Panics(t, func() { Similarity([]uint32{1, 2}, []uint32{1}) })
	assert.Zero(t, Similarity(nil, []uint32{1}))
	assert.Equal(t, 1.0, ContainmentOf(1, 10, 10))
	assert.InDelta(t, 1.0, ContainmentOf(0.5, 10, 20), 1e-9, "A ⊂ C with |C| = 2|A| has J = 1/2")
	assert.InDelta(t, 0.25, ContainmentOf(0.2, 20, 10), 1e-9, "|A∩C| = 5 of |A| = 20")
	assert.Zero(t, ContainmentOf(0.5, 0, 10))
}

// sampler is the shape of ICWS and DartMinHash.
type sampler func(dst []uint32, keys []uint64, weights []float64, k int, seed uint64) []uint32

// checkUnbiased draws two weighted sets of 40 keys whose weights are scale
// times exponential draws (every fifth key absent from B, every seventh
// with equal weights in both) and requires the collision rate of sample
// over 200 seeds × 64 samples (12,800) to be within 4 standard errors of
// the exact weighted Jaccard.
func checkUnbiased(t *testing.T, sample sampler, scale float64) {
	const seeds, k = 200, 64
	r := rand.New(rand.NewPCG(7, 7))
	n := 40
	keys := make([]uint64, n)
	wa, wb := make([]float64, n), make([]float64, n)
	for i := range n {
		keys[i] = r.Uint64()
		wa[i] = scale * r.ExpFloat64()
		wb[i] = scale * r.ExpFloat64()
		if i%5 == 0 {
			wb[i] = 0 // absent from B
		}
		if i%7 == 0 {
			wb[i] = wa[i] // equal weights: must collide consistently
		}
	}
	jw := exactWeightedJaccard(wa, wb)
	hits := 0
	for seed := range seeds {
		sa := sample(nil, keys, wa, k, uint64(seed))
		sb := sample(nil, keys, wb, k, uint64(seed))
		require.Len(t, sa, k)
		for i := range sa {
			if sa[i] == sb[i] {
				hits++
			}
		}
	}
	total := float64(seeds * k)
	rate := float64(hits) / total
	se := math.Sqrt(jw * (1 - jw) / total)
	t.Logf("weighted Jaccard %.4f, collision rate %.4f (%.1f SE)", jw, rate, (rate-jw)/se)
	assert.InDelta(t, jw, rate, 4*se, "collision rate vs weighted Jaccard")
}
