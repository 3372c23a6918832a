package shingle_test

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"golang.org/x/text/language"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/dataset"
	"github.com/seed-9ef9c1df/neardup/internal/testkit"
	"github.com/seed-9ef9c1df/neardup/shingle"
	"github.com/seed-9ef9c1df/neardup/textproc"
)

// synthAntecedents are the four most frequent words of the synthetic
// stream's Zipf vocabulary (ranks 1-4), standing in for "is, the, said,
// was": SpotSigs needs frequent function words, and the generator's
// invented language has no English ones.
const synthAntecedents = "ro,mi,tan,le"

var benchConfigs = []struct {
	name string
	cfg  shingle.Config
}{
	{"ffp", shingle.Config{}},
	{"dsc", shingle.Config{Method: shingle.DSC}},
	{"dsc-ss", shingle.Config{Method: shingle.DSC, SuperShingle: 2}},
	{"spotsigs", shingle.Config{Method: shingle.SpotSigs}},
}

// BenchmarkReuters indexes the first 2,000 Reuters-21578 stories in date
// order with each detector, beside the floor and the textproc analyzer
// alone over the same texts, so that docs/s ratios come from one run.
func BenchmarkReuters(b *testing.B) {
	recs := dataset.Reuters(b, 2000)
	texts := make([]string, len(recs))
	total := 0
	for i, r := range recs {
		texts[i] = r.Text
		total += len(r.Text)
	}
	docs := dataset.Docs(recs)
	b.Run("floor", func(b *testing.B) {
		cpu := cpuTime()
		testkit.Run(b, texts)
		if c := cpuTime() - cpu; c > 0 {
			b.ReportMetric(float64(len(texts))*float64(b.N)/c.Seconds(), "cpu-docs/s")
		}
	})
	for _, ac := range []struct {
		name string
		cfg  textproc.Config
	}{{"analyzer", textproc.FullConfig(language.English)}, {"analyzer-plain", textproc.Config{Language: language.English}}} {
		b.Run(ac.name, func(b *testing.B) {
			an, err := textproc.NewAnalyzer(ac.cfg)
			if err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(total))
			b.ReportAllocs()
			n := 0
			cpu := cpuTime()
			for b.Loop() {
				for _, t := range texts {
					n += len(an.Analyze(t).Tokens)
				}
			}
			reportDocs(b, len(texts), cpuTime()-cpu)
		})
	}
	for _, bc := range benchConfigs {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(total))
			b.ReportAllocs()
			cpu := cpuTime()
			for b.Loop() {
				d, err := shingle.New(bc.cfg)
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
			reportDocs(b, len(docs), cpuTime()-cpu)
		})
	}
}

// BenchmarkScale measures the time of one Add into an index that already
// holds N documents of the synthetic news stream, for N = 10k, 40k and
// 160k, so the growth with the collection is visible. The stream's words
// are invented, so the language-neutral pipeline without stemming is the
// faithful one (first-5 stemming would merge many invented words into one
// stem).
func BenchmarkScale(b *testing.B) {
	for _, bc := range []struct {
		name string
		cfg  shingle.Config
	}{
		{"ffp", shingle.Config{Language: "und", KeepStopwords: true, Stemmer: textproc.StemNone}},
		{"spotsigs", shingle.Config{Method: shingle.SpotSigs, Language: "und", Antecedents: synthAntecedents}},
	} {
		for _, n := range []int{10_000, 40_000, 160_000} {
			b.Run(fmt.Sprintf("%s/N=%d", bc.name, n), func(b *testing.B) {
				d, err := shingle.New(bc.cfg)
				if err != nil {
					b.Fatal(err)
				}
				defer d.Close()
				s := dataset.NewSynth(dataset.SynthConfig{Seed: 1})
				for range n {
					if _, err := d.Add(s.Next().Doc); err != nil {
						b.Fatal(err)
					}
				}
				pool := make([]detector.Doc, 0, 1024)
				bytes := 0
				for range cap(pool) {
					doc := s.Next().Doc
					pool = append(pool, doc)
					bytes += len(doc.Text)
				}
				b.SetBytes(int64(bytes / len(pool)))
				b.ReportAllocs()
				// Settle the heap the prefill left, so its collection is
				// not charged to the measured Adds.
				runtime.GC()
				i := 0
				var cpu time.Duration
				cpu0 := cpuTime()
				for b.Loop() {
					if i == len(pool) {
						b.StopTimer()
						cpu += cpuTime() - cpu0
						for k := range pool {
							pool[k] = s.Next().Doc
						}
						i = 0
						cpu0 = cpuTime()
						b.StartTimer()
					}
					if _, err := d.Add(pool[i]); err != nil {
						b.Fatal(err)
					}
					i++
				}
				cpu += cpuTime() - cpu0
				if cpu > 0 {
					b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/doc")
				}
			})
		}
	}
}

// reportDocs reports documents per second of wall time and of process CPU
// time for a benchmark whose every iteration handled n documents.
func reportDocs(b *testing.B, n int, cpu time.Duration) {
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "docs/s")
	if cpu > 0 {
		b.ReportMetric(float64(n)*float64(b.N)/cpu.Seconds(), "cpu-docs/s")
	}
}

// BenchmarkAddSpotsBySize adds one document of 64 KB to 4 MiB (the size
// limit) to a fresh SpotSigs detector at its defaults: text made only of
// the default antecedents (which, with no Language, are also the stopwords
// chains skip), and English prose (Reuters-21578 bodies joined). Time should grow linearly with the size for both.
func BenchmarkAddSpotsBySize(b *testing.B) {
	prose := strings.Join(dataset.Texts(dataset.Reuters(b, 0)), "\n\n")
	for _, size := range []int{64 << 10, 256 << 10, 1 << 20, 4 << 20} {
		stops := strings.Repeat("the is said was ", size/16+1)[:size]
		plain := strings.Repeat(prose, size/len(prose)+1)[:size]
		for _, kind := range []struct{ name, text string }{{"stopwords", stops}, {"prose", plain}} {
			b.Run(fmt.Sprintf("%s/%dKB", kind.name, size>>10), func(b *testing.B) {
				for b.Loop() {
					d, err := shingle.New(shingle.Config{Method: shingle.SpotSigs})
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
