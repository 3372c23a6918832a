package mrcosine

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/dataset"
)

// variants returns n texts drawn from base: a third as they are, the
// rest edited (a few words dropped, or a sentence of another text
// appended), and a tenth of all copies of an earlier text, some in
// capitals (the same signature under Normalized text), so that a stream of
// them holds near-duplicates at every distance from the threshold and
// exact copies.
func variants(base []string, n int, seed uint64) []string {
	rng := rand.New(rand.NewPCG(seed, 3))
	out := make([]string, 0, n)
	for len(out) < n {
		if len(out) > 0 && rng.IntN(10) == 0 {
			t := out[rng.IntN(len(out))]
			if rng.IntN(2) == 0 {
				t = strings.ToUpper(t)
			}
			out = append(out, t)
			continue
		}
		words := strings.Fields(base[rng.IntN(len(base))])
		switch rng.IntN(3) {
		case 1:
			for range 1 + rng.IntN(max(1, len(words)/8)) {
				if len(words) > 2 {
					i := rng.IntN(len(words))
					words = append(words[:i], words[i+1:]...)
				}
			}
		case 2:
			other := strings.Fields(base[rng.IntN(len(base))])
			words = append(words, other[:min(len(other), 5+rng.IntN(20))]...)
		}
		out = append(out, strings.Join(words, " "))
	}
	return out
}

// linearized adds texts from G goroutines while another removes a third of
// the documents already added, and requires that the detector ended
// exactly as one goroutine adding the surviving documents would leave it:
// the same Containers of every document, byte-identical snapshots. Every
// Add's answer holds only documents added before it returned, never
// itself, with the score a sequential detector gives the pair.
func linearized(t *testing.T, cfg Config, texts []string, G int) {
	t.Helper()
	d := mustNew(t, cfg)
	text := make(map[string]string, len(texts))
	for i, s := range texts {
		text[fmt.Sprintf("d%05d", i)] = s
	}
	answers := make([][]detector.Match, len(texts))
	removals := make(chan string, len(texts))
	var wg sync.WaitGroup
	for w := range G {
		wg.Go(func() {
			for i := w; i < len(texts); i += G {
				id := fmt.Sprintf("d%05d", i)
				ms, err := d.Add(detector.Doc{ID: id, Text: texts[i]})
				if !assert.NoError(t, err) {
					return
				}
				answers[i] = ms
				if i%3 == 1 {
					removals <- id
				}
			}
		})
	}
	var rw sync.WaitGroup
	var removed sync.Map
	rw.Go(func() {
		for id := range removals {
			assert.NoError(t, d.Remove(id))
			removed.Store(id, true)
		}
	})
	wg.Wait()
	close(removals)
	rw.Wait()
	require.False(t, t.Failed())

	seq := mustNew(t, cfg)
	for i, s := range texts {
		id := fmt.Sprintf("d%05d", i)
		if _, gone := removed.Load(id); !gone {
			_, err := seq.Add(detector.Doc{ID: id, Text: s})
			require.NoError(t, err)
		}
	}
	require.Equal(t, seq.Len(), d.Len())
	for id := range text {
		want, err := seq.Containers(id)
		if err != nil {
			require.ErrorIs(t, err, detector.ErrUnknownID)
			continue
		}
		got, err := d.Containers(id)
		require.NoError(t, err)
		require.Equal(t, want, got, "Containers(%s)", id)
	}
	require.Equal(t, encode(t, seq), encode(t, d))

	// The scores of the pairs: the cosine of the compared vectors, or 1
	// for the copies of a text without one.
	vecs := make(map[string][]float32, len(text))
	for id, tx := range text {
		sg := d.sign(tx)
		vecs[id] = slices.Clone(sg.vec)
		d.release(sg)
	}
	for i, ms := range answers {
		id := fmt.Sprintf("d%05d", i)
		for _, m := range ms {
			require.NotEqual(t, id, m.ID)
			require.Contains(t, text, m.ID)
			want := 1.0
			if a, b := vecs[id], vecs[m.ID]; a != nil && b != nil {
				want = cosine(a, b)
			}
			require.Equal(t, want, m.Score, "Add(%s) reported %s", id, m.ID)
		}
	}
}

// linearConfigs are the Configs the linearisation tests run: every mode,
// with a cap that cuts and without, and plain signatures at a threshold
// high enough that most queries read their buckets rather than make the
// sequential pass, so both searches (and the switch between them) meet
// concurrent changes.
var linearConfigs = []struct {
	name string
	cfg  Config
}{
	{"Index", Config{MaxResults: 1 << 30}},
	{"IndexCap3", Config{MaxResults: 3}},
	{"IndexT2High", Config{T2: 0.99, T1: 0.995, MaxResults: 1 << 30}},
	{"Centered", Config{Centered: true, MaxResults: 1 << 30}},
	{"CenteredT2High", Config{Centered: true, T2: 0.9, T1: 0.95, MaxResults: 1 << 30}},
	{"Exhaustive", Config{Exhaustive: true, MaxResults: 1 << 30}},
	// Few narrow bands miss many pairs the sequential pass finds, so
	// which of the two a query takes shows in its answer.
	{"FewBands", Config{Rows: 12, Bands: 2, MaxResults: 1 << 30}},
	{"FewBandsCentered", Config{Centered: true, Rows: 10, Bands: 2, MaxResults: 1 << 30}},
}

func TestConcurrentAddsLinearized(t *testing.T) {
	texts := variants(synthTexts(60, 11), dataset.LongSize(200, 400), 11)
	gs := []int{4}                             // NEARDUP_LONG adds 2 goroutines and 200 texts
	if dataset.LongEnabled() && !raceEnabled { // the race detector slows the run tenfold
		gs = []int{2, 4}
	}
	for _, c := range linearConfigs {
		t.Run(c.name, func(t *testing.T) {
			for _, g := range gs {
				linearized(t, c.cfg, texts, g)
			}
		})
	}
}

// TestConcurrentAddsLinearizedReuters is the same on news stories, whose
// signatures spread far more than synthetic texts' (the bucket search and
// the sequential pass both occur at the default thresholds).
func TestConcurrentAddsLinearizedReuters(t *testing.T) {
	recs := dataset.Reuters(t, 600)
	base := dataset.Texts(recs)
	texts := variants(base, 800, 12)
	for _, c := range linearConfigs {
		t.Run(c.name, func(t *testing.T) { linearized(t, c.cfg, texts, 2) })
	}
}
