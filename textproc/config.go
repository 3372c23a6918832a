package textproc

import (
	"cmp"
	"fmt"

	"golang.org/x/text/language"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/enum"
)

// DefaultPrefixLen is the length, in runes, of the first-N prefix stemmer:
// "first-5 characters of each word is treated as its root. Words with less
// than 5 characters are not reduced at all" (Varol 2012 §2.1.1, after Can et
// al. 2008).
const DefaultPrefixLen = 5

// Stemmer selects how terms are reduced to stems. It is the one stemming
// type of the module: every detector Config that stems has a Stemmer field
// of this type.
type Stemmer int

const (
	// StemDefault, the zero value, is the default of whatever is being
	// configured: no stemming for a [Config], and each detector's documented
	// default for its Config (first-N prefix stemming for the detectors that
	// follow Varol 2012 §5.1).
	StemDefault Stemmer = iota
	// StemNone keeps every term whole.
	StemNone
	// StemPrefix truncates every term to its first PrefixLen runes (Varol
	// 2012 §2.1.1, "first-5"). Terms of scripts written without spaces,
	// which are character bigrams, are never truncated.
	StemPrefix
)

// String returns "StemDefault", "StemNone", "StemPrefix" or "Stemmer(n)".
func (s Stemmer) String() string {
	return enum.String("Stemmer", int(s), "StemDefault", "StemNone", "StemPrefix")
}

// Resolve returns s with StemDefault replaced by def, or an error naming the
// field, wrapping [detector.ErrInvalidConfig], for a value that is not a
// Stemmer. Detectors use it to validate their Config.Stemmer.
func (s Stemmer) Resolve(def Stemmer) (Stemmer, error) {
	switch s {
	case StemDefault:
		if def == StemDefault {
			def = StemNone
		}
		return def.Resolve(StemNone)
	case StemNone, StemPrefix:
		return s, nil
	}
	return s, fmt.Errorf("Stemmer (%d) must be StemDefault (0), StemNone (1) or StemPrefix (2): %w", int(s), detector.ErrInvalidConfig)
}

// Config configures an [Analyzer]. The zero value analyses language-neutral
// text, tokenises and lower-cases only: no stopword removal, no stemming.
type Config struct {
	// Language selects case-folding rules, the apostrophe rule, the stopword
	// list and sentence abbreviations ([RuleSet]). language.Turkish and
	// language.English (and their regional variants) have full support; any
	// other tag, and the zero tag, get the neutral default (Unicode
	// lower-casing, no stopwords, apostrophes kept inside words). A
	// language without a stopword list (German, Chinese, Japanese, ...) is
	// accepted and processed as neutral text.
	Language language.Tag
	// RemoveStopwords drops the language's stopwords (see [Stopwords]).
	RemoveStopwords bool
	// Stemmer selects the stemmer; zero (StemDefault) is StemNone.
	Stemmer Stemmer
	// PrefixLen is the prefix length for StemPrefix; zero means
	// DefaultPrefixLen.
	PrefixLen int
	// Content selects the part of a text that is analysed: the whole text
	// (ContentDefault, ContentAll) or its main-content blocks (ContentMain,
	// see [ContentFilter]). Tokens and sentences keep their offsets into
	// the whole text either way.
	Content Content
}

// FullConfig returns the configuration of Varol 2012 §2.1 and §5.1 for lang:
// stopwords removed and first-5 stemming, the preprocessing every detector of
// the CoDet study used.
func FullConfig(lang language.Tag) Config {
	return Config{Language: lang, RemoveStopwords: true, Stemmer: StemPrefix, PrefixLen: DefaultPrefixLen}
}

// setDefaults returns c with every zero field that has a default replaced
// by it: StemDefault by StemNone, PrefixLen 0 by [DefaultPrefixLen] and
// ContentDefault by ContentAll. It checks nothing; [Config.validate] does.
func (c Config) setDefaults() Config {
	if c.Stemmer == StemDefault {
		c.Stemmer = StemNone
	}
	c.PrefixLen = cmp.Or(c.PrefixLen, DefaultPrefixLen)
	if c.Content == ContentDefault {
		c.Content = ContentAll
	}
	return c
}

// validate checks a Config after setDefaults. Its errors name the field
// and wrap [detector.ErrInvalidConfig].
func (c Config) validate() error {
	if _, err := c.Stemmer.Resolve(StemNone); err != nil {
		return fmt.Errorf("textproc: %w", err)
	}
	if c.PrefixLen < 0 {
		return fmt.Errorf("textproc: PrefixLen (%d) must be ≥ 0: %w", c.PrefixLen, detector.ErrInvalidConfig)
	}
	if !c.Content.Valid() {
		return fmt.Errorf("textproc: Content (%d) must be ContentDefault (0), ContentAll (1) or ContentMain (2): %w", c.Content, detector.ErrInvalidConfig)
	}
	return nil
}
