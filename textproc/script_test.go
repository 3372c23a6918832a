package textproc

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/text/language"
	"golang.org/x/text/unicode/norm"

	"github.com/seed-9ef9c1df/neardup/detector"
)

// surfaces returns the surface text and the term of every token of text.
func surfaces(t *testing.T, cfg Config, text string) (surf, terms []string) {
	t.Helper()
	a, err := NewAnalyzer(cfg)
	require.NoError(t, err)
	for _, tok := range a.Analyze(text).Tokens {
		surf = append(surf, text[tok.Start:tok.End])
		terms = append(terms, tok.Term)
	}
	return surf, terms
}

func TestBigrams(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []string // terms; the surfaces are the same text
	}{
		{"han run", "東京都", []string{"東京", "京都"}},
		{"two characters", "中国", []string{"中国"}},
		{"lone character stays a unigram", "中", []string{"中"}},
		{"runs split at punctuation", "中，国", []string{"中", "国"}},
		{"latin then han", "abc株式会社", []string{"abc", "株式", "式会", "会社"}},
		{"digits then han", "2020年", []string{"2020", "年"}},
		{"hiragana and kanji", "食べる", []string{"食べ", "べる"}},
		{"katakana prolonged sound mark", "コーヒー", []string{"コー", "ーヒ", "ヒー"}},
		{"thai with combining marks", "ง่าย", []string{"ง่า", "าย"}},
		{"lao", "ພາສາ", []string{"ພາ", "າສ", "ສາ"}},
		{"khmer", "ខ្មែរ", []string{"ខ្មែ", "មែរ"}},
		{"myanmar", "မြန်မာ", []string{"မြန်", "န်မာ"}},
		{"hangul keeps words", "한국어 문장", []string{"한국어", "문장"}},
		{"two sentences", "今天很好。明天", []string{"今天", "天很", "很好", "明天"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			surf, terms := surfaces(t, Config{}, tc.in)
			assert.Equal(t, tc.want, terms, "terms of %q", tc.in)
			assert.Equal(t, tc.want, surf, "surfaces of %q", tc.in)
		})
	}
}

func TestWordsAndTermSpans(t *testing.T) {
	text := "Tokyo 東京都 2020"
	var words, units []string
	for sp := range Words(text) {
		words = append(words, text[sp.Start:sp.End])
	}
	for sp := range TermSpans(text) {
		units = append(units, text[sp.Start:sp.End])
	}
	assert.Equal(t, []string{"Tokyo", "東", "京", "都", "2020"}, words, "Words do not overlap")
	assert.Equal(t, []string{"Tokyo", "東京", "京都", "2020"}, units, "TermSpans overlap in Han")
}

// TestBigramsAreNotStemmed: first-N stemming never cuts a bigram, even at
// N = 1 and with combining marks that make it longer than N runes.
func TestBigramsAreNotStemmed(t *testing.T) {
	cfg := Config{Stemmer: StemPrefix, PrefixLen: 1}
	_, terms := surfaces(t, cfg, "東京都 ง่าย Tokyo")
	assert.Equal(t, []string{"東京", "京都", "ง่า", "าย", "t"}, terms)
	a, err := NewAnalyzer(cfg)
	require.NoError(t, err)
	got, ok := a.AppendTerm(nil, "東京")
	assert.True(t, ok)
	assert.Equal(t, "東京", string(got))
}

// TestChineseStemmingDefect: two different stories that open with the same
// five characters share their first tokens only, not every token (the
// defect of whole-clause tokens cut to five runes).
func TestChineseStemmingDefect(t *testing.T) {
	_, a := surfaces(t, FullConfig(language.Chinese), "北京市政府今天宣布新的交通计划")
	_, b := surfaces(t, FullConfig(language.Chinese), "北京市政府昨天否认了有关房价的传闻")
	assert.Len(t, a, 14)
	shared := 0
	for _, x := range a {
		if slices.Contains(b, x) {
			shared++
		}
	}
	assert.Equal(t, 4, shared, "北京 京市 市政 政府")
}

func TestWideSentenceEnds(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []string
	}{
		{"ideographic full stop, no space", "今天天气很好。我们去公园！你呢？", []string{"今天天气很好。", "我们去公园！", "你呢？"}},
		{"closing quote stays", "他说：“走吧。”然后走了。", []string{"他说：“走吧。”", "然后走了。"}},
		{"corner bracket", "「行こう。」と言った。", []string{"「行こう。」", "と言った。"}},
		{"full-width period", "これはペンです．あれは本です．", []string{"これはペンです．", "あれは本です．"}},
		{"full-width decimal", "３．５倍になった。", []string{"３．５倍になった。"}},
		{"half-width ideographic stop", "はい｡いいえ", []string{"はい｡", "いいえ"}},
		{"ascii rules unchanged", "It rose 3.5 points. Then fell.", []string{"It rose 3.5 points.", "Then fell."}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, sentences(tc.in, language.Und))
		})
	}
}

func TestAnalyzeSteadyStateAllocsCJK(t *testing.T) {
	a, err := NewAnalyzer(FullConfig(language.Und))
	require.NoError(t, err)
	text := strings.Repeat("北京市政府今天宣布了新的交通计划。東京都は２０２０年にオリンピックを開催した！ภาษาไทยง่ายนิดเดียว ", 10)
	a.Analyze(text)
	assert.Zero(t, testing.AllocsPerRun(50, func() { a.Analyze(text) }))
}

func TestParseLanguage(t *testing.T) {
	for _, tc := range []struct {
		in, rules string
	}{
		{"", ""}, {"und", ""}, {"tr", "tr"}, {"tr-TR", "tr"}, {"az", "tr"}, {"en", "en"}, {"en-GB", "en"},
		{"zh", ""}, {"zh-Hant", ""}, {"ja", ""}, {"de", ""}, {"th", ""},
	} {
		tag, err := ParseLanguage(tc.in)
		require.NoError(t, err, "ParseLanguage(%q)", tc.in)
		assert.Equal(t, tc.rules, RuleSet(tag), "RuleSet(%q)", tc.in)
	}
	_, err := ParseLanguage("not a tag!")
	assert.ErrorIs(t, err, detector.ErrInvalidConfig)
	assert.EqualError(t, err, `Language ("not a tag!") is not a BCP 47 tag: invalid config`)
}

func TestStemmerResolve(t *testing.T) {
	for _, tc := range []struct{ s, def, want Stemmer }{
		{StemDefault, StemPrefix, StemPrefix},
		{StemDefault, StemNone, StemNone},
		{StemDefault, StemDefault, StemNone},
		{StemNone, StemPrefix, StemNone},
		{StemPrefix, StemNone, StemPrefix},
	} {
		got, err := tc.s.Resolve(tc.def)
		require.NoError(t, err)
		assert.Equal(t, tc.want, got, "%v.Resolve(%v)", tc.s, tc.def)
	}
	_, err := Stemmer(9).Resolve(StemNone)
	assert.ErrorIs(t, err, detector.ErrInvalidConfig)
	assert.ErrorContains(t, err, "Stemmer (9) must be StemDefault (0), StemNone (1) or StemPrefix (2)")
	assert.Equal(t, "Stemmer(9)", Stemmer(9).String())
	assert.Equal(t, "StemPrefix", StemPrefix.String())
}

func TestFolder(t *testing.T) {
	tr, en, und := NewFolder(language.Turkish), NewFolder(language.English), Folder{}
	for _, tc := range []struct {
		f        Folder
		in, want string
	}{
		{tr, "KADIN İSTANBUL'DA", "kadın istanbul'da"},
		{tr, "IĞDIR’dan", "ığdır'dan"},
		{en, "ISTANBUL’s", "istanbul's"},
		{und, "İstanbul", "i\u0307stanbul"},
		{und, "Καλημέρα ΚΌΣΜΕ", "καλημέρα κόσμε"},
		{und, "東京タワー「ＡＢＣ」", "東京タワー「ａｂｃ」"},
		{und, "cafe\u0301 — “quoted”", "café — “quoted”"},
		{tr.WithoutCircumflex(), "Hâlâ KÂR Îmân Ûmit", "hala kar iman umit"},
		{tr, "Hâlâ", "hâlâ"},
	} {
		assert.Equal(t, tc.want, tc.f.Fold(tc.in), "Fold(%q)", tc.in)
		assert.Equal(t, "x"+tc.want, string(tc.f.AppendFold([]byte("x"), tc.in)), "AppendFold(%q)", tc.in)
	}
	// Unchanged text comes back as is, without allocating.
	for _, s := range []string{"already lower", "東京タワー", "ığdır", "don't — “quoted”"} {
		assert.Equal(t, string(tr.AppendFold(nil, s)), tr.Fold(s))
		assert.Zero(t, testing.AllocsPerRun(100, func() { _ = tr.Fold(s) }), "Fold(%q)", s)
	}
	if !raceEnabled { // the race detector's sync.Pool drops items
		buf := make([]byte, 0, 256)
		assert.Zero(t, testing.AllocsPerRun(100, func() { buf = und.AppendFold(buf[:0], "İSTANBUL Καλημέρα") }))
	}
	// The Folder folds as the Analyzer does.
	a, err := NewAnalyzer(Config{Language: language.Turkish})
	require.NoError(t, err)
	for _, w := range []string{"İSTANBUL", "IĞDIR", "ÇİĞDEM", "Ǆ"} {
		term, _ := a.Term(w)
		assert.Equal(t, term, tr.Fold(w), "Folder and Analyzer on %q", w)
	}
}

// FuzzBigrams checks the tokeniser on scripts without spaces: TermSpans
// are in order and inside the text; each is a word of Words or the bigram
// of two adjacent characters of a script without spaces; every such
// character is covered; the Analyzer's tokens have exactly these spans; and
// stemming never cuts a bigram. Inputs that found bugs are kept in
// testdata/fuzz/FuzzBigrams.
func FuzzBigrams(f *testing.F) {
	for _, s := range []string{"東京都", "中", "ABC株式会社の社長", "2020年に", "ภาษาไทยง่ายนิดเดียว", "コーヒー。お茶！",
		"ง\u0e48\u0e48", "\u0e48ง", "東\u3099京", "漢'字", "a東", "東\xff京", "北京市政府今天宣布新的交通计划。", "한국어 문장"} {
		f.Add(s)
	}
	an, err := NewAnalyzer(Config{})
	if err != nil {
		f.Fatal(err)
	}
	stem, err := NewAnalyzer(Config{Stemmer: StemPrefix, PrefixLen: 1})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, text string) {
		defer watchdog(text)()
		var words []Span
		for w := range Words(text) {
			words = append(words, w)
		}
		var spans []Span
		prev := Span{-1, -1}
		for sp := range TermSpans(text) {
			if sp.Start < 0 || sp.End > len(text) || sp.Start >= sp.End || sp.Start <= prev.Start || sp.End <= prev.End {
				t.Fatalf("span %v after %v in %q", sp, prev, text)
			}
			prev = sp
			spans = append(spans, sp)
			i, found := slices.BinarySearchFunc(words, sp.Start, func(w Span, s int) int { return w.Start - s })
			if !found {
				t.Fatalf("span %v does not start a word of %q", sp, text)
			}
			if words[i] == sp {
				continue
			}
			// A bigram: two adjacent characters of a script without spaces.
			if i+1 >= len(words) || words[i].End != words[i+1].Start || words[i+1].End != sp.End ||
				!noSpaceWord(text, words[i]) || !noSpaceWord(text, words[i+1]) {
				t.Fatalf("span %q of %q is neither a word nor a bigram", text[sp.Start:sp.End], text)
			}
		}
		// Every character of a script without spaces is covered.
		for _, w := range words {
			if !noSpaceWord(text, w) {
				continue
			}
			covered := false
			for _, sp := range spans {
				if sp.Start <= w.Start && w.End <= sp.End {
					covered = true
					break
				}
			}
			if !covered {
				t.Fatalf("character %q of %q is in no term", text[w.Start:w.End], text)
			}
		}
		var got []Span
		for _, tok := range an.Tokens(text) {
			got = append(got, Span{tok.Start, tok.End})
		}
		if !slices.Equal(got, spans) {
			t.Fatalf("Analyzer tokens %v, TermSpans %v of %q", got, spans, text)
		}
		for _, tok := range stem.Tokens(text) {
			if r, _ := utf8.DecodeRuneInString(text[tok.Start:]); isNoSpace(r) {
				if want, _ := an.Term(text[tok.Start:tok.End]); tok.Term != want {
					t.Fatalf("bigram %q stemmed to %q", want, tok.Term)
				}
			}
		}
	})
}

func noSpaceWord(text string, w Span) bool {
	r, _ := utf8.DecodeRuneInString(text[w.Start:])
	return isNoSpace(r)
}

// FuzzFolder: Fold and AppendFold agree, the result is valid NFC text when
// the input is valid UTF-8, and folding is idempotent.
func FuzzFolder(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	folders := []Folder{{}, NewFolder(language.Turkish), NewFolder(language.English), NewFolder(language.Turkish).WithoutCircumflex()}
	f.Fuzz(func(t *testing.T, s string) {
		for _, fo := range folders {
			got := fo.Fold(s)
			if app := string(fo.AppendFold([]byte("x"), s)); app != "x"+got {
				t.Fatalf("AppendFold(%q) = %q, Fold %q", s, app, got)
			}
			if !utf8.ValidString(s) {
				continue
			}
			if !utf8.ValidString(got) || !norm.NFC.IsNormalString(got) {
				t.Fatalf("Fold(%q) = %q is not valid NFC", s, got)
			}
			if again := fo.Fold(got); again != got {
				t.Fatalf("Fold(%q) = %q, folded again %q", s, got, again)
			}
		}
	})
}
