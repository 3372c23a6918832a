package textproc

import (
	"testing"

	"golang.org/x/text/language"
)

// FuzzContentFilter checks the filter's spans: in order, inside the text,
// never empty for a non-empty text, on block boundaries, and the Analyzer's
// tokens and sentences inside them.
func FuzzContentFilter(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Add("Home | News\n\nThe minister said on Monday that the talks would go on for as long as it takes to reach a deal.\n\nMenu")
	f.Add("a\n\n\n\nb b b b b b b b b b b. the of and\n \n\xff\n\n")
	langs := []language.Tag{language.English, language.Turkish, language.Und}
	filters := make([]*ContentFilter, len(langs))
	analyzers := make([]*Analyzer, len(langs))
	for i, l := range langs {
		filters[i] = NewContentFilter(l)
		cfg := FullConfig(l)
		cfg.Content = ContentMain
		a, err := NewAnalyzer(cfg)
		if err != nil {
			f.Fatal(err)
		}
		analyzers[i] = a
	}
	f.Fuzz(func(t *testing.T, text string) {
		defer watchdog(text)()
		for i, flt := range filters {
			spans := flt.Spans(nil, text)
			if len(text) > 0 && len(spans) == 0 {
				t.Fatalf("no span for a non-empty text")
			}
			prev := -1
			for _, s := range spans {
				if s.Start <= prev || s.End > len(text) || s.Start >= s.End {
					t.Fatalf("bad span %v after %d (len %d)", s, prev, len(text))
				}
				prev = s.End
			}
			d := analyzers[i].Analyze(text)
			in := func(a, b int) bool {
				for _, s := range spans {
					if a >= s.Start && b <= s.End {
						return true
					}
				}
				return false
			}
			for _, s := range d.Sentences {
				if !in(s.Start, s.End) {
					t.Fatalf("sentence %d-%d outside the content spans %v", s.Start, s.End, spans)
				}
			}
			for _, tok := range d.Tokens {
				if !in(tok.Start, tok.End) {
					t.Fatalf("token %q outside the content spans %v", tok.Term, spans)
				}
			}
		}
	})
}
