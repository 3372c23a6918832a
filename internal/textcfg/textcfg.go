// Package textcfg turns the text-pipeline fields that detector Configs share
// (Language as a BCP 47 string, stopword removal, first-N stemming) into a
// textproc.Config, with one set of validation rules and error messages.
package textcfg

import (
	"fmt"

	"golang.org/x/text/language"

	"github.com/seed-9ef9c1df/neardup/textproc"
)

// Pipeline returns the textproc.Config for lang ("" is language-neutral),
// stopwords removed unless keepStopwords, and first-prefixLen stemming when
// stem (prefixLen 0 means textproc.DefaultPrefixLen; the returned
// Config.PrefixLen is filled in either way). Errors name the field and the
// constraint; callers prefix their package and wrap detector.ErrInvalidConfig.
func Pipeline(lang string, keepStopwords, stem bool, prefixLen int) (textproc.Config, error) {
	var tc textproc.Config
	if lang != "" {
		tag, err := language.Parse(lang)
		if err != nil {
			return tc, fmt.Errorf("Language (%q) is not a BCP 47 tag", lang)
		}
		tc.Language = tag
	}
	if prefixLen < 0 {
		return tc, fmt.Errorf("PrefixLen (%d) must be ≥ 0", prefixLen)
	}
	if prefixLen == 0 {
		prefixLen = textproc.DefaultPrefixLen
	}
	tc.RemoveStopwords = !keepStopwords
	tc.PrefixLen = prefixLen
	if stem {
		tc.Stemmer = textproc.StemPrefix
	}
	return tc, nil
}
