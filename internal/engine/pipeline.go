package engine

import (
	"fmt"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/textproc"
)

// Pipeline returns the textproc.Config for lang (parsed by
// textproc.ParseLanguage: "" is language-neutral), stopwords removed unless
// keepStopwords, the stemmer st (textproc.StemDefault means def), and
// prefixLen (0 means textproc.DefaultPrefixLen; the returned
// Config.PrefixLen is filled in either way). Errors name the field and the
// constraint and wrap detector.ErrInvalidConfig; callers prefix their
// package name.
func Pipeline(lang string, keepStopwords bool, st, def textproc.Stemmer, prefixLen int) (textproc.Config, error) {
	var tc textproc.Config
	tag, err := textproc.ParseLanguage(lang)
	if err != nil {
		return tc, err
	}
	st, err = st.Resolve(def)
	if err != nil {
		return tc, err
	}
	if prefixLen < 0 {
		return tc, fmt.Errorf("PrefixLen (%d) must be ≥ 0: %w", prefixLen, detector.ErrInvalidConfig)
	}
	if prefixLen == 0 {
		prefixLen = textproc.DefaultPrefixLen
	}
	return textproc.Config{Language: tag, RemoveStopwords: !keepStopwords, Stemmer: st, PrefixLen: prefixLen}, nil
}
