package shingle

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/internal/hashtab"
)

// spotsScan returns the raw spot signatures of the text e analysed last, as
// spots found them before it jumped between non-stopwords: every chain link
// scans forward over stopwords, O(n²) on a run of antecedents. Kept, for
// tests only, as the oracle of the signatures.
func (e *extractor) spotsScan() []uint64 {
	cfg := e.cfg
	n := len(e.hs)
	stop := func(k int) bool { return e.cls[k]&classStop != 0 }
	var raw []uint64
	for i := 0; i < n-1; i++ {
		if e.cls[i]&classAntecedent == 0 {
			continue
		}
		var h uint64 = 0x5350_4f54_5349_4753
		if cfg.IncludeAntecedent {
			h = hashtab.Combine(h, e.hs[i])
		}
		links := 0
		k := i + cfg.SpotDistance
		for j := 0; j < cfg.ChainLength && k < n; j++ {
			if cfg.ReleaseChains {
				w := k
				for stop(w) && k < n {
					w = k
					k++
				}
				if !stop(w) {
					h = hashtab.Combine(h, e.hs[w])
					links++
				}
			} else {
				for k < n && stop(k) {
					k++
				}
				if k >= n {
					break
				}
				h = hashtab.Combine(h, e.hs[k])
				links++
			}
			k += cfg.SpotDistance
		}
		if links > 0 {
			raw = append(raw, h)
		}
	}
	slices.Sort(raw)
	return raw
}

// expand returns the signature multiset hashes, counts as a sorted list
// with repeats.
func expand(hashes []uint64, counts []uint32) []uint64 {
	var out []uint64
	for i, h := range hashes {
		for range counts[i] {
			out = append(out, h)
		}
	}
	return out
}

// spotRunText returns a random text of about words words in which runs of
// stopwords and antecedents (up to maxRun long) alternate with short runs
// of content words.
func spotRunText(r *rand.Rand, words, maxRun int) string {
	stops := []string{"the", "is", "said", "was", "of", "and", "a", "to", "in", "it"}
	plain := []string{"storm", "coast", "minister", "bank", "rates", "river", "flood", "vote"}
	var b strings.Builder
	for w := 0; w < words; {
		run, from := 1+r.IntN(4), plain
		if r.IntN(2) == 0 {
			run, from = 1+r.IntN(maxRun), stops
		}
		for range run {
			b.WriteString(from[r.IntN(len(from))])
			if r.IntN(10) == 0 {
				b.WriteString(". ")
			} else {
				b.WriteByte(' ')
			}
			w++
		}
	}
	return b.String()
}

// spotConfigs are SpotSigs configurations covering both chain walks, the
// antecedent key, several distances and chain lengths, and a language with
// and without a stopword list.
func spotConfigs(t testing.TB) []Config {
	t.Helper()
	var out []Config
	for _, lang := range []string{"en", ""} {
		for _, release := range []bool{false, true} {
			for _, dc := range [][2]int{{1, 1}, {2, 3}, {1, 4}, {3, 2}, {1, 64}} {
				cfg, err := Config{Method: SpotSigs, Language: lang, ReleaseChains: release, IncludeAntecedent: dc[0] == 3,
					SpotDistance: dc[0], ChainLength: dc[1], Antecedents: "is,the,said,was,of"}.withDefaults()
				require.NoError(t, err)
				out = append(out, cfg)
			}
		}
	}
	return out
}

// TestSpotsMatchScan: spots finds the signatures of the scan on random
// texts with many runs of stopwords and antecedents, under every chain walk.
func TestSpotsMatchScan(t *testing.T) {
	r := rand.New(rand.NewPCG(35, 6))
	for _, cfg := range spotConfigs(t) {
		e, err := newExtractor(cfg)
		require.NoError(t, err)
		texts := []string{"", "the", "the the", "the storm", "storm the", "the of and storm the of"}
		for range 60 {
			texts = append(texts, spotRunText(r, r.IntN(300), 1+r.IntN(30)))
		}
		for _, text := range texts {
			h, c := e.spots(text)
			require.Equal(t, e.spotsScan(), expand(h, c), "%q release %v d %d c %d: %q",
				cfg.Language, cfg.ReleaseChains, cfg.SpotDistance, cfg.ChainLength, text)
		}
	}
}

// TestSpotsLinearSteps counts the chain links spots visits: on long runs of
// antecedents they stay within ChainLength per token, where the scan's
// steps grew with the square of the run.
func TestSpotsLinearSteps(t *testing.T) {
	for _, cfg := range spotConfigs(t) {
		e, err := newExtractor(cfg)
		require.NoError(t, err)
		for _, text := range []string{
			strings.Repeat("the is was of ", 10000),
			strings.Repeat("the is was of ", 10000) + "storm",
			strings.Repeat("the is of ", 5000) + strings.Repeat("storm flood ", 5000),
		} {
			e.spotSteps = 0
			e.spots(text)
			tokens := len(strings.Fields(text))
			require.LessOrEqual(t, e.spotSteps, cfg.ChainLength*tokens, "%q release %v d %d c %d",
				cfg.Language, cfg.ReleaseChains, cfg.SpotDistance, cfg.ChainLength)
		}
	}
}

// FuzzSpots: on any text, spots finds the signatures of the scan.
func FuzzSpots(f *testing.F) {
	for _, s := range []string{"", "the", "the is said was storm", "storm the flood was", "İSTANBUL the\x00is", "a b c d e"} {
		f.Add(s, uint8(0))
		f.Add(s, uint8(7))
	}
	f.Add(spotRunText(rand.New(rand.NewPCG(1, 1)), 200, 30), uint8(3))
	cfgs := spotConfigs(f)
	f.Fuzz(func(t *testing.T, text string, which uint8) {
		cfg := cfgs[int(which)%len(cfgs)]
		e, err := newExtractor(cfg)
		require.NoError(t, err)
		h, c := e.spots(text)
		require.Equal(t, e.spotsScan(), expand(h, c))
	})
}
