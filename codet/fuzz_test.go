package codet_test

import (
	"math"
	"testing"

	"github.com/seed-9ef9c1df/neardup/codet"
	"github.com/seed-9ef9c1df/neardup/detector"
)

// FuzzAdd feeds arbitrary texts to a detector in every Mode and Collapse
// (CollapseExact, CollapseOff, CollapseNear), with small NodeLimits: no
// input panics, a document never contains itself, an exact copy of a text
// with terms is always reported with Score 1 (when nothing is deactivated,
// or when copies are collapsed), and Remove frees everything.
func FuzzAdd(f *testing.F) {
	for _, hm := range handMade {
		f.Add(hm.short, hm.extra, uint8(0))
		f.Add(hm.unrelated, hm.short+" "+hm.extra, uint8(1))
	}
	f.Add("", "\xff\xfe", uint8(2))
	f.Add("a. a. a. a.", "a a a a a a a a a a a a", uint8(3))
	f.Add("Kar yağdı. Okullar tatil. Kar yağdı.", "Kar yağdı. Okullar tatil.", uint8(4))
	f.Add("Kar yağdı. Okullar tatil. Yollar kapandı.", "Okullar tatil. Kar yağdı.", uint8(9))
	// CollapseNear with NodeLimit 1, and in pairwise mode with NodeLimit 2.
	f.Add(handMade[0].short, handMade[0].short+" "+handMade[0].extra, uint8(10))
	f.Add(handMade[0].edited, handMade[0].short, uint8(17))
	f.Fuzz(func(t *testing.T, a, b string, mode uint8) {
		// NodeLimit 0 (the default), 1 or 2: small limits deactivate nodes
		// and take their contributions back.
		collapse := codet.Collapse(mode / 2 % 3)
		limit := int(mode / 8 % 3)
		d, err := codet.New(codet.Config{Mode: codet.Mode(mode % 2), Collapse: collapse,
			SuffixCount: int(mode%3) + 1, NodeLimit: limit})
		if err != nil {
			t.Fatal(err)
		}
		defer d.Close()
		for _, doc := range []detector.Doc{{ID: "a", Text: a}, {ID: "b", Text: b}, {ID: "a2", Text: a}} {
			ms, err := d.Add(doc)
			if err != nil {
				t.Fatalf("Add(%q): %v", doc.ID, err)
			}
			for _, m := range ms {
				if m.ID == doc.ID {
					t.Fatalf("Add(%q) reports itself", doc.ID)
				}
			}
		}
		ms, err := d.Containers("a")
		if err != nil {
			t.Fatal(err)
		}
		seqs, err := codet.Sequences(a, d.Config(), nil)
		if err != nil {
			t.Fatal(err)
		}
		score := -1.0
		for _, m := range ms {
			if m.ID == "a2" {
				score = m.Score
			}
		}
		// Score 1 is guaranteed with collapsing, and without it only under
		// frozen weights and no deactivation: with online weights (these
		// texts have no language, so no reference table) a2 is scored with
		// the weights after b, a with those before it.
		exact := collapse != codet.CollapseOff || limit == 0 && d.Weights() == "reference"
		if len(seqs) > 0 && exact && math.Abs(score-1) > 1e-9 {
			t.Fatalf("Containers(a) = %v: its exact copy a2 is not there with Score 1", ms)
		}
		if _, err := d.Matched("b", "a"); err != nil {
			t.Fatal(err)
		}
		for _, id := range []string{"a", "b", "a2"} {
			if err := d.Remove(id); err != nil {
				t.Fatal(err)
			}
		}
		if st := d.Stats(); st.Nodes != 0 || st.Visitors != 0 || st.Edges != 0 || st.Groups != 0 {
			t.Fatalf("after removing everything: %+v", st)
		}
	})
}
