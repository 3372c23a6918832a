package simhash

import (
	"strconv"
	"testing"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/benchfloor"
	"github.com/seed-9ef9c1df/neardup/internal/dataset"
	"github.com/seed-9ef9c1df/neardup/internal/hashx"
)

type benchDetector struct {
	name  string
	build func() detector.Detector
}

// benchDetectors are the configurations BenchmarkAddParallel runs: the
// default (an online IDF table the Detector owns) and a frozen reference
// table of the same texts.
func benchDetectors(b *testing.B) []benchDetector {
	recs := dataset.Reuters(b, 5000)
	idf := collectionIDF(b, Config{Language: "en"}, recs)
	return []benchDetector{
		{"Online", func() detector.Detector {
			d, err := New(Config{Language: "en"})
			if err != nil {
				b.Fatal(err)
			}
			return d
		}},
		{"Frozen", func() detector.Detector {
			d, err := NewWithIDF(Config{Language: "en"}, idf)
			if err != nil {
				b.Fatal(err)
			}
			return d
		}},
	}
}

// BenchmarkSerialShare measures, in one run, a full Add and the part of it
// that runs outside the Detector's locks (analysis, and for the frozen
// table signing), over the first 5000 Reuters-21578 bodies: the rest is the
// serial share s, which bounds the speed-up of g goroutines by
// 1/(s + (1−s)/g) whatever the machine's load.
func BenchmarkSerialShare(b *testing.B) {
	for _, tc := range benchDetectors(b) {
		docs := dataset.Texts(dataset.Reuters(b, 5000))
		b.Run(tc.name+"/Add", func(b *testing.B) {
			n := 0
			var d detector.Detector
			benchfloor.RunEach(b, docs, func(t string) {
				if n%len(docs) == 0 {
					d = tc.build()
				}
				n++
				if _, err := d.Add(detector.Doc{ID: strconv.Itoa(n), Text: t}); err != nil {
					b.Fatal(err)
				}
			})
		})
		b.Run(tc.name+"/Outside", func(b *testing.B) {
			d := tc.build().(*Detector)
			s, err := d.pool.Get()
			if err != nil {
				b.Fatal(err)
			}
			benchfloor.RunEach(b, docs, func(t string) {
				s.analyse(t)
				if d.turns == nil {
					s.weigh()
					s.sign()
				}
				s.digBuf, _ = hashx.TokensDigest(s.digBuf, s.toks)
				s.tidy()
			})
		})
	}
}
