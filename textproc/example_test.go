package textproc_test

import (
	"errors"
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

// Scripts written without spaces are tokenised into overlapping character
// bigrams, with byte offsets into the text; a sentence ends at 。 without
// a space after it.
func ExampleAnalyzer_Analyze_bigrams() {
	a, err := textproc.NewAnalyzer(textproc.FullConfig(language.Chinese))
	if err != nil {
		panic(err)
	}
	text := "北京市政府。今天"
	for _, s := range a.Analyze(text).Sentences {
		for i, tok := range s.Tokens {
			if i > 0 {
				fmt.Print(" ")
			}
			fmt.Printf("%s[%d:%d]", tok.Term, tok.Start, tok.End)
		}
		fmt.Println()
	}
	// Output:
	// 北京[0:6] 京市[3:9] 市政[6:12] 政府[9:15]
	// 今天[18:24]
}

// ParseLanguage is how every detector reads its Config.Language: "" and
// languages without rules of their own are language-neutral.
func ExampleParseLanguage() {
	for _, s := range []string{"tr", "en-GB", "zh", ""} {
		tag, err := textproc.ParseLanguage(s)
		if err != nil {
			panic(err)
		}
		fmt.Printf("%q → %q\n", s, textproc.RuleSet(tag))
	}
	_, err := textproc.ParseLanguage("Türkçe")
	fmt.Println(err)
	// Output:
	// "tr" → "tr"
	// "en-GB" → "en"
	// "zh" → ""
	// "" → ""
	// Language ("Türkçe") is not a BCP 47 tag: invalid config
}

// A Folder folds text as the Analyzer folds words, for callers that
// compare text in folded form (a gazetteer of names, say).
func ExampleFolder() {
	f := textproc.NewFolder(language.Turkish).WithoutCircumflex()
	fmt.Println(f.Fold("KADIN İSTANBUL’da Hâlâ"))
	// Output: kadın istanbul'da hala
}

// NewIDFFromCounts builds a table from counts made elsewhere; its binary
// form carries a checksum, and a corrupted copy is rejected.
func ExampleNewIDFFromCounts() {
	idf, err := textproc.NewIDFFromCounts(4, map[string]int64{"haber": 4, "ankara": 1}, false)
	if err != nil {
		panic(err)
	}
	idf.Freeze()
	fmt.Printf("%.3f %.3f\n", idf.Weight("haber"), idf.Weight("ankara"))
	b, _ := idf.MarshalBinary()
	b[10] ^= 1
	err = new(textproc.IDF).UnmarshalBinary(b)
	fmt.Println(errors.Is(err, textproc.ErrFormat))
	// Output:
	// 0.000 1.386
	// true
}

// Reset gives back the vocabulary a huge document grew; term IDs start
// again from 0.
func ExampleAnalyzer_Reset() {
	var a textproc.Analyzer // the zero Analyzer: language-neutral
	a.Analyze("one two three four")
	fmt.Println(a.VocabularySize())
	a.Reset()
	fmt.Println(a.VocabularySize(), a.Analyze("four").Tokens[0].ID)
	// Output:
	// 4
	// 0 0
}

func ExampleAnalyzer_Terms() {
	a, err := textproc.NewAnalyzer(textproc.FullConfig(language.English))
	if err != nil {
		panic(err)
	}
	text := "The Reuters report: SHARES rose 3.5% in Tokyo's market."
	for sp, term := range a.Terms(text) {
		fmt.Printf("%q → %s\n", text[sp.Start:sp.End], term)
	}
	// Output:
	// "Reuters" → reute
	// "report" → repor
	// "SHARES" → share
	// "rose" → rose
	// "3.5" → 3.5
	// "Tokyo's" → tokyo
	// "market" → marke
}
