package codet_test

import (
	"testing"

	"github.com/seed-9ef9c1df/neardup/codet"
	"github.com/seed-9ef9c1df/neardup/detector"
)

// FuzzAdd feeds arbitrary texts to a detector: no input panics, a document
// never contains itself, an exact copy is always reported with Score 1
// when the text has terms, and Remove frees everything.
func FuzzAdd(f *testing.F) {
	for _, hm := range handMade {
		f.Add(hm.short, hm.extra, uint8(0))
		f.Add(hm.unrelated, hm.short+" "+hm.extra, uint8(1))
	}
	f.Add("", "\xff\xfe", uint8(2))
	f.Add("a. a. a. a.", "a a a a a a a a a a a a", uint8(3))
	f.Add("Kar yağdı. Okullar tatil. Kar yağdı.", "Kar yağdı. Okullar tatil.", uint8(4))
	f.Add("Kar yağdı. Okullar tatil. Yollar kapandı.", "Okullar tatil. Kar yağdı.", uint8(9))
	f.Fuzz(func(t *testing.T, a, b string, mode uint8) {
		// NodeLimit 0 (the default), 1 or 2: small limits deactivate nodes
		// and take their contributions back.
		d, err := codet.New(codet.Config{Mode: codet.Mode(mode % 2), Collapse: codet.Collapse(mode / 2 % 2),
			SuffixCount: int(mode%3) + 1, NodeLimit: int(mode / 4 % 3)})
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
		found := false
		for _, m := range ms {
			found = found || m.ID == "a2"
		}
		if len(seqs) > 0 && mode/2%2 == 0 && !found {
			t.Fatalf("Containers(a) = %v lacks its exact copy a2", ms)
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
