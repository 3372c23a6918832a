package simhash

import (
	"testing"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/dataset"
	"github.com/seed-9ef9c1df/neardup/internal/testkit"
)

// benchDetectors are the configurations BenchmarkAddParallel runs: the
// default (an online IDF table the Detector owns) and a frozen reference
// table of the same texts.
func benchDetectors(b *testing.B) []testkit.Build {
	recs := dataset.Reuters(b, 5000)
	idf := collectionIDF(b, Config{Language: "en"}, recs)
	return []testkit.Build{
		testkit.MustBuild(b, "Online", func() (detector.Detector, error) { return New(Config{Language: "en"}) }),
		testkit.MustBuild(b, "Frozen", func() (detector.Detector, error) { return NewWithIDF(Config{Language: "en"}, idf) }),
	}
}

// BenchmarkSerialShare measures, in one run, a full Add and the part of it
// that runs outside the Detector's locks and its turn (analysis and
// signing), over the first 5000 Reuters-21578 bodies: the rest is the
// serial share s, which bounds the speed-up of g goroutines by
// 1/(s + (1−s)/g) whatever the machine's load.
func BenchmarkSerialShare(b *testing.B) {
	docs := dataset.Texts(dataset.Reuters(b, 5000))
	testkit.SerialShare(b, docs, benchDetectors(b), func(b *testing.B, tc testkit.Build) func(string) {
		d := tc.New().(*Detector)
		s, err := d.pool.Get()
		if err != nil {
			b.Fatal(err)
		}
		return func(t string) {
			s.analyse(t)
			if !d.own {
				s.weigh()
			} else {
				// With the own table only the count is in the turn:
				// weighing and signing run after it (frequencies of 1
				// here; the work does not depend on them).
				s.dfs = s.dfs[:0]
				for range s.uniq {
					s.dfs = append(s.dfs, 1)
				}
				s.weighOwn(1, false)
			}
			s.sign()
			s.contentDigest()
			s.tidy()
		}
	})
}
