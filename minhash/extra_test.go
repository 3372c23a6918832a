package minhash

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/zeebo/xxh3"

	"github.com/seed-9ef9c1df/neardup/detector"
)

func words(prefix string, n int) string {
	ws := make([]string, n)
	for i := range ws {
		ws[i] = fmt.Sprintf("%s%d", prefix, i)
	}
	return strings.Join(ws, " ")
}

// TestContainmentSkewed checks that a short document finds the long ones
// that contain it across size ratios (the size partitions pick a banding
// level with rows small enough for the low Jaccard a large ratio means),
// and that the long document is never reported as contained in the short.
// Finding the container is a matter of chance (the LSH bands), so each
// ratio runs over 40 hash seeds and the share found is asserted: measured
// over 200 seeds 1.00, 1.00, 0.995 and 0.985 for |C|/|A| = 2, 3, 5 and 9
// (0.56 at 9 with equal false-positive and false-negative weights, when
// the level chosen used 2 rows per band).
func TestContainmentSkewed(t *testing.T) {
	cases := []struct {
		ratio   int
		minRate float64
	}{{1, 0.95}, {2, 0.95}, {4, 0.9}, {8, 0.85}}
	const seeds = 40
	for _, tc := range cases {
		t.Run(fmt.Sprintf("ratio%d", tc.ratio), func(t *testing.T) {
			short := words("s", 150)
			long := words("pre", 75*tc.ratio) + " " + short + " " + words("post", 75*tc.ratio)
			found := 0
			for seed := range seeds {
				d, err := New(Config{Mode: Containment, Shingle: 1, Threshold: 0.6, Seed: uint64(seed)})
				require.NoError(t, err)
				_, err = d.Add(detector.Doc{ID: "short", Text: short})
				require.NoError(t, err)
				_, err = d.Add(detector.Doc{ID: "long", Text: long})
				require.NoError(t, err)
				_, err = d.Add(detector.Doc{ID: "other", Text: words("o", 150*(tc.ratio+1))})
				require.NoError(t, err)
				ms, err := d.Containers("short")
				require.NoError(t, err)
				if len(ms) > 0 {
					require.Len(t, ms, 1, "Containers(short)")
					assert.Equal(t, "long", ms[0].ID)
					found++
				}
				ms, err = d.Containers("long")
				require.NoError(t, err)
				assert.Empty(t, ms, "Containers(long)")
			}
			rate := float64(found) / seeds
			t.Logf("|C|/|A| = %d: container found for %d of %d seeds", tc.ratio+1, found, seeds)
			assert.GreaterOrEqual(t, rate, tc.minRate, "share of seeds that find the container")
		})
	}
}

// TestGolden pins signatures of fixed texts: a change of hashing, shingling
// or densification shows here. Do NOT make changes to the golden outputs
// unless the signature format is meant to change (and say so in the note).
// Changed once, deliberately: values became 31 bits, the top bit marking
// densified bins (OnePermutation's first, second and fourth bins here).
// Changed once more, deliberately: Weighted mode samples by DartMinHash by
// default; ICWS keeps its golden values under IoffeICWS. And once more:
// the default sampler became PackedDarts; Darts keeps its golden values
// under WeightedDarts.
func TestGolden(t *testing.T) {
	const text = "The quick brown fox jumps over the lazy dog. İstanbul'da KADIN, 3.5 percent; don't stop."
	golden := map[string][]uint32{
		"OnePermutation": {0xa7fa6aff, 0x9f6e4ed6, 0xc0de0605, 0x4d13aff6},
		"KHash":          {0xe52f343, 0xc44dd7e, 0x3698648, 0x15539aaa},
		"Weighted":       {0x8e291a5, 0x2e8ab5d4, 0x1e05c29a, 0x2705de6d},
		"WeightedDarts":  {0x49eb488a, 0x5b08da19, 0x32d1dc73, 0x36776f3e},
		"WeightedICWS":   {0x500a40fc, 0x477b3b26, 0x94c2cad, 0x477b3b26},
	}
	cfgs := map[string]Config{
		"OnePermutation": {},
		"KHash":          {Scheme: KHash},
		"Weighted":       {Mode: Weighted, Shingle: 3},
		"WeightedDarts":  {Mode: Weighted, Shingle: 3, Sampler: Darts},
		"WeightedICWS":   {Mode: Weighted, Shingle: 3, Sampler: IoffeICWS},
	}
	for name, cfg := range cfgs {
		sk, err := NewSketcher(cfg)
		require.NoError(t, err)
		sig, size := sk.Signature(text)
		require.Len(t, sig, DefaultNumHashes, name)
		assert.Positive(t, size)
		assert.Equal(t, golden[name], sig[:4], "%s signature prefix", name)
	}
}

// FuzzSignature: no input panics, equal texts sign alike, and a text's
// estimate against itself is 1.
func FuzzSignature(f *testing.F) {
	for _, s := range []string{"", "a", "a b c d e f g", "\xff\xfe", "İSTANBUL ıI", strings.Repeat("x ", 100)} {
		f.Add(s)
	}
	sk, _ := NewSketcher(Config{Shingle: 2})
	wk, _ := NewSketcher(Config{Mode: Weighted, Shingle: 2})
	f.Fuzz(func(t *testing.T, s string) {
		a, n := sk.Signature(s)
		b, m := sk.Signature(s)
		if n != m || len(a) != len(b) {
			t.Fatalf("unstable signature of %q", s)
		}
		if len(a) > 0 && Similarity(a, b) != 1 {
			t.Fatalf("Similarity of %q with itself = %v", s, Similarity(a, b))
		}
		w, _ := wk.AppendWeightedSignature(nil, s, nil)
		if len(w) > 0 && len(w) != DefaultNumHashes {
			t.Fatalf("weighted signature of %q has %d values", s, len(w))
		}
	})
}

// TestFastPathMatchesAnalyzer checks the Sketcher's term hashing (through
// textproc's Analyzer.Terms, which does not intern) against Analyzer.Term,
// word by word, in every language mode.
func TestFastPathMatchesAnalyzer(t *testing.T) {
	words := []string{"Dog's", "DOGS", "don't", "it`s", "Istanbul", "I", "x", "3.5", "1,000", "O'Neil's", "abc's"}
	for _, lang := range []string{"", "en", "tr", "de", "az"} {
		sk, err := NewSketcher(Config{Language: lang})
		require.NoError(t, err)
		for _, w := range words {
			var got []uint64
			for _, term := range sk.an.Terms(w) {
				got = append(got, xxh3.Hash(term))
			}
			term, ok := sk.an.Term(w)
			if !ok {
				assert.Empty(t, got, "%q in %q: a stopword", w, lang)
				continue
			}
			assert.Equal(t, []uint64{hashOf(term)}, got, "Terms(%q) in %q: want the hash of %q", w, lang, term)
		}
	}
}

func hashOf(s string) uint64 { return xxh3.HashString(s) }
