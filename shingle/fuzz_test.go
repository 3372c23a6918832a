package shingle_test

import (
	"testing"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/shingle"
)

// FuzzDetector adds fuzzed texts (each twice, and a prefix of it) to every
// method and checks that nothing panics, no document is its own container,
// results are ordered, and a repeated text is reported.
func FuzzDetector(f *testing.F) {
	for _, s := range []string{"", report, roundup, other, "a b c d e", "\xff\xfe the is was said", "İSTANBUL KADIN ıI"} {
		f.Add(s)
	}
	cfgs := []shingle.Config{
		{}, {Method: shingle.DSC}, {Method: shingle.DSC, Sampling: shingle.SampleMin},
		{Method: shingle.DSC, Sampling: shingle.SampleStride, SuperShingle: 3},
		{Method: shingle.SpotSigs, MinSignatures: 1}, {Method: shingle.SpotSigs, ReleaseChains: true, ChainLength: 1, SpotDistance: 1},
	}
	f.Fuzz(func(t *testing.T, text string) {
		for _, cfg := range cfgs {
			d, err := shingle.New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			for _, id := range []string{"a", "b", "c"} {
				in := text
				if id == "c" {
					in = text[:len(text)/2]
				}
				ms, err := d.Add(detector.Doc{ID: id, Text: in})
				if err != nil {
					t.Fatalf("%v: Add(%q): %v", cfg.Method, id, err)
				}
				for i, m := range ms {
					if m.ID == id {
						t.Fatalf("%v: Add(%q) reports itself", cfg.Method, id)
					}
					if i > 0 && ms[i-1].Score < m.Score {
						t.Fatalf("%v: Add(%q) = %v: not ordered", cfg.Method, id, ms)
					}
				}
				if id == "b" {
					words := 0
					if f, err := shingle.Extract(shingle.Config{}, text); err == nil {
						words = len(f.Hashes)
					}
					if words > 0 && (len(ms) == 0 || ms[0].ID != "a") {
						t.Fatalf("%v: Add(b) = %v, want the exact duplicate a", cfg.Method, ms)
					}
				}
			}
			for _, id := range []string{"a", "b", "c"} {
				if _, err := d.Containers(id); err != nil {
					t.Fatal(err)
				}
			}
			if err := d.Remove("b"); err != nil {
				t.Fatal(err)
			}
			d.Close()
		}
	})
}
