package simhash

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"

	"golang.org/x/text/language"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/dataset"
	"github.com/seed-9ef9c1df/neardup/internal/testkit"
	"github.com/seed-9ef9c1df/neardup/textproc"
)

var sink uint64

// BenchmarkReuters measures fingerprint throughput on the first 5000
// Reuters-21578 bodies against the floor and the analyzer alone, in the same
// run: the seed's configuration (FullConfig English analysis, idf weights
// from a frozen table of the same texts, SkipTop 2) and the peers'
// configuration (textproc.Config{}: tokenise and lower-case only, tf
// weights, no idf).
func BenchmarkReuters(b *testing.B) {
	recs := dataset.Reuters(b, 5000)
	docs := dataset.Texts(recs)
	seed := Config{Language: "en"}
	peer := Config{KeepStopwords: true, Stemmer: textproc.StemNone, Weights: WeightTF, SkipTop: -1}
	idf := collectionIDF(b, seed, recs)
	b.Run("Floor", func(b *testing.B) { testkit.Run(b, docs) })
	b.Run("AnalyzerPlain", func(b *testing.B) {
		testkit.RunAnalyzer(b, textproc.Config{}, docs)
	})
	b.Run("AnalyzerFull", func(b *testing.B) {
		testkit.RunAnalyzer(b, textproc.FullConfig(language.English), docs)
	})
	b.Run("SignPeerLike", func(b *testing.B) {
		s, err := NewSigner(peer, nil)
		if err != nil {
			b.Fatal(err)
		}
		testkit.RunEach(b, docs, func(t string) { fp, _ := s.Sign(t); sink += fp })
	})
	b.Run("SignSeed", func(b *testing.B) {
		s, err := NewSigner(seed, idf)
		if err != nil {
			b.Fatal(err)
		}
		testkit.RunEach(b, docs, func(t string) { fp, _ := s.Sign(t); sink += fp })
	})
	b.Run("SignWord3GramsIDF", func(b *testing.B) {
		s, err := NewSigner(Config{Language: "en", Features: FeatureWordNGrams}, idf)
		if err != nil {
			b.Fatal(err)
		}
		testkit.RunEach(b, docs, func(t string) { fp, _ := s.Sign(t); sink += fp })
	})
	b.Run("DetectorAdd", func(b *testing.B) {
		// Add = sign + query + insert, into a detector that grows by 5000
		// documents per iteration.
		d, err := NewWithIDF(seed, idf)
		if err != nil {
			b.Fatal(err)
		}
		n := 0
		testkit.RunEach(b, docs, func(t string) {
			n++
			if _, err := d.Add(detector.Doc{ID: fmt.Sprint(n), Text: t}); err != nil {
				b.Fatal(err)
			}
		})
	})
}

// BenchmarkIndexQuery measures one query at 10k, 100k and 1M stored random
// fingerprints by the index's design (K and tables), against a brute-force
// scan within K = 3 in the same run, and reports the index's memory per
// stored fingerprint.
func BenchmarkIndexQuery(b *testing.B) {
	for _, n := range []int{10_000, 100_000, 1_000_000} {
		r := rand.New(rand.NewPCG(uint64(n), 1))
		fps := make([]uint64, n)
		for i := range fps {
			fps[i] = r.Uint64()
		}
		// Queries: half near a stored fingerprint (≤ 3 bits), half random.
		queries := make([]uint64, 1024)
		for i := range queries {
			queries[i] = r.Uint64()
			if i%2 == 0 {
				queries[i] = flip(r, fps[r.IntN(n)], r.IntN(4))
			}
		}
		// Manku's K = 3 designs, and the derived designs of K 4, 5 and 10
		// (11 tables of 5-6-bit keys: a probe meets N/64 fingerprints).
		for _, design := range []struct{ k, blocks int }{{3, 0}, {3, 5}, {4, 0}, {5, 0}, {10, 0}} {
			l, err := indexLayout(design.k, design.blocks)
			if err != nil {
				b.Fatal(err)
			}
			name := fmt.Sprintf("n=%d/Index/K=%d/tables=%d", n, design.k, len(l.perms))
			b.Run(name, func(b *testing.B) {
				runtime.GC()
				var before, after runtime.MemStats
				runtime.ReadMemStats(&before)
				ix, err := NewIndex(design.k, design.blocks)
				if err != nil {
					b.Fatal(err)
				}
				for i, fp := range fps {
					ix.Add(uint32(i), fp)
				}
				runtime.GC()
				runtime.ReadMemStats(&after)
				dst := make([]Neighbor, 0, 64)
				found := 0
				b.ReportAllocs()
				i := 0
				for b.Loop() {
					dst = ix.Query(queries[i%len(queries)], dst[:0])
					found += len(dst)
					i++
				}
				b.ReportMetric(float64(ix.bytes())/float64(n), "B/fp")
				b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/float64(n), "heapB/fp")
				b.ReportMetric(float64(found)/float64(i), "found/query")
				runtime.KeepAlive(ix)
			})
		}
		b.Run(fmt.Sprintf("n=%d/BruteForce", n), func(b *testing.B) {
			found, i := 0, 0
			b.ReportAllocs()
			for b.Loop() {
				q := queries[i%len(queries)]
				for _, fp := range fps {
					if bits.OnesCount64(fp^q) <= 3 {
						found++
					}
				}
				i++
			}
			b.ReportMetric(8, "B/fp")
			b.ReportMetric(float64(found)/float64(i), "found/query")
		})
	}
}

// BenchmarkSizes signs documents of 100 B, 4 KB and 100 KB (synthetic news)
// with the seed's configuration over an online-built frozen table.
func BenchmarkSizes(b *testing.B) {
	for _, size := range []int{100, 4 << 10, 100 << 10} {
		b.Run(fmt.Sprintf("%dB", size), func(b *testing.B) {
			text := synthText(size)
			idf := textproc.NewIDF(false)
			idf.Freeze()
			s, err := NewSigner(Config{}, idf)
			if err != nil {
				b.Fatal(err)
			}
			testkit.RunEach(b, []string{text}, func(t string) { fp, _ := s.Sign(t); sink += fp })
		})
	}
}

// BenchmarkAddSpotsBySize adds one document of 64 KB to 4 MiB (the size
// limit) to a fresh detector configured as the registry's simhash-spots
// (FeatureSpots, WeightTF, K 20): text made only of stopwords, and English
// prose (Reuters-21578 bodies joined). Time should grow linearly with the
// size for both.
func BenchmarkAddSpotsBySize(b *testing.B) {
	cfg := Config{Language: "en", Features: FeatureSpots, Weights: WeightTF, K: 20}
	prose := strings.Join(dataset.Texts(dataset.Reuters(b, 0)), "\n\n")
	for _, size := range []int{64 << 10, 256 << 10, 1 << 20, 4 << 20} {
		stops := strings.Repeat("the of and to in is it a ", size/24+1)[:size]
		plain := strings.Repeat(prose, size/len(prose)+1)[:size]
		for _, kind := range []struct{ name, text string }{{"stopwords", stops}, {"prose", plain}} {
			b.Run(fmt.Sprintf("%s/%dKB", kind.name, size>>10), func(b *testing.B) {
				for b.Loop() {
					d, err := New(cfg)
					if err != nil {
						b.Fatal(err)
					}
					if _, err := d.Add(detector.Doc{ID: "a", Text: kind.text}); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkNearestPlan compares nearest's two plans beyond Query's radius,
// a scan of every entry and the multi-probe search, at the default layout
// (K 3: 4 tables of 16-bit keys) on random fingerprints with near copies:
// where they cross sets scanPerProbe.
func BenchmarkNearestPlan(b *testing.B) {
	for _, n := range []int{5000, 20000, 80000} {
		r := rand.New(rand.NewPCG(1, uint64(n)))
		ix, err := NewIndex(3, 0)
		if err != nil {
			b.Fatal(err)
		}
		fps := make([]uint64, n)
		for i := range fps {
			fps[i] = r.Uint64()
			if i > 0 && r.IntN(3) == 0 {
				fps[i] = fps[r.IntN(i)] ^ 1<<r.IntN(64) ^ 1<<r.IntN(64)
			}
			ix.Add(uint32(i), fps[i])
		}
		probe := ix.scanMax
		for _, plan := range []string{"scan", "probe"} {
			b.Run(fmt.Sprintf("n=%d/%s", n, plan), func(b *testing.B) {
				ix.scanMax = n
				if plan == "probe" {
					ix.scanMax = 0
				}
				b.ReportAllocs()
				i := 0
				for b.Loop() {
					ix.nearest(fps[i%n]^0xff, 20)
					i++
				}
			})
		}
		ix.scanMax = probe
	}
}

// bytes returns the memory held by the index's arrays.
func (ix *Index) bytes() int {
	n := cap(ix.pend) * 16
	for _, tb := range ix.tables {
		n += 8*(cap(tb.main)+cap(tb.buf)) + 4*(cap(tb.mainID)+cap(tb.bufID)) + 16*cap(tb.scratch)
	}
	return n
}
