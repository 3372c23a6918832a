package imatch

import (
	"fmt"
	"testing"

	"golang.org/x/text/language"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/dataset"
	"github.com/seed-9ef9c1df/neardup/internal/testkit"
	"github.com/seed-9ef9c1df/neardup/textproc"
)

var sink int

// BenchmarkReuters measures signature throughput on the first 5000
// Reuters-21578 bodies against the floor and the analyzer alone (FullConfig
// English, the analysis I-Match runs), in the same run, with a frozen IDF
// table of the same texts.
func BenchmarkReuters(b *testing.B) {
	recs := dataset.Reuters(b, 5000)
	docs := dataset.Texts(recs)
	idf := collectionIDF(b, Config{Language: "en"}, recs)
	b.Run("Floor", func(b *testing.B) { testkit.Run(b, docs) })
	b.Run("AnalyzerFull", func(b *testing.B) {
		testkit.RunAnalyzer(b, textproc.FullConfig(language.English), docs)
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
			testkit.RunEach(b, docs, func(t string) { dst = s.AppendSign(dst[:0], t); sink += len(dst) })
		})
	}
	b.Run("DetectorAdd", func(b *testing.B) {
		d, err := NewWithIDF(Config{Language: "en"}, idf)
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
