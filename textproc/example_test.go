package textproc_test

import (
	"fmt"

	"golang.org/x/text/language"

	"github.com/seed-9ef9c1df/neardup/textproc"
)

// Turkish case folding and apostrophe suffixes, with offsets into the
// original text.
func Example() {
	a, err := textproc.NewAnalyzer(textproc.Config{Language: language.Turkish})
	if err != nil {
		panic(err)
	}
	text := "KADIN İSTANBUL'DA konuştu. IĞDIR’dan geldi."
	for _, s := range a.Analyze(text).Sentences {
		fmt.Printf("%q:", text[s.Start:s.End])
		for _, tok := range s.Tokens {
			fmt.Printf(" %s", tok.Term)
		}
		fmt.Println()
	}
	// Output:
	// "KADIN İSTANBUL'DA konuştu.": kadın istanbul konuştu
	// "IĞDIR’dan geldi.": ığdır geldi
}

// FullConfig is the preprocessing of Varol 2012 §5.1: stopwords removed and
// first-5 stemming.
func ExampleFullConfig() {
	a, err := textproc.NewAnalyzer(textproc.FullConfig(language.Turkish))
	if err != nil {
		panic(err)
	}
	for _, tok := range a.Analyze("Bu kitapların hepsi ve defterler masada.").Tokens {
		fmt.Println(tok.Term)
	}
	// Output:
	// kitap
	// defte
	// masad
}

func ExampleSentences() {
	text := "Dr. Smith met Prof. Jones. Prices rose 3.5 points! Then fell."
	for sp := range textproc.Sentences(text, language.English) {
		fmt.Println(text[sp.Start:sp.End])
	}
	// Output:
	// Dr. Smith met Prof. Jones.
	// Prices rose 3.5 points!
	// Then fell.
}

func ExampleIDF() {
	idf := textproc.NewIDF(false)
	_ = idf.AddDocument([]string{"ankara", "haber"})
	_ = idf.AddDocument([]string{"izmir", "haber"})
	idf.Freeze()
	fmt.Printf("%.3f %.3f %.3f\n", idf.Weight("haber"), idf.Weight("ankara"), idf.Weight("unseen"))
	// Output: 0.000 0.693 0.693
}
