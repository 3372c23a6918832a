package imatch

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
		s, err := d.alg.pool.Get()
		if err != nil {
			b.Fatal(err)
		}
		var keys []Key
		return func(t string) {
			s.analyze(t)
			if !d.alg.own {
				keys = s.appendKeys(keys[:0])
			} else {
				// With the own table only the count is in the turn:
				// the selection and the digests run after it
				// (frequencies of 1 here).
				s.ownDF = s.ownDF[:0]
				for range s.uniq {
					s.ownDF = append(s.ownDF, 1)
				}
				keys = s.appendOwnKeys(keys[:0], 1, 0)
			}
			s.content()
			s.tidy()
		}
	})
}
