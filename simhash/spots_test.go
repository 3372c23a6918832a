package simhash

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/internal/hashtab"
	"github.com/seed-9ef9c1df/neardup/textproc"
)

// collectSpotsScan is collectSpots as it was before it jumped between
// non-stopwords: every antecedent scans forward until it has N
// non-stopwords or reaches the end of the text, O(n²) on a run of
// stopwords. Kept, for tests only, as the oracle of the features.
func (s *Signer) collectSpotsScan() {
	th := s.th
	n := s.cfg.N
	for i := range th {
		if !s.st[i] {
			continue
		}
		h, w, got := uint64(n)+0x5b07, 0.0, 0
		for k := i + 1; k < len(th) && got < n; k++ {
			if s.st[k] {
				continue
			}
			h = hashtab.Combine(h, th[k])
			w += s.idfAt(k)
			got++
		}
		if got == n {
			s.add(h, w/float64(n))
		}
	}
}

// spotWords are the vocabulary of stopwordRuns: English stopwords (many
// of them) and a few content words.
var (
	spotStops = []string{"the", "of", "and", "a", "to", "in", "is", "it", "was", "for", "on", "that"}
	spotWords = []string{"storm", "coast", "minister", "bank", "rates", "river", "flood", "vote", "oil", "Reuters"}
)

// stopwordRuns returns a random text of about words words in which runs of
// stopwords (up to maxRun long) alternate with runs of content words, with
// some punctuation and line breaks between them.
func stopwordRuns(r *rand.Rand, words, maxRun int) string {
	var b strings.Builder
	for w := 0; w < words; {
		stops := r.IntN(2) == 0
		run := 1 + r.IntN(maxRun)
		if !stops {
			run = 1 + r.IntN(4)
		}
		for range run {
			if stops {
				b.WriteString(spotStops[r.IntN(len(spotStops))])
			} else {
				b.WriteString(spotWords[r.IntN(len(spotWords))])
			}
			switch r.IntN(12) {
			case 0:
				b.WriteString(". ")
			case 1:
				b.WriteString("\n\n")
			default:
				b.WriteByte(' ')
			}
			w++
		}
	}
	return b.String()
}

// spotFeatures signs text with s and returns the features collectSpots
// found and those collectSpotsScan finds in the same analysis.
func spotFeatures(s *Signer, text string) (got, want []feat) {
	s.analyse(text)
	s.weigh()
	s.collect()
	got = append([]feat(nil), s.feats...)
	s.feats = s.feats[:0]
	s.seen.Reset(len(s.th))
	s.collectSpotsScan()
	want = append([]feat(nil), s.feats...)
	s.tidy()
	return got, want
}

// spotSigners returns Signers of FeatureSpots with chain lengths 1 to 64,
// with tf weights (lite signing) and idf weights (interned tokens, idf per
// token).
func spotSigners(t testing.TB) []*Signer {
	t.Helper()
	idf := textproc.NewIDF(true)
	r := rand.New(rand.NewPCG(1, 2))
	for range 40 {
		require.NoError(t, idf.AddDocument(strings.Fields(strings.ToLower(stopwordRuns(r, 30, 5)))))
	}
	var out []*Signer
	for _, n := range []int{1, 2, 3, 5, 64} {
		for _, weights := range []Weights{WeightTF, WeightIDF} {
			s, err := NewSigner(Config{Language: "en", Features: FeatureSpots, N: n, Weights: weights, SkipTop: -1}, idf)
			require.NoError(t, err)
			require.Equal(t, weights == WeightTF, s.lite)
			out = append(out, s)
		}
	}
	return out
}

// TestSpotsMatchScan: the linear collector finds the features of the
// quadratic scan, in the same order with the same weights and counts, on
// random texts with many runs of stopwords.
func TestSpotsMatchScan(t *testing.T) {
	r := rand.New(rand.NewPCG(35, 3))
	for _, s := range spotSigners(t) {
		for trial := range 60 {
			text := stopwordRuns(r, r.IntN(400), 1+r.IntN(40))
			got, want := spotFeatures(s, text)
			require.Equal(t, want, got, "N %d, weights %d, trial %d: %q", s.cfg.N, s.cfg.Weights, trial, text)
		}
		for _, text := range []string{"", "the", "the the the", "storm", "the storm", "storm the", "the of and storm flood the of"} {
			got, want := spotFeatures(s, text)
			require.Equal(t, want, got, "N %d, weights %d: %q", s.cfg.N, s.cfg.Weights, text)
		}
	}
}

// TestSpotsLinearSteps counts collectSpots' steps: on an all-stopword text
// and on stopword runs ending in one content word they stay within the
// tokens plus N per distinct chain, where the scan took steps quadratic in
// the run.
func TestSpotsLinearSteps(t *testing.T) {
	for _, n := range []int{1, 3} {
		s, err := NewSigner(Config{Language: "en", Features: FeatureSpots, N: n, Weights: WeightTF, SkipTop: -1}, nil)
		require.NoError(t, err)
		for _, text := range []string{
			strings.Repeat("the of and ", 20000),
			strings.Repeat("the of and ", 20000) + "storm",
			strings.Repeat("the of and ", 5000) + strings.Repeat("storm flood ", 5000),
		} {
			s.spotSteps = 0
			s.Sign(text)
			tokens := len(strings.Fields(text))
			require.LessOrEqual(t, s.spotSteps, tokens+(n+1)*tokens/4+n, "N %d, %d tokens", n, tokens)
		}
	}
}

// FuzzSpots: on any text and chain length, the linear collector finds the
// features of the scan.
func FuzzSpots(f *testing.F) {
	for _, s := range []string{"", "the", "the the the of", "storm the flood", "the of and storm flood the of", "İSTANBUL'DA the\x00of", "a b c d e f g h i j"} {
		f.Add(s, uint8(1), false)
		f.Add(s, uint8(2), true)
	}
	r := rand.New(rand.NewPCG(9, 9))
	f.Add(stopwordRuns(r, 200, 30), uint8(3), false)
	idf := textproc.NewIDF(true)
	require.NoError(f, idf.AddDocument([]string{"storm", "the", "flood"}))
	f.Fuzz(func(t *testing.T, text string, n uint8, withIDF bool) {
		cfg := Config{Language: "en", Features: FeatureSpots, N: 1 + int(n%64), Weights: WeightTF, SkipTop: -1}
		if withIDF {
			cfg.Weights = WeightIDF
		}
		s, err := NewSigner(cfg, idf)
		require.NoError(t, err)
		got, want := spotFeatures(s, text)
		require.Equal(t, want, got)
	})
}
