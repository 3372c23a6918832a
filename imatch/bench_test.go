package imatch

import (
	"fmt"
	"testing"

	"golang.org/x/text/language"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/benchfloor"
	"github.com/seed-9ef9c1df/neardup/internal/dataset"
	"github.com/seed-9ef9c1df/neardup/textproc"
)

func texts(recs []dataset.Record) []string {
	out := make([]string, len(recs))
	for i, r := range recs {
		out[i] = r.Text
	}
	return out
}

func benchTexts(b *testing.B, docs []string, fn func(string)) {
	total := 0
	for _, t := range docs {
		total += len(t)
		fn(t) // warm up: vocabulary and caches in the steady state
	}
	b.SetBytes(int64(total))
	b.ReportAllocs()
	for b.Loop() {
		for _, t := range docs {
			fn(t)
		}
	}
	b.ReportMetric(float64(len(docs))*float64(b.N)/b.Elapsed().Seconds(), "docs/s")
}

var sink int

// BenchmarkReuters measures signature throughput on the first 5000
// Reuters-21578 bodies against the floor and the analyzer alone (FullConfig
// English, the analysis I-Match runs), in the same run, with a frozen IDF
// table of the same texts.
func BenchmarkReuters(b *testing.B) {
	recs := dataset.Reuters(b, 5000)
	docs := texts(recs)
	idf := collectionIDF(b, Config{Language: "en"}, recs)
	b.Run("Floor", func(b *testing.B) { benchfloor.Run(b, docs) })
	b.Run("AnalyzerFull", func(b *testing.B) {
		an, _ := textproc.NewAnalyzer(textproc.FullConfig(language.English))
		benchTexts(b, docs, func(t string) { an.Analyze(t) })
	})
	for _, tc := range []struct {
		name string
		cfg  Config
	}{
		{"SignRank", Config{}},
		{"SignBand", Config{Selection: SelectBand}},
		{"SignRankK10", Config{Lexicons: 10}},
		{"SignBandK10", Config{Selection: SelectBand, Lexicons: 10}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			tc.cfg.Language = "en"
			s, err := NewSigner(tc.cfg, idf)
			if err != nil {
				b.Fatal(err)
			}
			var dst []Key
			benchTexts(b, docs, func(t string) { dst = s.AppendSign(dst[:0], t); sink += len(dst) })
		})
	}
	b.Run("DetectorAdd", func(b *testing.B) {
		d, err := NewWithIDF(Config{Language: "en"}, idf)
		if err != nil {
			b.Fatal(err)
		}
		n := 0
		benchTexts(b, docs, func(t string) {
			n++
			if _, err := d.Add(detector.Doc{ID: fmt.Sprint(n), Text: t}); err != nil {
				b.Fatal(err)
			}
		})
	})
}
