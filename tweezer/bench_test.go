package tweezer

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/text/language"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/imatch"
	"github.com/seed-9ef9c1df/neardup/internal/dataset"
	"github.com/seed-9ef9c1df/neardup/internal/testkit"
	"github.com/seed-9ef9c1df/neardup/textproc"
)

// benchDocs returns the bodies of the first n Reuters-21578 documents, or
// skips when the shared data is absent.
func benchDocs(b *testing.B, n int) ([]string, int64) {
	recs := dataset.ForTest(b, "reuters21578.jsonl")
	recs = recs[:min(n, len(recs))]
	texts := make([]string, len(recs))
	var total int64
	for i, r := range recs {
		texts[i] = r.Text
		total += int64(len(r.Text))
	}
	return texts, total
}

// BenchmarkSign measures signing documents of 100 B, 4 KB and 100 KB of
// Turkish news text (the Fig. 4.1 sample and a Reuters-like filler).
func BenchmarkSign(b *testing.B) {
	unit := fig41 + " Galatasaray dün akşam Fenerbahçe'yi iki golle yendi ve Başbakan Mesut Yılmaz maçı izledi. "
	for _, size := range []int{100, 4 << 10, 100 << 10} {
		text := strings.Repeat(unit, size/len(unit)+1)[:size]
		b.Run(fmt.Sprintf("%dB", size), func(b *testing.B) {
			s, err := NewSigner(Config{})
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				s.Sign(text)
			}
		})
	}
}

// BenchmarkReuters adds the first 2000 Reuters-21578 bodies to a fresh
// detector per iteration: Tweezer in both modes, I-Match with its online IDF
// (package imatch), and the textproc Analyzer alone as the baseline cost of
// reading the text. docs/s and MB/s are comparable across sub-benchmarks.
func BenchmarkReuters(b *testing.B) {
	texts, total := benchDocs(b, 2000)
	run := func(b *testing.B, newDet func() detector.Detector) {
		b.ReportAllocs()
		b.SetBytes(total)
		for b.Loop() {
			d := newDet()
			for i, text := range texts {
				if _, err := d.Add(detector.Doc{ID: fmt.Sprint(i), Text: text}); err != nil {
					b.Fatal(err)
				}
			}
			d.Close()
		}
		b.ReportMetric(float64(len(texts))*float64(b.N)/b.Elapsed().Seconds(), "docs/s")
	}
	for _, mode := range []Mode{Exact, Jaccard} {
		b.Run("tweezer-"+mode.String(), func(b *testing.B) {
			run(b, func() detector.Detector {
				d, err := New(Config{Language: "en", Mode: mode})
				if err != nil {
					b.Fatal(err)
				}
				return d
			})
		})
	}
	b.Run("imatch", func(b *testing.B) {
		run(b, func() detector.Detector {
			d, err := imatch.New(imatch.Config{Language: "en"})
			if err != nil {
				b.Fatal(err)
			}
			return d
		})
	})
	b.Run("analyzer", func(b *testing.B) {
		a, err := textproc.NewAnalyzer(textproc.Config{Language: language.English})
		if err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		b.SetBytes(total)
		for b.Loop() {
			for _, text := range texts {
				a.Analyze(text)
			}
		}
		b.ReportMetric(float64(len(texts))*float64(b.N)/b.Elapsed().Seconds(), "docs/s")
	})
}

// BenchmarkContainers measures Containers on an index of 1000 Reuters
// documents.
func BenchmarkContainers(b *testing.B) {
	texts, _ := benchDocs(b, 1000)
	for _, mode := range []Mode{Exact, Jaccard} {
		b.Run(mode.String(), func(b *testing.B) {
			d, err := New(Config{Language: "en", Mode: mode})
			if err != nil {
				b.Fatal(err)
			}
			for i, text := range texts {
				if _, err := d.Add(detector.Doc{ID: fmt.Sprint(i), Text: text}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				if _, err := d.Containers(fmt.Sprint(i % len(texts))); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
	}
}

// BenchmarkAddGoroutines adds the first 2000 Reuters-21578 bodies to a
// fresh detector per iteration from 1 and from 2 goroutines (each adding
// every other document), beside the floor benchmark over the same texts:
// signing runs outside the lock, so 2 goroutines on 2 cores should add
// close to twice as many documents per second.
func BenchmarkAddGoroutines(b *testing.B) {
	texts, _ := benchDocs(b, 2000)
	b.Run("Floor", func(b *testing.B) { testkit.Run(b, texts) })
	docs := make([]detector.Doc, len(texts))
	for i, t := range texts {
		docs[i] = detector.Doc{ID: strconv.Itoa(i), Text: t}
	}
	for _, g := range []int{1, 2} {
		b.Run(fmt.Sprintf("goroutines=%d", g), func(b *testing.B) {
			testkit.AddParallel(b, func() (detector.Detector, error) { return New(Config{Language: "en"}) }, docs, g)
		})
	}
}
