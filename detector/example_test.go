package detector_test

import (
	"fmt"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/minhash"
	"github.com/seed-9ef9c1df/neardup/shingle"
)

func ExampleSortMatches() {
	ms := []detector.Match{{ID: "b", Score: 0.5}, {ID: "c", Score: 0.9}, {ID: "a", Score: 0.5}}
	detector.SortMatches(ms)
	fmt.Println(ms)
	// Output: [{c 0.9} {a 0.5} {b 0.5}]
}

const story = `The central bank raised its benchmark interest rate by half a percentage point on Wednesday, the fourth increase this year, as policymakers tried to cool inflation that has stayed above eight percent since the spring. Markets had expected a smaller move, and the currency strengthened sharply against the dollar after the announcement.`

// A cheap MinHash LSH proposes candidates; full fingerprinting's exact
// containment check confirms them.
func ExampleCascade() {
	propose, err := minhash.New(minhash.Config{Threshold: 0.15})
	if err != nil {
		panic(err)
	}
	cfg := shingle.Config{Language: "en"}
	features := func(text string) shingle.Features {
		f, _ := shingle.Extract(cfg, text)
		return f
	}
	verify := func(container, contained shingle.Features) (float64, bool) {
		s := shingle.Containment(contained, container)
		return s, s >= shingle.DefaultContainment
	}
	d, err := detector.Cascade(propose, features, verify)
	if err != nil {
		panic(err)
	}
	defer d.Close()
	d.Add(detector.Doc{ID: "wire", Text: story})
	ms, _ := d.Add(detector.Doc{ID: "copy", Text: "Reuters - " + story})
	for _, m := range ms {
		fmt.Printf("copy ⊆ %s (%.2f)\n", m.ID, m.Score)
	}
	// Output: copy ⊆ wire (0.97)
}

// A relation two of three detectors agree on.
func ExampleVote() {
	var ds []detector.Detector
	for _, m := range []shingle.Method{shingle.FullFingerprint, shingle.DSC, shingle.SpotSigs} {
		d, err := shingle.New(shingle.Config{Method: m, Language: "en"})
		if err != nil {
			panic(err)
		}
		ds = append(ds, d)
	}
	v, err := detector.Vote(2, ds...)
	if err != nil {
		panic(err)
	}
	defer v.Close()
	v.Add(detector.Doc{ID: "wire", Text: story})
	ms, _ := v.Add(detector.Doc{ID: "copy", Text: story})
	fmt.Println(len(ms), ms[0].ID)
	// Output: 1 wire
}
