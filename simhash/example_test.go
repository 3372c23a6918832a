package simhash_test

import (
	"bytes"
	"fmt"
	"slices"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/simhash"
	"github.com/seed-9ef9c1df/neardup/textproc"
)

const (
	story   = "The central bank raised its benchmark interest rate by half a percentage point on Wednesday, the fourth increase this year, as policymakers tried to cool inflation that has stayed above eight percent since the spring. Governor Elena Marsh said price pressures had spread from energy and food to rents and services."
	edited  = "The central bank raised its benchmark interest rate by half a percentage point on Wednesday, the fourth increase this year, as policymakers tried to cool inflation that has stayed above eight percent since spring. Governor Elena Marsh said price pressures had spread from energy and food to rents and services."
	another = "A late header from the veteran defender gave the visitors a two to one win in Saturday's cup semi-final, ending the home side's unbeaten run of fourteen matches in front of a sold-out stadium."
)

// Charikar's fingerprint of explicit features: Varol 2012 Table 4.2 with
// 4-bit hashes (bit i of the hash is the table's (i+1)-th bit).
func ExampleFingerprint() {
	hashes := []uint64{0b0011, 0b1101, 0b0010, 0b1111, 0b0001, 0b0110}
	weights := []float64{0.10, 0.04, 0.03, 0.02, 0.01, 0.06}
	fmt.Printf("%04b\n", simhash.Fingerprint(hashes, weights)&0xf)
	// Output: 0011
}

func Example() {
	d, err := simhash.New(simhash.Config{Language: "en"})
	if err != nil {
		panic(err)
	}
	defer d.Close()
	d.Add(detector.Doc{ID: "reuters", Text: story})
	d.Add(detector.Doc{ID: "football", Text: another})
	ms, _ := d.Add(detector.Doc{ID: "copy", Text: story})
	fmt.Println(ms)
	// Output: [{reuters 1}]
}

func ExampleNew() {
	// The peers' configuration: every token lower-cased, counted with its
	// frequency, no idf; neighbours within 6 bits.
	d, err := simhash.New(simhash.Config{KeepStopwords: true, Stemmer: textproc.StemNone, Weights: simhash.WeightTF, SkipTop: -1, K: 6})
	if err != nil {
		panic(err)
	}
	defer d.Close()
	fmt.Println(d.Config().K, d.IDF() == nil)
	_, err = simhash.New(simhash.Config{K: 8, Blocks: 20})
	fmt.Println(err)
	// Output:
	// 6 true
	// simhash: Blocks (20) with K (8) needs C(20, 12) = 125970 tables, more than 1024: invalid config
}

func ExampleDetector_Containers() {
	// A frozen reference IDF table (Varol 2012 §5.1.3 built one from a
	// reference collection); here three tiny documents.
	idf := textproc.NewIDF(false)
	for _, doc := range [][]string{{"bank", "rate"}, {"match", "goal"}, {"bank", "match"}} {
		idf.AddDocument(doc)
	}
	idf.Freeze()
	d, err := simhash.NewWithIDF(simhash.Config{Language: "en", K: 6}, idf)
	if err != nil {
		panic(err)
	}
	defer d.Close()
	d.Add(detector.Doc{ID: "a", Text: story})
	d.Add(detector.Doc{ID: "b", Text: another})
	d.Add(detector.Doc{ID: "c", Text: edited})
	ms, _ := d.Containers("a")
	for _, m := range ms {
		fmt.Printf("%s %.3f\n", m.ID, m.Score)
	}
	// Output:
	// c 1.000
}

func ExampleIndex() {
	ix, err := simhash.NewIndex(3, 0)
	if err != nil {
		panic(err)
	}
	ix.Add(1, 0xF0F0)
	ix.Add(2, 0xF0F1) // 1 bit away
	ix.Add(3, 0xF0FF) // 4 bits away
	fmt.Println(ix.Query(0xF0F0, nil))
	// Output: [{1 0} {2 1}]
}

// A snapshot saves the live documents and the online IDF table's counts;
// a fresh Detector of the same Config loads it and answers as the saved
// one would, without the texts.
func ExampleDetector_WriteTo() {
	d, err := simhash.New(simhash.Config{Language: "en"})
	if err != nil {
		panic(err)
	}
	d.Add(detector.Doc{ID: "reuters", Text: story})
	d.Add(detector.Doc{ID: "wire", Text: story})
	d.Add(detector.Doc{ID: "football", Text: another})
	var snap bytes.Buffer
	if _, err := d.WriteTo(&snap); err != nil {
		panic(err)
	}

	restored, err := simhash.New(simhash.Config{Language: "en"})
	if err != nil {
		panic(err)
	}
	if _, err := restored.ReadFrom(&snap); err != nil {
		panic(err)
	}
	copies, _ := restored.Copies("reuters")
	fmt.Println(restored.Len(), copies)
	ms, _ := restored.Add(detector.Doc{ID: "edited", Text: edited})
	want, _ := d.Add(detector.Doc{ID: "edited", Text: edited})
	fmt.Println(ms[0].ID, slices.Equal(ms, want))
	// Output:
	// 3 [wire]
	// reuters true
}
