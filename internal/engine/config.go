package engine

import (
	"fmt"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/textproc"
)

// Shared is the Config block every detector has; a detector copies its
// Config's fields of these names into it to fill in their defaults and
// check them.
type Shared struct {
	Language     string
	Content      textproc.Content
	MaxTextBytes int
	MaxResults   int
}

// SetDefaults fills in the zero fields: Content becomes def (the
// detector's measured default), MaxTextBytes
// detector.DefaultMaxTextBytes, MaxResults detector.DefaultMaxResults.
func (s *Shared) SetDefaults(def textproc.Content) {
	DefaultLimits(&s.Content, def, &s.MaxTextBytes)
	if s.MaxResults == 0 {
		s.MaxResults = detector.DefaultMaxResults
	}
}

// CheckLanguage returns an error naming the field and wrapping
// detector.ErrInvalidConfig, prefixed with name, when Language is not a
// BCP 47 tag (textproc.ParseLanguage; "" is language-neutral).
func (s Shared) CheckLanguage(name string) error {
	if _, err := textproc.ParseLanguage(s.Language); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}

// CheckLimits checks the fields of a Shared whose defaults are filled in:
// MaxTextBytes and MaxResults positive, Content defined. Its error names
// the first field out of range, is prefixed with name and wraps
// detector.ErrInvalidConfig.
func (s Shared) CheckLimits(name string) error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%s: "+format+": %w", append([]any{name}, append(args, detector.ErrInvalidConfig)...)...)
	}
	switch {
	case s.MaxTextBytes < 1:
		return bad("MaxTextBytes (%d) must be ≥ 0", s.MaxTextBytes)
	case s.MaxResults < 1:
		return bad("MaxResults (%d) must be ≥ 0", s.MaxResults)
	}
	if _, err := Content(s.Content, s.Content); err != nil {
		return bad("%v", err)
	}
	return nil
}

// Content resolves a detector Config's Content field: ContentDefault becomes
// def, the detector's measured default; an undefined value is an error
// naming the field (callers prefix their package and wrap
// detector.ErrInvalidConfig).
func Content(c, def textproc.Content) (textproc.Content, error) {
	if !c.Valid() {
		return c, fmt.Errorf("Content (%d) must be ContentDefault, ContentAll or ContentMain", c)
	}
	if c == textproc.ContentDefault {
		return def, nil
	}
	return c, nil
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

// DefaultLimits fills in the zero values of the fields [Limits] checks:
// ContentDefault becomes def, and a maxText of 0
// detector.DefaultMaxTextBytes.
func DefaultLimits(content *textproc.Content, def textproc.Content, maxText *int) {
	if *content == textproc.ContentDefault {
		*content = def
	}
	if *maxText == 0 {
		*maxText = detector.DefaultMaxTextBytes
	}
}

// Limits checks the fields a detector Config shares after its text
// pipeline, maxText (MaxTextBytes, which must be ≥ 0) and content (see
// [Content]), and sets tc.Content to content. Errors name the field
// (callers prefix their package and wrap detector.ErrInvalidConfig).
func Limits(tc *textproc.Config, content, def textproc.Content, maxText int) error {
	if maxText < 0 {
		return fmt.Errorf("MaxTextBytes (%d) must be ≥ 0", maxText)
	}
	if _, err := Content(content, def); err != nil {
		return err
	}
	tc.Content = content
	return nil
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
