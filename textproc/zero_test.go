package textproc

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/text/cases"
	"golang.org/x/text/language"
	"golang.org/x/text/transform"
)

// TestZeroValues: the zero value of every exported type of the package is
// usable and behaves as its documentation says.
func TestZeroValues(t *testing.T) {
	const text = "Dr. Smith met KADIN in İstanbul.\n\nThe second paragraph, with more words than ten, is prose for the filter."
	want, err := NewAnalyzer(Config{})
	require.NoError(t, err)
	wantDoc := want.Analyze(text)

	var a Analyzer
	assert.Equal(t, want.Config(), a.Config(), "zero Analyzer's effective Config")
	assert.Zero(t, a.VocabularySize())
	_, ok := a.Lookup("x")
	assert.False(t, ok)
	a.Reset()
	doc := a.Analyze(text)
	assert.Equal(t, wantDoc.Tokens, doc.Tokens, "zero Analyzer = NewAnalyzer(Config{})")
	assert.Len(t, doc.Sentences, len(wantDoc.Sentences))
	var b Analyzer
	assert.NotEmpty(t, b.Tokens(text))
	var c Analyzer
	term, ok := c.Term("KADIN")
	assert.True(t, ok)
	assert.Equal(t, "kadin", term)
	var d Analyzer
	out, ok := d.AppendTerm(nil, "Word")
	assert.True(t, ok)
	assert.Equal(t, "word", string(out))
	var e Analyzer
	assert.Equal(t, []Span{{0, len(text)}}, e.ContentSpans(text))
	var g Analyzer
	n := 0
	for range g.Words(text) {
		n++
	}
	assert.Equal(t, len(wantDoc.Tokens), n)

	var f ContentFilter
	assert.Equal(t, NewContentFilter(language.Und).Spans(nil, text), f.Spans(nil, text), "zero ContentFilter = NewContentFilter(und)")
	var f2 ContentFilter
	assert.Equal(t, NewContentFilter(language.Und).Text(text), f2.Text(text))

	var fold Folder
	assert.Equal(t, "kadin i̇stanbul", fold.Fold("KADIN İstanbul"), "the zero Folder is language-neutral")

	var idf IDF
	assert.Zero(t, idf.Weight("x"))
	require.NoError(t, idf.AddDocument([]string{"x"}))

	var s Stemmer
	st, err := s.Resolve(StemDefault)
	require.NoError(t, err)
	assert.Equal(t, StemNone, st)
	var ct Content
	assert.True(t, ct.Valid())
	assert.Equal(t, "default", ct.String())
}

// failing is a Caser stand-in that fails with an error lower does not
// expect, or keeps asking for more room.
type failing struct {
	err   error
	calls int
}

func (f *failing) Reset() {}

func (f *failing) Transform(dst, src []byte, atEOF bool) (int, int, error) {
	f.calls++
	return 0, 0, f.err
}

// TestLowerFallsBack: lower must return, with the rune-by-rune lower case,
// when the Caser fails with an unexpected error or never has room enough.
func TestLowerFallsBack(t *testing.T) {
	for _, err := range []error{errors.New("unexpected"), transform.ErrShortSrc, transform.ErrShortDst} {
		for _, lang := range []string{"tr", "en", ""} {
			f := &failing{err: err}
			got := lower(f, []byte("pre:"), []byte("KADIN İSTANBUL ΣΟΦΊΑ"), lang)
			want := "pre:kadin istanbul σοφία" // unicode.ToLower maps İ to i
			if lang == "tr" {
				want = "pre:kadın istanbul σοφία"
			}
			assert.Equal(t, want, string(got), "%v, %q", err, lang)
			assert.LessOrEqual(t, f.calls, 2, "%v: Transform calls", err)
		}
	}
	// The real Caser never takes the fallback on ordinary words.
	c := cases.Lower(language.Turkish)
	assert.Equal(t, "ığdır", string(lower(&c, nil, []byte("IĞDIR"), "tr")))
}
