package textproc_test

import (
	"strconv"
	"strings"
	"testing"

	"golang.org/x/text/language"

	"github.com/seed-9ef9c1df/neardup/internal/testkit"
	"github.com/seed-9ef9c1df/neardup/textproc"
)

// outlierTerms returns n distinct terms: the vocabulary of a hostile
// document (1.4 million distinct tokens make about 20 MB of text).
func outlierTerms(n int) []string {
	terms := make([]string, n)
	for i := range terms {
		terms[i] = "tok" + strconv.Itoa(i)
	}
	return terms
}

// normalDoc returns the terms and text of an ordinary news-sized document:
// 300 tokens over 180 distinct terms.
func normalDoc() ([]string, string) {
	terms := make([]string, 300)
	for i := range terms {
		terms[i] = "word" + strconv.Itoa(i*7%180)
	}
	return terms, strings.Join(terms, " ")
}

// BenchmarkIDFAfterOutlier measures AddDocument of an ordinary document on
// a fresh table (Normal) and on a table that once counted a document of
// 1.4 million distinct terms (AfterOutlier), beside the floor on the same
// text. The ratio AfterOutlier/Normal is the lasting cost of one outlier:
// scratch space sized by the outlier and cleared on every call makes it
// large; scratch that shrinks keeps it near 1 (a table that holds the
// outlier's 1.4 million terms for good is slower to look up in, which
// AfterOutlierRemoved, the outlier added and then removed, leaves out).
func BenchmarkIDFAfterOutlier(b *testing.B) {
	terms, text := normalDoc()
	b.Run("Floor", func(b *testing.B) { testkit.Run(b, []string{text}) })
	run := func(b *testing.B, t *textproc.IDF) {
		b.SetBytes(int64(len(text)))
		b.ReportAllocs()
		for b.Loop() {
			if err := t.AddDocument(terms); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.Run("Normal", func(b *testing.B) { run(b, textproc.NewIDF(false)) })
	b.Run("AfterOutlier", func(b *testing.B) {
		t := textproc.NewIDF(false)
		if err := t.AddDocument(outlierTerms(1_400_000)); err != nil {
			b.Fatal(err)
		}
		run(b, t)
	})
	// The outlier counted, then uncounted (a moving window): the table is
	// back to its normal size, so only kept scratch can slow it.
	b.Run("AfterOutlierRemoved", func(b *testing.B) {
		t := textproc.NewIDF(false)
		outlier := outlierTerms(1_400_000)
		if t.AddDocument(outlier) != nil || t.RemoveDocument(outlier) != nil {
			b.Fatal("AddDocument or RemoveDocument failed")
		}
		run(b, t)
	})
}

// BenchmarkAnalyzeAfterOutlier does the same for the Analyzer: Analyze of
// an ordinary document by a fresh Analyzer and by one that analysed a
// 20 MB document first.
func BenchmarkAnalyzeAfterOutlier(b *testing.B) {
	_, text := normalDoc()
	huge := strings.Join(outlierTerms(1_400_000), " ")
	b.Run("Floor", func(b *testing.B) { testkit.Run(b, []string{text}) })
	run := func(b *testing.B, outlier bool) {
		a, err := textproc.NewAnalyzer(textproc.FullConfig(language.English))
		if err != nil {
			b.Fatal(err)
		}
		if outlier {
			a.Analyze(huge)
		}
		a.Analyze(text)
		b.SetBytes(int64(len(text)))
		b.ReportAllocs()
		for b.Loop() {
			a.Analyze(text)
		}
	}
	b.Run("Normal", func(b *testing.B) { run(b, false) })
	b.Run("AfterOutlier", func(b *testing.B) { run(b, true) })
}
