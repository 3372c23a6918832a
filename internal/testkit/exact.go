package testkit

import (
	"fmt"
	"testing"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/detector/eval"
	"github.com/seed-9ef9c1df/neardup/internal/dataset"
)

// CheckExactDuplicates runs, for TTC-3600 (Turkish) and BBC (English), a
// detector from build over the collection and fails t unless every pair of
// byte-identical texts is reported; build gets the language, the records
// and whether the detector should keep its statistics online (else from
// the collection). It is the exact-copy guarantee of the digest detectors,
// checked on real data. By default every text with an identical twin is
// added, with every fourth of the others between them; with NEARDUP_LONG,
// the whole collection.
func CheckExactDuplicates(t *testing.T, build func(t *testing.T, lang string, recs []dataset.Record, online bool) detector.Detector) {
	for _, tc := range []struct{ file, lang string }{{"ttc3600.jsonl", "tr"}, {"bbc.jsonl", "en"}} {
		recs := dataset.ForTest(t, tc.file)
		recs = ExactSample(recs)
		groups := dataset.ExactGroups(recs)
		truth := dataset.ExactTruth(recs)
		for _, online := range []bool{true, false} {
			t.Run(fmt.Sprintf("%s/online=%v", tc.file, online), func(t *testing.T) {
				d := build(t, tc.lang, recs, online)
				defer d.Close()
				edges, err := eval.Relations(d, dataset.Docs(recs), nil)
				if err != nil {
					t.Fatal(err)
				}
				found := eval.Pairs(edges)
				c := truth.Score(found, false)
				t.Logf("%s: %d groups of identical texts, %d pairs, %d missed; %d pairs reported in all",
					tc.file, len(groups), c.TP+c.FN, c.FN, len(found))
				if c.FN != 0 {
					t.Errorf("%d of %d identical pairs missed", c.FN, c.TP+c.FN)
				}
				if c.TP+c.FN == 0 {
					t.Error("no identical pair in the collection: the check proves nothing")
				}
			})
		}
	}
}

// ExactSample returns what an exact-duplicate check of recs reads: by
// default, in order, every record whose text another repeats and every
// fourth of the others; with NEARDUP_LONG, all of recs.
func ExactSample(recs []dataset.Record) []dataset.Record {
	if dataset.LongEnabled() {
		return recs
	}
	return twinsAndEvery(recs, 4)
}

// twinsAndEvery keeps, in order, the records whose text another record
// repeats and every nth of the rest.
func twinsAndEvery(recs []dataset.Record, n int) []dataset.Record {
	twin := map[string]bool{}
	for _, g := range dataset.ExactGroups(recs) {
		for _, id := range g {
			twin[id] = true
		}
	}
	var out []dataset.Record
	others := 0
	for _, r := range recs {
		if twin[r.ID] {
			out = append(out, r)
			continue
		}
		if others%n == 0 {
			out = append(out, r)
		}
		others++
	}
	return out
}
