package textproc

import (
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/text/language"
	"golang.org/x/text/unicode/norm"

	"github.com/seed-9ef9c1df/neardup/internal/dataset"
)

func terms(t *testing.T, cfg Config, text string) []string {
	t.Helper()
	a, err := NewAnalyzer(cfg)
	require.NoError(t, err)
	var out []string
	for _, tok := range a.Analyze(text).Tokens {
		out = append(out, tok.Term)
	}
	return out
}

func TestFolding(t *testing.T) {
	tr := Config{Language: language.Turkish}
	en := Config{Language: language.English}
	tests := []struct {
		name string
		cfg  Config
		in   string
		want []string
	}{
		{"turkish dotted capital", tr, "İSTANBUL'DA", []string{"istanbul"}},
		{"turkish dotless capital", tr, "IĞDIR", []string{"ığdır"}},
		{"turkish ascii I", tr, "KADIN", []string{"kadın"}},
		{"english I", en, "ISTANBUL", []string{"istanbul"}},
		{"turkish apostrophe", tr, "Türkiye'de", []string{"türkiye"}},
		{"turkish typographic apostrophe", tr, "Türkiye’de", []string{"türkiye"}},
		{"turkish number suffix", tr, "1.500'ün", []string{"1.500"}},
		{"english possessive", en, "John's", []string{"john"}},
		{"english contraction kept", en, "don't", []string{"don't"}},
		{"decimal", en, "3.5 percent", []string{"3.5", "percent"}},
		{"nfd input", tr, norm.NFD.String("Çiğdem ŞEKER"), []string{"çiğdem", "şeker"}},
		{"invalid utf8 separates", en, "abc\xffdef", []string{"abc", "def"}},
		{"controls separate", en, "abc\x00def\x07", []string{"abc", "def"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, terms(t, tc.cfg, tc.in))
		})
	}
}

func TestStopwordsAndStemming(t *testing.T) {
	got := terms(t, FullConfig(language.Turkish), "Bu kitapların hepsi ve defterler masada")
	assert.Equal(t, []string{"kitap", "defte", "masad"}, got)
	got = terms(t, FullConfig(language.English), "The governments of the world")
	assert.Equal(t, []string{"gover", "world"}, got)
	assert.Len(t, Stopwords(language.Turkish), 182)
	assert.Contains(t, Stopwords(language.Turkish), "çünkü")
	assert.Nil(t, Stopwords(language.Japanese))
	assert.Nil(t, Stopwords(language.Und), "the zero tag is neutral, not English")
	assert.Equal(t, []string{"the", "ısland"}, terms(t, Config{Language: language.Turkish}, "The ISLAND"))
	assert.Equal(t, []string{"the", "island"}, terms(t, Config{}, "The ISLAND"), "neutral folding")
	// Prefix counts runes, not bytes.
	assert.Equal(t, []string{"çğüşö"}, terms(t, Config{Language: language.Turkish, Stemmer: StemPrefix}, "çğüşöıi"))
}

func sentences(text string, lang language.Tag) []string {
	var out []string
	for sp := range Sentences(text, lang) {
		out = append(out, text[sp.Start:sp.End])
	}
	return out
}

func TestSentences(t *testing.T) {
	tests := []struct {
		name string
		lang language.Tag
		in   string
		want []string
	}{
		{"basic", language.English, "One two. Three four! Five? Six…", []string{"One two.", "Three four!", "Five?", "Six…"}},
		{"decimal", language.English, "It rose 3.5 points. Then fell.", []string{"It rose 3.5 points.", "Then fell."}},
		{"turkish thousands", language.Turkish, "Kazada 1.500'ün üzerinde kişi vardı. Sonra gittiler.", []string{"Kazada 1.500'ün üzerinde kişi vardı.", "Sonra gittiler."}},
		{"abbreviations", language.English, "Dr. Smith met Prof. Jones. They spoke.", []string{"Dr. Smith met Prof. Jones.", "They spoke."}},
		{"turkish abbreviation", language.Turkish, "Prof. Dr. Ahmet Kaya geldi. Doç. Ayşe de.", []string{"Prof. Dr. Ahmet Kaya geldi.", "Doç. Ayşe de."}},
		{"vs", language.English, "Arsenal vs. Chelsea ended. Fans left.", []string{"Arsenal vs. Chelsea ended.", "Fans left."}},
		{"initials", language.English, "J. R. Smith wrote it. Done.", []string{"J. R. Smith wrote it.", "Done."}},
		{"percent mid sentence", language.English, "Prices rose 2%. in March, analysts said.", []string{"Prices rose 2%. in March, analysts said."}},
		{"lowercase continuation", language.Turkish, "15. yüzyılda kuruldu. Yıkıldı.", []string{"15. yüzyılda kuruldu.", "Yıkıldı."}},
		{"paragraph", language.English, "Headline without dot\n\nBody starts here", []string{"Headline without dot", "Body starts here"}},
		{"single newline is no break", language.English, "wrapped\nline", []string{"wrapped\nline"}},
		{"quote closer", language.English, `He said "go." She went.`, []string{`He said "go."`, "She went."}},
		{"turkish ordinal", language.Turkish, "Ankara 5. Ceza Mahkemesi karar verdi. Dava bitti.", []string{"Ankara 5. Ceza Mahkemesi karar verdi.", "Dava bitti."}},
		{"turkish year ends sentence", language.Turkish, "Cumhuriyet 1923. Sonra geldi.", []string{"Cumhuriyet 1923.", "Sonra geldi."}},
		{"english number ends sentence", language.English, "They won 3. The end.", []string{"They won 3.", "The end."}},
		{"empty", language.English, "   \n\n  ", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, sentences(tc.in, tc.lang))
		})
	}
}

func TestOffsets(t *testing.T) {
	a, err := NewAnalyzer(FullConfig(language.Turkish))
	require.NoError(t, err)
	text := "Ankara’da toplantı yapıldı. İSTANBUL'DAN katılım oldu."
	d := a.Analyze(text)
	require.Len(t, d.Sentences, 2)
	assert.Equal(t, "Ankara’da", text[d.Tokens[0].Start:d.Tokens[0].End])
	assert.Equal(t, "ankar", d.Tokens[0].Term)
	s := d.Sentences[1]
	assert.Equal(t, "İSTANBUL'DAN katılım oldu.", text[s.Start:s.End])
	assert.Equal(t, "istan", s.Tokens[0].Term)
	for _, s := range d.Sentences {
		for _, tok := range s.Tokens {
			assert.True(t, tok.Start >= s.Start && tok.End <= s.End)
		}
	}
	// IDs are stable and interned.
	d2 := a.Analyze("ankara")
	assert.Equal(t, d.Tokens[0].ID, d2.Tokens[0].ID)
	assert.Equal(t, "ankar", a.TermOf(d2.Tokens[0].ID))
}

func TestAnalyzeSteadyStateAllocs(t *testing.T) {
	a, err := NewAnalyzer(FullConfig(language.Turkish))
	require.NoError(t, err)
	text := strings.Repeat("Türkiye'de İSTANBUL'DA bugün 1.500 kişi toplandı. Dr. Ayşe Kaya konuştu! ", 20)
	a.Analyze(text)
	allocs := testing.AllocsPerRun(100, func() { a.Analyze(text) })
	assert.Zero(t, allocs)
}

func TestNewAnalyzerErrors(t *testing.T) {
	_, err := NewAnalyzer(Config{Stemmer: 7})
	assert.Error(t, err)
	_, err = NewAnalyzer(Config{PrefixLen: -1})
	assert.Error(t, err)
}

func TestAppendTermMatchesTerm(t *testing.T) {
	words := []string{"İSTANBUL'DA", "Türkiye’de", "KADIN", "ve", "The", "governments", "John's", "don't", "1.500'ün", "ǅungla", "e\u0301", ""}
	for _, cfg := range []Config{{}, {Language: language.Turkish}, FullConfig(language.Turkish), FullConfig(language.English)} {
		a, err := NewAnalyzer(cfg)
		require.NoError(t, err)
		for _, w := range words {
			prefix := []byte("x'")
			got, ok := a.AppendTerm(prefix, w)
			want, wantOK := a.Term(w)
			assert.Equal(t, wantOK, ok, "AppendTerm(%q) ok under %+v", w, cfg)
			if ok {
				assert.Equal(t, "x'"+want, string(got), "AppendTerm(%q) under %+v", w, cfg)
			} else {
				assert.Equal(t, "x'", string(got))
			}
		}
		buf := make([]byte, 0, 64)
		assert.Zero(t, testing.AllocsPerRun(100, func() { buf, _ = a.AppendTerm(buf[:0], "İSTANBUL'DA") }))
	}
}

// TestLoweringKeepsNFC: lower-casing can undo NFC (inputs found by
// FuzzAnalyze); terms are normalised again, and the common "İ" → "i̇" of
// the default casing stays allocation-free.
func TestLoweringKeepsNFC(t *testing.T) {
	cases := []struct {
		lang language.Tag
		in   string
		want string
	}{
		{language.Und, "İ\u0331", "i\u0331\u0307"}, // marks reordered
		{language.Turkish, "İ\u0306", "\u012d"},    // i + breve composes to ĭ
		{language.Und, "İstanbul", "i\u0307stanbul"},
		{language.Und, "Q\u0303", "q\u0303"}, // no precomposed form: unchanged
	}
	for _, tc := range cases {
		a, err := NewAnalyzer(Config{Language: tc.lang})
		require.NoError(t, err)
		got, ok := a.Term(tc.in)
		require.True(t, ok, "%q", tc.in)
		assert.Equal(t, tc.want, got, "Term(%q) under %v", tc.in, tc.lang)
		assert.True(t, norm.NFC.IsNormalString(got), "Term(%q) = %q is not NFC", tc.in, got)
	}
}

// TestTokensMatchAnalyze: Tokens gives Analyze's tokens on whole corpora,
// English and Turkish, under every configuration the detectors use.
func TestTokensMatchAnalyze(t *testing.T) {
	corpora := map[string]language.Tag{"reuters21578.jsonl": language.English, "ttc3600.jsonl": language.Turkish}
	for file, lang := range corpora {
		recs := dataset.ForTest(t, file)
		for _, cfg := range []Config{{}, {Language: lang}, FullConfig(lang)} {
			a, err := NewAnalyzer(cfg)
			require.NoError(t, err)
			for _, r := range recs[:min(len(recs), 2000)] {
				want := slices.Clone(a.Analyze(r.Text).Tokens)
				require.Equal(t, want, a.Tokens(r.Text), "%s %s under %+v", file, r.ID, cfg)
			}
		}
	}
}
