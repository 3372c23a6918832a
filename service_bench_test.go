package neardup

import (
	"flag"
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/dataset"
	"github.com/seed-9ef9c1df/neardup/internal/testkit"
)

// The benchmarks in this file measure, for every named detector, what a
// service must budget for: a flood of identical copies, the memory a large
// document holds, and the memory of an endless windowed stream. Run them
// alone:
//
//	go test -run XXX -bench 'Flood|MemoryPerByte|Soak' -benchtime 1x .

// BenchmarkFlood adds 2,000 unrelated stories, then 3,000 identical
// copies of one story, one by one, and reports the cost of the last 300
// copies as a multiple of the first 300 ("last/first"): 1 is a flat cost
// per Add, and a detector that returns every earlier copy on each Add
// grows linearly. It also reports the matches the last Add returned.
func BenchmarkFlood(b *testing.B) {
	stories := dataset.SynthDocs(2000, dataset.SynthConfig{Seed: 3, VariantRate: -1})
	copyText := stories[0].Text
	for _, name := range Names() {
		if name == "reference" {
			continue // exact and quadratic by design
		}
		b.Run(name, func(b *testing.B) {
			for range b.N {
				d, err := New(name, withLanguageOpt(name, "en"))
				if err != nil {
					b.Fatal(err)
				}
				for _, s := range stories[1:] {
					if _, err := d.Add(s); err != nil {
						b.Fatal(err)
					}
				}
				const copies, window = 3000, 300
				var first, last time.Duration
				var lastMatches int
				for i := range copies {
					start := time.Now()
					ms, err := d.Add(detector.Doc{ID: "copy" + strconv.Itoa(i), Text: copyText})
					if err != nil {
						b.Fatal(err)
					}
					el := time.Since(start)
					switch {
					case i < window:
						first += el
					case i >= copies-window:
						last += el
					}
					lastMatches = len(ms)
				}
				d.Close()
				b.ReportMetric(float64(last)/float64(first), "last/first")
				b.ReportMetric(float64(last.Microseconds())/window, "µs/last-add")
				b.ReportMetric(float64(lastMatches), "matches/last-add")
			}
		})
	}
}

// BenchmarkMemoryPerByte adds one document as large as
// detector.DefaultMaxTextBytes admits and reports, per byte of text, the bytes Add allocated ("allocB/textB", a bound on its transient
// peak), the live heap the stored document holds ("heapB/textB") and the
// live heap left after Remove ("keptB/textB"), for ordinary news text and
// for hostile text in which every token is new.
func BenchmarkMemoryPerByte(b *testing.B) {
	// As large as the default size limit admits.
	const size = detector.DefaultMaxTextBytes
	var news strings.Builder
	for _, d := range dataset.SynthDocs(4000, dataset.SynthConfig{Seed: 5}) {
		if news.Len()+len(d.Text)+1 > size {
			break
		}
		news.WriteString(d.Text)
		news.WriteString(" ")
	}
	var hostile strings.Builder
	for i := 0; hostile.Len() < size-32; i++ {
		fmt.Fprintf(&hostile, "t%x ", i*2654435761)
	}
	texts := map[string]string{"news": news.String(), "hostile": hostile.String()}
	for _, name := range Names() {
		if name == "reference" {
			continue
		}
		for _, kind := range []string{"news", "hostile"} {
			text := texts[kind]
			b.Run(name+"/"+kind, func(b *testing.B) {
				for range b.N {
					d, err := New(name, withLanguageOpt(name, "en"))
					if err != nil {
						b.Fatal(err)
					}
					before := testkit.LiveHeap()
					var m0, m1 runtime.MemStats
					runtime.ReadMemStats(&m0)
					if _, err := d.Add(detector.Doc{ID: "big", Text: text}); err != nil {
						b.Fatal(err)
					}
					runtime.ReadMemStats(&m1)
					held := testkit.LiveHeap()
					if r, ok := d.(detector.Remover); ok {
						if err := r.Remove("big"); err != nil {
							b.Fatal(err)
						}
					}
					after := testkit.LiveHeap()
					b.ReportMetric(float64(m1.TotalAlloc-m0.TotalAlloc)/float64(len(text)), "allocB/textB")
					b.ReportMetric(float64(int64(held)-int64(before))/float64(len(text)), "heapB/textB")
					b.ReportMetric(float64(int64(after)-int64(before))/float64(len(text)), "keptB/textB")
					d.Close()
				}
			})
		}
	}
}

// withLanguageOpt returns the options setting Language, or none for a
// detector without a Language field.
func withLanguageOpt(name, lang string) map[string]string {
	info, err := Lookup(name)
	if err != nil {
		return nil
	}
	for _, o := range info.Options {
		if o == "Language" {
			return map[string]string{"Language": lang}
		}
	}
	return nil
}

var soakAdds = flag.Int("soak.adds", 200_000, "Adds per detector in BenchmarkSoak")

// BenchmarkSoak streams -soak.adds documents (three tokens of each found in
// no other) through every named detector in a window of 10,000 live
// documents, and reports the live heap once the window is full and its
// growth after that: a detector that gives memory back when documents
// leave grows by little more than noise.
//
//	go test -run XXX -bench Soak -benchtime 1x . -args -soak.adds 1000000
func BenchmarkSoak(b *testing.B) {
	for _, name := range Names() {
		if name == "reference" {
			continue
		}
		b.Run(name, func(b *testing.B) {
			for range b.N {
				d, err := New(name, withLanguageOpt(name, "en"))
				if err != nil {
					b.Fatal(err)
				}
				s, err := testkit.Soak(d, testkit.SoakConfig{Adds: *soakAdds, Window: 10_000, Every: max(*soakAdds/10, 1)})
				if err != nil {
					b.Fatal(err)
				}
				d.Close()
				for _, x := range s {
					b.Logf("%s: %d Adds, live heap %.1f MB", name, x.Adds, float64(x.HeapBytes)/1e6)
				}
				b.ReportMetric(float64(s[0].HeapBytes)/1e6, "MB-at-window")
				b.ReportMetric(float64(testkit.Growth(s))/1e6, "MB-growth")
			}
		})
	}
}
