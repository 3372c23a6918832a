package textproc

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"golang.org/x/text/cases"
	"golang.org/x/text/language"

	"github.com/seed-9ef9c1df/neardup/internal/dataset"
)

// diffAnalyzers are the configurations whose terms the differential tests
// compare: every rule set, with and without stopwords and stemming.
func diffAnalyzers(tb testing.TB) []*Analyzer {
	tb.Helper()
	var out []*Analyzer
	for _, l := range []language.Tag{language.Turkish, language.English, language.Und, language.Azerbaijani} {
		for _, cfg := range []Config{{Language: l}, FullConfig(l)} {
			a, err := NewAnalyzer(cfg)
			if err != nil {
				tb.Fatal(err)
			}
			out = append(out, a)
		}
	}
	return out
}

// checkAgainstReference requires that the word and term spans of text, the
// term of every span under every analyzer, and the fold of the whole text
// in every rule set are those of the reference implementation (the code
// before its fast paths, reference_test.go).
func checkAgainstReference(t *testing.T, analyzers []*Analyzer, text string) {
	t.Helper()
	require.Equal(t, refWords(text), slices.Collect(Words(text)), "Words(%q)", text)
	units := refTermSpans(text)
	require.Equal(t, units, slices.Collect(TermSpans(text)), "TermSpans(%q)", text)
	var got, want []byte
	for _, a := range analyzers {
		for _, sp := range units {
			word := text[sp.Start:sp.End]
			var okGot, okWant bool
			got, okGot = a.AppendTerm(append(got[:0], "x"...), word)
			want, okWant = a.refAppendTerm(append(want[:0], "x"...), word)
			if okGot != okWant || string(got) != string(want) { // require's cost only on a difference
				require.Equal(t, okWant, okGot, "AppendTerm(%q) with %v", word, a.cfg)
				require.Equal(t, string(want), string(got), "AppendTerm(%q) with %v", word, a.cfg)
			}
		}
	}
	for _, a := range analyzers {
		checkTerms(t, a, text)
	}
	for _, lang := range []string{"tr", "en", ""} {
		c := newCaser(lang)
		var tmp []byte
		gotF, aposGot := appendFolded(nil, text, lang, &c, &tmp)
		wantF, aposWant := refAppendFolded(nil, text, lang, &c, &tmp)
		require.Equal(t, string(wantF), string(gotF), "appendFolded(%q, %q)", text, lang)
		require.Equal(t, aposWant, aposGot, "appendFolded(%q, %q) apostrophe", text, lang)
	}
}

// termOf is one span and term of Analyzer.Terms.
type termOf struct {
	Span Span
	Term string
}

// checkTerms requires Analyzer.Terms to yield the spans of the reference
// TermSpans within the content spans whose reference AppendTerm is kept,
// with those terms, and to stop when asked.
func checkTerms(t *testing.T, a *Analyzer, text string) {
	t.Helper()
	var want []termOf
	var buf []byte
	for _, c := range slices.Clone(a.ContentSpans(text)) {
		for _, sp := range refTermSpans(text[c.Start:c.End]) {
			sp = Span{sp.Start + c.Start, sp.End + c.Start}
			var ok bool
			if buf, ok = a.refAppendTerm(buf[:0], text[sp.Start:sp.End]); ok {
				want = append(want, termOf{sp, string(buf)})
			}
		}
	}
	var got []termOf
	for sp, term := range a.Terms(text) {
		got = append(got, termOf{sp, string(term)})
	}
	require.Equal(t, want, got, "Terms(%q) with %v", text, a.cfg)
	if len(want) > 1 {
		got = got[:0]
		for sp, term := range a.Terms(text) {
			if got = append(got, termOf{sp, string(term)}); len(got) == 2 {
				break
			}
		}
		require.Equal(t, want[:2], got, "Terms(%q) stopped after two", text)
	}
}

// diffPieces are the fragments randomText strings together: ASCII word
// bytes and every byte the word rule treats specially, the Turkish I's,
// apostrophes, digits around '.' and ',', scripts without spaces,
// combining marks, text not in NFC and invalid UTF-8.
var diffPieces = []string{
	"a", "Z", "I", "i", "İ", "ı", "7", "0", " ", "\n", "\t", ".", ",", "'", "`", "’", "ʼ", "‘",
	"-", "!", "\x00", "\x7f", "\xff", "\xc3", "\xe6\x9d", "é", "e\u0301", "\u0307", "\u0331",
	"ß", "Σ", "ς", "東", "京", "ー", "ｰ", "ง", "่", "ก", "한", "\u3099", "١", "½", "Ⅰ", "Ⓐ",
	"DON'T", "Türkiye'de", "1.500", "3,5", "a'", "'a", "IŞIK", "İSTANBUL'DA", "hâlâ", "\u00a0",
}

func randomText(r *rand.Rand) string {
	var b strings.Builder
	for range r.IntN(24) {
		b.WriteString(diffPieces[r.IntN(len(diffPieces))])
	}
	return b.String()
}

// TestFastPathsMatchReference compares the tokenising and folding code with
// the reference on the fuzz seeds, on 5,000 random strings of the tricky
// pieces and, when the shared data is present, on every 40th Reuters-21578
// and TTC-3600 text (20,000 strings and every text with NEARDUP_LONG).
func TestFastPathsMatchReference(t *testing.T) {
	analyzers := diffAnalyzers(t)
	for _, s := range fuzzSeeds {
		checkAgainstReference(t, analyzers, s)
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range dataset.LongSize(5000, 20000) {
		checkAgainstReference(t, analyzers, randomText(r))
	}
	if testing.Short() {
		return
	}
	for _, name := range []string{"reuters21578.jsonl", "ttc3600.jsonl"} {
		t.Run(name, func(t *testing.T) {
			recs := dataset.ForTest(t, name)
			stride := dataset.LongSize(40, 1)
			for i := 0; i < len(recs); i += stride {
				checkAgainstReference(t, analyzers, recs[i].Text)
			}
		})
	}
}

func FuzzFastPathsMatchReference(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	for _, s := range diffPieces {
		f.Add(s)
	}
	analyzers := diffAnalyzers(f)
	f.Fuzz(func(t *testing.T, text string) {
		defer watchdog(text)()
		checkAgainstReference(t, analyzers, text)
	})
}

// appendFolded is the fold of an Analyzer and a Folder without the
// apostrophe-suffix rule: the ASCII path, else the general one.
func appendFolded(dst []byte, word, lang string, c *cases.Caser, tmp *[]byte) (out []byte, apos bool) {
	if out, apos, ok := appendFoldedASCII(dst, word, lang == "tr"); ok {
		return out, apos
	}
	return appendFoldedUnicode(dst, word, lang, c, tmp)
}
