package minhash_test

import (
	"bytes"
	"fmt"

	"github.com/zeebo/xxh3"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/minhash"
)

const (
	story = "The central bank raised its key interest rate by half a point on Tuesday, " +
		"citing inflation that has stayed above its target for a year. Markets had expected " +
		"a smaller move, and the currency rose sharply after the announcement in the capital."
	copy1 = "The central bank raised its key interest rate by half a point on Tuesday, " +
		"citing inflation that has stayed above its target for a year. Markets had expected " +
		"a smaller move, and the currency rose after the announcement in the capital."
	third = "Parliament will vote next week on the budget, which cuts spending on roads " +
		"and raises the tax on fuel, after a month of talks between the coalition partners " +
		"that ended late on Monday night."
	other = "Heavy snow closed the mountain pass for the third day, and rescue teams " +
		"reached two villages cut off since the weekend storm."
)

func Example() {
	d, err := minhash.New(minhash.Config{Threshold: 0.5})
	if err != nil {
		panic(err)
	}
	defer d.Close()
	d.Add(detector.Doc{ID: "wire", Text: story})
	d.Add(detector.Doc{ID: "weather", Text: other})
	ms, _ := d.Add(detector.Doc{ID: "site", Text: copy1})
	for _, m := range ms {
		fmt.Printf("%s %.2f\n", m.ID, m.Score)
	}
	// The exact Jaccard of the two 5-shingle sets is 33/42 = 0.79.
	// Output:
	// wire 0.81
}

func ExampleNew() {
	_, err := minhash.New(minhash.Config{Bands: 7, Rows: 19})
	fmt.Println(err)
	// Output:
	// minhash: Bands·Rows (7·19) must not exceed NumHashes (128): invalid config
}

func ExampleDetector_Containers() {
	d, _ := minhash.New(minhash.Config{Mode: minhash.Containment, Shingle: 3, Threshold: 0.6})
	d.Add(detector.Doc{ID: "short", Text: story})
	d.Add(detector.Doc{ID: "roundup", Text: other + " " + story + " " + third})
	c, _ := d.Containers("short")
	fmt.Println(c[0].ID, c[0].Score >= 0.6)
	c, _ = d.Containers("roundup")
	fmt.Println(len(c))
	// Output:
	// roundup true
	// 0
}

func ExampleSketcher() {
	sk, _ := minhash.NewSketcher(minhash.Config{Shingle: 3})
	a, sizeA := sk.Signature(story)
	b, _ := sk.Signature(copy1)
	fmt.Println(len(a), sizeA, minhash.Similarity(a, b) > 0.7)
	// Output:
	// 128 40 true
}

func ExampleParams() {
	b, r, _ := minhash.Params(0.8, 128, 0.5, 0.5)
	fmt.Println(b, r)
	// Output:
	// 9 13
}

func ExampleICWS() {
	keys := []uint64{1, 2, 3}
	a := minhash.ICWS(nil, keys, []float64{1, 2, 3}, 1024, 42)
	b := minhash.ICWS(nil, keys, []float64{1, 2, 1}, 1024, 42)
	// Weighted Jaccard (1+2+1)/(1+2+3) = 0.667; the estimate's standard
	// error at K = 1024 is 0.015.
	fmt.Printf("%.2f\n", minhash.Similarity(a, b))
	// Output:
	// 0.64
}

// A worker signs texts without an index; the process holding the Detector
// indexes the signatures (DESIGN.md "Beyond one machine").
func ExampleDetector_AddSignature() {
	cfg := minhash.Config{Threshold: 0.5}
	sk, _ := minhash.NewSketcher(cfg) // in the worker
	d, _ := minhash.New(cfg)          // in the indexing process
	for _, doc := range []detector.Doc{{ID: "wire", Text: story}, {ID: "site", Text: copy1}} {
		sig, size := sk.Signature(doc.Text)
		ms, _ := d.AddSignature(doc.ID, sig, size)
		for _, m := range ms {
			fmt.Printf("%s ~ %s\n", doc.ID, m.ID)
		}
	}
	// Output:
	// site ~ wire
}

// Character 4-grams instead of word shingles: the caller hashes its own
// features and signs the set.
func ExampleSketcher_AppendHashSignature() {
	grams := func(s string) []uint64 {
		var hs []uint64
		for i := 0; i+4 <= len(s); i++ {
			hs = append(hs, xxh3.HashString(s[i:i+4]))
		}
		return hs
	}
	sk, _ := minhash.NewSketcher(minhash.Config{})
	a, n := sk.AppendHashSignature(nil, grams("near-duplicate detection"))
	b, _ := sk.AppendHashSignature(nil, grams("near duplicate detection"))
	fmt.Println(len(a), n, minhash.Similarity(a, b) > 0.6)
	// Output:
	// 128 21 true
}

// ExampleDetector_WriteTo saves a Weighted-mode detector with online
// statistics, loads it into a new detector made with the same Config (the
// statistics are rebuilt from the snapshot), and looks a story up with
// Query without indexing it. The copies of a story share one index entry.
func ExampleDetector_WriteTo() {
	cfg := minhash.Config{Mode: minhash.Weighted, Language: "en", MinOverlap: 1}
	d, err := minhash.New(cfg)
	if err != nil {
		panic(err)
	}
	for _, doc := range []detector.Doc{{ID: "a", Text: story}, {ID: "b", Text: story}, {ID: "c", Text: third}} {
		if _, err := d.Add(doc); err != nil {
			panic(err)
		}
	}
	var buf bytes.Buffer
	if _, err := d.WriteTo(&buf); err != nil {
		panic(err)
	}

	restored, err := minhash.New(cfg)
	if err != nil {
		panic(err)
	}
	if _, err := restored.ReadFrom(&buf); err != nil {
		panic(err)
	}
	copies, _ := restored.Copies("a")
	fmt.Println(restored.Len(), copies)
	ms, _ := restored.Query(detector.Doc{Text: story})
	fmt.Println(ms, restored.Len())
	// Output:
	// 3 [b]
	// [{a 1} {b 1}] 3
}
