package imatch_test

import (
	"bytes"
	"fmt"
	"strings"

	"golang.org/x/text/language"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/imatch"
	"github.com/seed-9ef9c1df/neardup/textproc"
)

const (
	story   = "The central bank raised its benchmark interest rate by half a percentage point on Wednesday, the fourth increase this year, as policymakers tried to cool inflation that has stayed above eight percent since the spring. Governor Elena Marsh said price pressures had spread from energy and food to rents and services."
	edited  = "UPDATE: The central bank raised its benchmark interest rate by half a percentage point on Wednesday, the fourth increase this year, as policymakers tried to cool inflation that has stayed above eight percent since the spring. Governor Elena Marsh said price pressures had spread from energy and food to rents and services."
	another = "A late header from the veteran defender gave the visitors a two to one win in Saturday's cup semi-final, ending the home side's unbeaten run of fourteen matches in front of a sold-out stadium."
)

// reference builds a frozen IDF table from a reference collection (Varol
// 2012 §5.1.3 used the last 25% of its corpus): here, a few analysed texts.
func reference(texts ...string) *textproc.IDF {
	an, _ := textproc.NewAnalyzer(textproc.FullConfig(language.English))
	idf := textproc.NewIDF(false)
	for _, t := range texts {
		var terms []string
		for _, tok := range an.Analyze(t).Tokens {
			terms = append(terms, tok.Term)
		}
		idf.AddDocument(terms)
	}
	idf.Freeze()
	return idf
}

func Example() {
	d, err := imatch.New(imatch.Config{Language: "en"})
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
	// The normalised-idf band of the I-Match literature, with 10 random
	// sub-lexicons (Kołcz et al. 2004).
	d, err := imatch.New(imatch.Config{Selection: imatch.SelectBand, Lexicons: 10})
	if err != nil {
		panic(err)
	}
	defer d.Close()
	c := d.Config()
	fmt.Println(c.BandLow, c.BandHigh, c.LexiconKeep, c.MinTerms)
	_, err = imatch.New(imatch.Config{Keep: 3})
	fmt.Println(err)
	// Output:
	// 0.2 0.85 0.7 5
	// imatch: MinTerms (5) must not exceed Keep (3): invalid config
}

func ExampleDetector_Containers() {
	d, err := imatch.NewWithIDF(imatch.Config{Language: "en"}, reference(story, another, "the bank said on Wednesday", "inflation and rents rose in the spring"))
	if err != nil {
		panic(err)
	}
	defer d.Close()
	d.Add(detector.Doc{ID: "a", Text: story})
	d.Add(detector.Doc{ID: "b", Text: another})
	d.Add(detector.Doc{ID: "c", Text: edited}) // one new word
	ms, _ := d.Containers("a")
	fmt.Println(ms)
	cluster, _ := d.Cluster("c")
	fmt.Println(cluster)
	// Output:
	// [{c 1}]
	// [a c]
}

// A service saves its detector and restores it after a restart: the
// restored detector answers, and signs with its online table, as the
// saved one would.
func ExampleDetector_WriteTo() {
	cfg := imatch.Config{Language: "en"}
	d, err := imatch.New(cfg)
	if err != nil {
		panic(err)
	}
	d.Add(detector.Doc{ID: "reuters", Text: story})
	d.Add(detector.Doc{ID: "wire", Text: story})
	d.Add(detector.Doc{ID: "football", Text: another})
	var saved bytes.Buffer
	if _, err := d.WriteTo(&saved); err != nil {
		panic(err)
	}
	d.Close()

	restored, err := imatch.New(cfg) // the same constructor and Config
	if err != nil {
		panic(err)
	}
	defer restored.Close()
	if _, err := restored.ReadFrom(&saved); err != nil {
		panic(err)
	}
	copies, _ := restored.Copies("reuters")
	fmt.Println(restored.Len(), copies)
	ms, _ := restored.Add(detector.Doc{ID: "late", Text: strings.ToUpper(story)})
	fmt.Println(ms)
	// Output:
	// 3 [wire]
	// [{reuters 1} {wire 1}]
}
