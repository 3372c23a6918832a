package imatch

import (
	"testing"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/dataset"
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
