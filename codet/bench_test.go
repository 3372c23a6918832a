package codet_test

import (
	"fmt"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/seed-9ef9c1df/neardup/codet"
	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/dataset"
	"github.com/seed-9ef9c1df/neardup/internal/testkit"
	"github.com/seed-9ef9c1df/neardup/textproc"
)

// benchReuters is the number of Reuters documents of the stream benchmarks.
const benchReuters = 2000

func reutersTexts(b *testing.B) ([]detector.Doc, []string, int) {
	docs := dataset.Docs(dataset.Reuters(b, benchReuters))
	texts := make([]string, len(docs))
	total := 0
	for i, d := range docs {
		texts[i] = d.Text
		total += len(d.Text)
	}
	return docs, texts, total
}

// BenchmarkFloor is the floor every speed figure is a multiple of.
func BenchmarkFloor(b *testing.B) {
	_, texts, _ := reutersTexts(b)
	testkit.Run(b, texts)
}

// BenchmarkAnalyzer is the textproc analyzer alone over the same texts, with
// CoDet's configuration (English, stopwords, first-5), warm vocabulary.
func BenchmarkAnalyzer(b *testing.B) {
	_, texts, _ := reutersTexts(b)
	testkit.RunAnalyzer(b, textproc.FullConfig(mustTag(b, "en")), texts)
}

// BenchmarkAdd streams the Reuters documents in date order into a fresh
// detector per iteration (default Config: the English reference table).
func BenchmarkAdd(b *testing.B) {
	docs, _, total := reutersTexts(b)
	for _, bc := range []struct {
		name string
		cfg  codet.Config
	}{
		{"tree", codet.Config{Language: "en"}},
		{"pairwise", codet.Config{Language: "en", Mode: codet.ModePairwise}},
		{"noWS", codet.Config{Language: "en", NoWordSort: true}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(total))
			b.ReportAllocs()
			for b.Loop() {
				d, err := codet.New(bc.cfg)
				if err != nil {
					b.Fatal(err)
				}
				for _, doc := range docs {
					if _, err := d.Add(doc); err != nil {
						b.Fatal(err)
					}
				}
				d.Close()
			}
			b.ReportMetric(float64(len(docs))*float64(b.N)/b.Elapsed().Seconds(), "docs/s")
		})
	}
}

// BenchmarkAddParallel streams the Reuters documents into a fresh detector
// per iteration (default Config: the English reference table) from 1 and
// from 2 goroutines that take the documents in turn. Analysis and
// sequence building run outside the detector's lock, so 2 goroutines
// overlap them with each other's tree updates.
func BenchmarkAddParallel(b *testing.B) {
	docs, _, total := reutersTexts(b)
	for _, procs := range []int{1, 2} {
		b.Run(fmt.Sprintf("goroutines=%d", procs), func(b *testing.B) {
			b.SetBytes(int64(total))
			b.ReportAllocs()
			for b.Loop() {
				d, err := codet.New(codet.Config{Language: "en"})
				if err != nil {
					b.Fatal(err)
				}
				var next atomic.Int64
				var wg sync.WaitGroup
				for range procs {
					wg.Go(func() {
						for {
							i := int(next.Add(1)) - 1
							if i >= len(docs) {
								return
							}
							if _, err := d.Add(docs[i]); err != nil {
								b.Error(err)
								return
							}
						}
					})
				}
				wg.Wait()
				d.Close()
			}
			b.ReportMetric(float64(len(docs))*float64(b.N)/b.Elapsed().Seconds(), "docs/s")
		})
	}
}

// BenchmarkContainers asks the containers of every document of a filled
// detector.
func BenchmarkContainers(b *testing.B) {
	docs, _, _ := reutersTexts(b)
	d, err := codet.New(codet.Config{Language: "en"})
	if err != nil {
		b.Fatal(err)
	}
	defer d.Close()
	for _, doc := range docs {
		d.Add(doc)
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, doc := range docs {
			d.Containers(doc.ID)
		}
	}
	b.ReportMetric(float64(len(docs))*float64(b.N)/b.Elapsed().Seconds(), "docs/s")
}

// cpuTime is the CPU time of the process (user + system), less sensitive
// than wall time to the other jobs of a shared machine.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func heap() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// scaleSizes are the collection sizes of BenchmarkScale. CODET_SCALE_MAX
// caps them (the 640k run needs several minutes and about 5 GB);
// CODET_SCALE_ONLY runs one size.
func scaleSizes() []int {
	sizes := []int{10_000, 40_000, 160_000, 640_000}
	if v, err := strconv.Atoi(os.Getenv("CODET_SCALE_ONLY")); err == nil {
		return []int{v}
	}
	if v, err := strconv.Atoi(os.Getenv("CODET_SCALE_MAX")); err == nil {
		var out []int
		for _, n := range sizes {
			if n <= v {
				out = append(out, n)
			}
		}
		return out
	}
	return sizes
}

// BenchmarkScale adds n synthetic news documents (internal/dataset's synthetic stream: bases,
// copies, edits, truncations and merges) to one detector and reports the
// mean time per document, the time per document of the last 10% (the
// marginal cost at size n) and the live heap per document. Run it with
// -benchtime=1x. The invented words of the stream are in no reference
// table of the library, so the detector reads a frozen table built from
// 20,000 documents of another synthetic stream (random seed 2) of the same
// language, as a deployment reads the reference table of its language;
// CODET_SCALE_ONLINE=1 runs it with online idf instead.
func BenchmarkScale(b *testing.B) {
	an, err := textproc.NewAnalyzer(textproc.FullConfig(mustTag(b, "en")))
	if err != nil {
		b.Fatal(err)
	}
	var refTexts []string
	for _, d := range dataset.SynthDocs(20_000, dataset.SynthConfig{Seed: 2}) {
		refTexts = append(refTexts, d.Text)
	}
	ref := textproc.BuildIDF(an, refTexts, false)
	for _, n := range scaleSizes() {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			docs := dataset.SynthDocs(n, dataset.SynthConfig{Seed: 1})
			total := 0
			for _, d := range docs {
				total += len(d.Text)
			}
			b.SetBytes(int64(total))
			b.ReportAllocs()
			var perDoc, lastDoc, cpuPerDoc, cpuLast, bytesPerDoc float64
			for b.Loop() {
				before := heap()
				d, err := codet.NewWithIDF(codet.Config{Language: "en"}, ref)
				if os.Getenv("CODET_SCALE_ONLINE") != "" {
					d, err = codet.New(codet.Config{Language: "en", IDF: codet.IDFOnline})
				}
				if err != nil {
					b.Fatal(err)
				}
				start, cpuStart := time.Now(), cpuTime()
				tail := n - n/10
				var tailStart time.Time
				var cpuTail time.Duration
				for i, doc := range docs {
					if i == tail {
						tailStart, cpuTail = time.Now(), cpuTime()
					}
					if _, err := d.Add(doc); err != nil {
						b.Fatal(err)
					}
				}
				end, cpuEnd := time.Now(), cpuTime()
				cpuPerDoc = float64((cpuEnd - cpuStart).Nanoseconds()) / float64(n)
				cpuLast = float64((cpuEnd - cpuTail).Nanoseconds()) / float64(n-tail)
				perDoc = float64(end.Sub(start).Nanoseconds()) / float64(n)
				lastDoc = float64(end.Sub(tailStart).Nanoseconds()) / float64(n-tail)
				b.StopTimer()
				after := heap()
				st := d.Stats()
				bytesPerDoc = (float64(after) - float64(before)) / float64(n)
				b.Logf("n=%d: %v", n, st)
				b.Logf("n=%d: work per document: %s", n, perDocWork(codet.Work(d), n))
				runtime.KeepAlive(d)
				d.Close()
				b.StartTimer()
			}
			b.ReportMetric(perDoc, "ns/doc")
			b.ReportMetric(lastDoc, "ns/doc-last10%")
			b.ReportMetric(cpuPerDoc, "cpu-ns/doc")
			b.ReportMetric(cpuLast, "cpu-ns/doc-last10%")
			b.ReportMetric(bytesPerDoc, "B/livedoc")
		})
	}
}

// perDocWork formats the work counters divided by n, in a fixed order.
func perDocWork(w map[string]int, n int) string {
	var sb strings.Builder
	for _, k := range []string{"visits", "lookups", "found", "distinct", "scanned", "samples",
		"aside", "asideNodes", "asideSamples", "checks", "resolved", "walked", "rescanned",
		"inserts", "enters", "purged"} {
		fmt.Fprintf(&sb, "%s %.1f ", k, float64(w[k])/float64(n))
	}
	return strings.TrimSpace(sb.String())
}

// BenchmarkIdentical is the worst case of Varol 2012 §3.3.1: 10,000
// identical documents, with collapsing (default), with collapsing and a
// cap on the output, with near-duplicate collapsing, and without
// collapsing (node deactivation only); the analyzer alone over the same
// 10,000 texts is the baseline.
func BenchmarkIdentical(b *testing.B) {
	const n = 10_000
	_, texts, _ := reutersTexts(b)
	text := texts[0]
	docs := make([]detector.Doc, n)
	for i := range docs {
		docs[i] = detector.Doc{ID: fmt.Sprintf("d%05d", i), Text: text}
	}
	benchWorstCase(b, docs)
}

// BenchmarkNearIdentical is the near-identical variant of the worst case:
// 10,000 copies of one Reuters article of 6-12 KB (41 sentences), each
// with one word replaced by a word no other copy has (the first copy is
// the original). CollapseExact inserts every copy; CollapseNear represents
// a copy by the original when their mutual score reaches 0.9 (the new word
// sorts first in its sentence, which loses that sentence's prefix: one
// sentence in 41 is usually below 10% of the weight).
func BenchmarkNearIdentical(b *testing.B) {
	const n = 10_000
	_, texts, _ := reutersTexts(b)
	text := texts[0]
	for _, t := range texts {
		if len(t) >= 6000 && len(t) <= 12000 {
			text = t
			break
		}
	}
	fields := strings.Fields(text)
	docs := make([]detector.Doc, n)
	docs[0] = detector.Doc{ID: "d00000", Text: text}
	for i := 1; i < n; i++ {
		f := slices.Clone(fields)
		// A word of its own: "qz" and three letters (distinct first-5 stems).
		f[(i*7919)%len(f)] = fmt.Sprintf("qz%c%c%c", 'a'+i%26, 'a'+i/26%26, 'a'+i/676%26)
		docs[i] = detector.Doc{ID: fmt.Sprintf("d%05d", i), Text: strings.Join(f, " ")}
	}
	benchWorstCase(b, docs)
}

func benchWorstCase(b *testing.B, docs []detector.Doc) {
	n := len(docs)
	total := 0
	for _, d := range docs {
		total += len(d.Text)
	}
	b.Run("analyzer", func(b *testing.B) {
		an, err := textproc.NewAnalyzer(textproc.FullConfig(mustTag(b, "en")))
		if err != nil {
			b.Fatal(err)
		}
		b.SetBytes(int64(total))
		b.ReportAllocs()
		for b.Loop() {
			for _, d := range docs {
				an.Analyze(d.Text)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/doc")
	})
	for _, bc := range []struct {
		name string
		cfg  codet.Config
	}{
		{"collapse", codet.Config{Language: "en"}},
		{"collapse-max100", codet.Config{Language: "en", MaxResults: 100}},
		{"near", codet.Config{Language: "en", Collapse: codet.CollapseNear}},
		{"near-max100", codet.Config{Language: "en", Collapse: codet.CollapseNear, MaxResults: 100}},
		{"near0.8-max100", codet.Config{Language: "en", Collapse: codet.CollapseNear, CollapseThreshold: 0.8, MaxResults: 100}},
		{"nocollapse-nodelimit", codet.Config{Language: "en", Collapse: codet.CollapseOff}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(total))
			b.ReportAllocs()
			var bytesPerDoc float64
			for b.Loop() {
				before := heap()
				d, err := codet.New(bc.cfg)
				if err != nil {
					b.Fatal(err)
				}
				for _, doc := range docs {
					if _, err := d.Add(doc); err != nil {
						b.Fatal(err)
					}
				}
				b.StopTimer()
				bytesPerDoc = (float64(heap()) - float64(before)) / float64(n)
				b.Logf("%s: %+v", bc.name, d.Stats())
				runtime.KeepAlive(d)
				d.Close()
				b.StartTimer()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/doc")
			b.ReportMetric(bytesPerDoc, "B/livedoc")
		})
	}
}
