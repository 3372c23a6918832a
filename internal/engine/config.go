package engine

import (
	"cmp"
	"fmt"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/textproc"
)

// Defaults fills in the zero values of the Config fields every detector
// has besides Language: a content of ContentDefault becomes def (the
// detector's measured default), maxText detector.DefaultMaxTextBytes and
// maxResults detector.DefaultMaxResults.
func Defaults(content *textproc.Content, def textproc.Content, maxText, maxResults *int) {
	*content = cmp.Or(*content, def)
	*maxText = cmp.Or(*maxText, detector.DefaultMaxTextBytes)
	*maxResults = cmp.Or(*maxResults, detector.DefaultMaxResults)
}

// CheckLimits checks the fields [Defaults] fills in, once filled in:
// MaxTextBytes and MaxResults not negative, Content defined. Its error names
// the first field out of range; callers prefix their package name and wrap
// detector.ErrInvalidConfig.
func CheckLimits(content textproc.Content, maxText, maxResults int) error {
	switch {
	case maxText < 0:
		return fmt.Errorf("MaxTextBytes (%d) must be ≥ 0", maxText)
	case maxResults < 0:
		return fmt.Errorf("MaxResults (%d) must be ≥ 0", maxResults)
	case !content.Valid():
		return fmt.Errorf("Content (%d) must be ContentDefault, ContentAll or ContentMain", content)
	}
	return nil
}

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

// Resolve returns c with its defaults filled in (setDefaults), checked
// (validate), and the text pipeline validate selects: how a detector
// resolves its Config. On error it returns c with its defaults and the
// zero pipeline.
func Resolve[C any](c C, setDefaults func(*C), validate func(C) (textproc.Config, error)) (C, textproc.Config, error) {
	setDefaults(&c)
	tc, err := validate(c)
	if err != nil {
		return c, textproc.Config{}, err
	}
	return c, tc, nil
}
