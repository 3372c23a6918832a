package textproc

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"golang.org/x/text/language"
	"golang.org/x/text/unicode/norm"
)

var fuzzSeeds = []string{
	"", " ", "\n\n", "İSTANBUL'DA", "Türkiye’de 1.500'ün", "Dr. Smith. Prof. Jones!",
	"3.5 2%. in", "abc\xffdef", "\xc3", "a'", "'a", "1.", ".1", "J. R. R.", "…?!",
	"ǅungla ß İı", "e\u0301\u0301", "'''", "a.b.c.", "\u00a0\u2028\u2029", "x\n \n y",
	"東京都。大阪！", "「行こう。」と", "３．５倍", "ง่าย", "コーヒー", "漢'字", "a東京",
}

func FuzzAnalyze(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	langs := []language.Tag{language.Turkish, language.English, language.Und}
	analyzers := make([]*Analyzer, 0, 2*len(langs))
	for _, l := range langs {
		for _, cfg := range []Config{{Language: l}, FullConfig(l)} {
			a, err := NewAnalyzer(cfg)
			if err != nil {
				f.Fatal(err)
			}
			analyzers = append(analyzers, a)
		}
	}
	f.Fuzz(func(t *testing.T, text string) {
		defer watchdog(text)()
		for _, a := range analyzers {
			d := a.Analyze(text)
			n := 0
			prevEnd := 0
			for _, s := range d.Sentences {
				if s.Start < prevEnd || s.End > len(text) || s.Start >= s.End {
					t.Fatalf("bad sentence span %v (prev end %d, len %d)", s, prevEnd, len(text))
				}
				prevEnd = s.End
				for _, tok := range s.Tokens {
					if tok.Start < s.Start || tok.End > s.End || tok.Start >= tok.End {
						t.Fatalf("token %v outside sentence %v", tok, s)
					}
					if tok.Term == "" || !utf8.ValidString(tok.Term) {
						t.Fatalf("bad term %q", tok.Term)
					}
					if !norm.NFC.IsNormalString(tok.Term) && a.cfg.Stemmer == StemNone {
						t.Fatalf("term %q is not NFC", tok.Term)
					}
					if a.TermOf(tok.ID) != tok.Term {
						t.Fatalf("ID %d maps to %q, not %q", tok.ID, a.TermOf(tok.ID), tok.Term)
					}
					n++
				}
			}
			if n != len(d.Tokens) {
				t.Fatalf("sentences hold %d tokens, document %d", n, len(d.Tokens))
			}
			want := slices.Clone(d.Tokens)
			if got := a.Tokens(text); !slices.Equal(got, want) {
				t.Fatalf("Tokens = %v, Analyze's tokens %v", got, want)
			}
			// Folding is idempotent: analysing the terms again yields them.
			if a.cfg.Stemmer == StemNone && !a.cfg.RemoveStopwords {
				for _, tok := range d.Tokens {
					if strings.ContainsAny(tok.Term, "'.,") {
						continue // joined forms re-split differently
					}
					term, ok := a.Term(tok.Term)
					if !ok || term != tok.Term {
						t.Fatalf("folding %q again gives %q", tok.Term, term)
					}
				}
			}
		}
	})
}

func FuzzSentences(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		for _, l := range []language.Tag{language.Turkish, language.English} {
			prev := 0
			for sp := range Sentences(text, l) {
				if sp.Start < prev || sp.End > len(text) || sp.Start >= sp.End {
					t.Fatalf("bad span %v after %d in %q", sp, prev, text)
				}
				prev = sp.End
			}
			// Every word lies inside some sentence.
			for w := range Words(text) {
				inside := false
				for sp := range Sentences(text, l) {
					if w.Start >= sp.Start && w.End <= sp.End {
						inside = true
						break
					}
				}
				if !inside {
					t.Fatalf("word %q at %v is in no sentence of %q", text[w.Start:w.End], w, text)
				}
			}
		}
	})
}

// watchdog panics, naming the input, if the call it guards runs for more
// than 10 seconds: the fuzzer does not report hangs by itself.
func watchdog(text string) (stop func()) {
	t := time.AfterFunc(10*time.Second, func() { panic(fmt.Sprintf("hang on input %q", text)) })
	return func() { t.Stop() }
}
