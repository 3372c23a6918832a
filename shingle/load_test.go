package shingle_test

import (
	"math/rand/v2"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/dataset"
	"github.com/seed-9ef9c1df/neardup/internal/testkit"
	"github.com/seed-9ef9c1df/neardup/shingle"
	"github.com/seed-9ef9c1df/neardup/textproc"
)

// methodConfigs are the three methods at their defaults, for the load
// benchmarks and stress tests.
var methodConfigs = []struct {
	name string
	cfg  shingle.Config
}{
	{"ffp", shingle.Config{}},
	{"dsc", shingle.Config{Method: shingle.DSC}},
	{"spotsigs", shingle.Config{Method: shingle.SpotSigs}},
}

// reutersTexts returns the first n Reuters-21578 stories as documents and
// texts (skipping when the data is absent).
func reutersTexts(tb testing.TB, n int) ([]detector.Doc, []string) {
	recs := dataset.Reuters(tb, n)
	docs := dataset.Docs(recs)
	texts := make([]string, len(recs))
	for i, r := range recs {
		texts[i] = r.Text
	}
	return docs, texts
}

// BenchmarkAddParallel adds the first 4,000 Reuters stories into a fresh
// detector from 1 and from 2 goroutines (each taking every other
// document), beside the floor: on a 2-core machine the g2/g1 ratio of
// docs/s is the speed-up that analysis outside the lock buys.
func BenchmarkAddParallel(b *testing.B) {
	docs, texts := reutersTexts(b, 4000)
	b.Run("floor", func(b *testing.B) { testkit.Run(b, texts) })
	for _, mc := range methodConfigs {
		for _, g := range []int{1, 2} {
			b.Run(mc.name+"/g"+strconv.Itoa(g), func(b *testing.B) {
				testkit.AddParallel(b, func() (detector.Detector, error) { return shingle.New(mc.cfg) }, docs, g)
			})
		}
	}
}

// BenchmarkSpotStream is SpotSigs over all of Reuters-21578 in date order:
// Adds alone, and a stream that asks Containers of every document right
// after its Add (a service that answers as it goes), beside the floor.
func BenchmarkSpotStream(b *testing.B) {
	docs, texts := reutersTexts(b, 0)
	b.Run("floor", func(b *testing.B) { testkit.Run(b, texts) })
	for _, ask := range []bool{false, true} {
		name := "add"
		if ask {
			name = "add+containers"
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				d, err := shingle.New(shingle.Config{Method: shingle.SpotSigs})
				if err != nil {
					b.Fatal(err)
				}
				for _, doc := range docs {
					if _, err := d.Add(doc); err != nil {
						b.Fatal(err)
					}
					if ask {
						if _, err := d.Containers(doc.ID); err != nil {
							b.Fatal(err)
						}
					}
				}
				d.Close()
			}
			b.ReportMetric(float64(len(docs))*float64(b.N)/b.Elapsed().Seconds(), "docs/s")
		})
	}
}

// hostileText returns a one-line text of about size bytes made of distinct
// tokens that differ in their first letters (so no stemmer merges them),
// as the identifiers, URLs and numbers of a machine-made document; seed
// makes two texts share none.
func hostileText(seed string, size int) string {
	r := rand.New(rand.NewPCG(uint64(len(seed)), 7))
	var sb strings.Builder
	sb.Grow(size + 32)
	for sb.Len() < size {
		sb.WriteString(strconv.FormatUint(1<<50+r.Uint64N(1<<55), 36))
		sb.WriteString(seed)
		sb.WriteByte(' ')
	}
	return sb.String()
}

// BenchmarkStall measures how long a small Containers call waits while
// another goroutine adds a 20 MB one-line document: the longest wait of
// any call issued every millisecond during the Add (max-wait-ms), against
// the Add's own duration (add-ms).
func BenchmarkStall(b *testing.B) {
	big := hostileText("st", 20<<20)
	small := dataset.SynthDocs(50, dataset.SynthConfig{Seed: 3})
	for _, mc := range methodConfigs {
		b.Run(mc.name, func(b *testing.B) {
			var worst, addTime time.Duration
			mc.cfg.MaxTextBytes = 32 << 20 // the default limit refuses the 20 MB document
			for b.Loop() {
				d, err := shingle.New(mc.cfg)
				if err != nil {
					b.Fatal(err)
				}
				for _, doc := range small {
					if _, err := d.Add(doc); err != nil {
						b.Fatal(err)
					}
				}
				done := make(chan struct{})
				var w time.Duration
				var wg sync.WaitGroup
				wg.Go(func() {
					for i := 0; ; i++ {
						select {
						case <-done:
							return
						case <-time.After(time.Millisecond):
						}
						t0 := time.Now()
						if _, err := d.Containers(small[i%len(small)].ID); err != nil {
							b.Error(err)
						}
						w = max(w, time.Since(t0))
					}
				})
				t0 := time.Now()
				if _, err := d.Add(detector.Doc{ID: "big", Text: big}); err != nil {
					b.Fatal(err)
				}
				addTime += time.Since(t0)
				close(done)
				wg.Wait()
				worst = max(worst, w)
				d.Close()
			}
			b.ReportMetric(float64(worst.Microseconds())/1000, "max-wait-ms")
			b.ReportMetric(float64(addTime.Microseconds())/1000/float64(b.N), "add-ms")
		})
	}
}

// TestHostileMemory adds and removes three 20 MB one-line documents of
// distinct tokens and requires the live heap to come back to near where it
// started. It takes tens of seconds: NEARDUP_LONG=1 runs it.
func TestHostileMemory(t *testing.T) {
	dataset.SkipSoak(t)
	// The default reads the main content, which drops a one-line text of
	// identifiers as boilerplate; the whole text is the hostile case.
	var cfgs []struct {
		name string
		cfg  shingle.Config
	}
	for _, mc := range methodConfigs {
		mc.cfg.MaxTextBytes = 32 << 20 // the default limit refuses 20 MB
		cfgs = append(cfgs, mc)
		mc.name += "-all"
		mc.cfg.Content = textproc.ContentAll
		cfgs = append(cfgs, mc)
	}
	for _, mc := range cfgs {
		t.Run(mc.name, func(t *testing.T) {
			d, err := shingle.New(mc.cfg)
			require.NoError(t, err)
			defer d.Close()
			for _, doc := range dataset.SynthDocs(200, dataset.SynthConfig{Seed: 5}) {
				_, err := d.Add(doc)
				require.NoError(t, err)
			}
			base := testkit.LiveHeap()
			var peak uint64
			for i, seed := range []string{"ha", "hbb", "hccc"} {
				id := "hostile" + strconv.Itoa(i)
				_, err := d.Add(detector.Doc{ID: id, Text: hostileText(seed, 20<<20)})
				require.NoError(t, err)
				peak = max(peak, testkit.LiveHeap())
				require.NoError(t, d.Remove(id))
			}
			after := testkit.LiveHeap()
			t.Logf("%s: live heap %.1f MB before, %.1f MB peak with one document, %.1f MB after three added and removed",
				mc.name, mb(base), mb(peak), mb(after))
			require.Less(t, after, base+32<<20, "memory must come back on Remove")
		})
	}
}

func mb(x uint64) float64 { return float64(x) / (1 << 20) }

// TestSoak streams documents with three fresh tokens each through a window
// of 2,000 live documents (internal/testkit (Soak)) and requires a flat live heap.
// NEARDUP_LONG=1 runs 50,000 Adds per method, NEARDUP_LONG=N runs N (at
// least 20,000).
func TestSoak(t *testing.T) {
	dataset.SkipSoak(t)
	n := max(dataset.LongCount(50_000), 20_000)
	for _, mc := range methodConfigs {
		t.Run(mc.name, func(t *testing.T) {
			d, err := shingle.New(mc.cfg)
			require.NoError(t, err)
			defer d.Close()
			s, err := testkit.Soak(d, testkit.SoakConfig{Adds: n, Window: 2000, Every: n / 10})
			require.NoError(t, err)
			var parts []string
			for _, x := range s {
				parts = append(parts, strconv.Itoa(x.Adds)+":"+strconv.FormatFloat(mb(x.HeapBytes), 'f', 1, 64)+"MB")
			}
			t.Logf("%s heap samples: %s; growth %.2f MB", mc.name, strings.Join(parts, " "), mb(testkit.Growth(s)))
			require.Less(t, testkit.Growth(s), uint64(4<<20), "live heap must stay flat")
		})
	}
}

// copyStory returns a near-copy of text: about one word in 25 replaced by
// a word of its own (r decides which), as an edited republication.
func copyStory(r *rand.Rand, text string, i int) string {
	words := strings.Fields(text)
	for k := range words {
		if r.IntN(25) == 0 {
			words[k] = "ed" + strconv.Itoa(i) + "w" + strconv.Itoa(k)
		}
	}
	return strings.Join(words, " ")
}

// TestNearCopiesStayVisible adds 2,000 stories and then 2,000 near-copies
// (5,000 with NEARDUP_LONG; recall fell to 0 from 1,500 before the fix)
// of one of them: every block of 500 copies must keep finding earlier
// copies, with Add (recall: the fraction of copies whose Add reports
// another copy) and with Containers. A story copied more often than the
// idf band's upper cut allows must not vanish from the index.
func TestNearCopiesStayVisible(t *testing.T) {
	copies := dataset.LongSize(2000, 5000)
	if testing.Short() || shingle.RaceEnabled {
		copies = 1500
	}
	cfg := shingle.Config{Method: shingle.SpotSigs, Language: "und", Antecedents: synthAntecedents}
	d, err := shingle.New(cfg)
	require.NoError(t, err)
	defer d.Close()
	stories := dataset.SynthDocs(2001, dataset.SynthConfig{Seed: 21, VariantRate: -1})
	for _, doc := range stories[1:] {
		_, err := d.Add(doc)
		require.NoError(t, err)
	}
	r := rand.New(rand.NewPCG(5, 5))
	story := stories[0].Text
	found, matches := 0, 0
	start := time.Now()
	for i := range copies {
		id := "copy" + strconv.Itoa(i)
		ms, err := d.Add(detector.Doc{ID: id, Text: copyStory(r, story, i)})
		require.NoError(t, err)
		if slices.ContainsFunc(ms, func(m detector.Match) bool { return strings.HasPrefix(m.ID, "copy") }) || i == 0 {
			found++
		}
		matches += len(ms)
		if (i+1)%500 == 0 {
			c, err := d.Containers(id)
			require.NoError(t, err)
			el := time.Since(start)
			t.Logf("copies %5d: Add recall %.3f in this block, %d Containers of the last, %.0f matches/Add, %v/Add",
				i+1, float64(found)/500, len(c), float64(matches)/500, (el / 500).Round(time.Microsecond))
			assert.GreaterOrEqual(t, found, 475, "copies %d-%d: Add found an earlier copy for only %d of 500", i-498, i+1, found)
			assert.NotEmpty(t, c, "Containers of copy %d finds no other copy", i)
			found, matches, start = 0, 0, time.Now()
		}
	}
	runtime.KeepAlive(d)
}
