package textproc

import (
	"fmt"

	"golang.org/x/text/language"

	"github.com/seed-9ef9c1df/neardup/detector"
)

// ParseLanguage parses the Language field of a detector Config: a BCP 47
// tag such as "en", "tr" or "zh-Hant". The empty string is the zero tag,
// language-neutral text (see [RuleSet]). Every detector of the module
// parses its Language with this function, so every Config has the same
// default ("" is neutral) and the same error, which names the field and
// wraps [detector.ErrInvalidConfig]; callers prefix their package name.
//
// Any valid tag is accepted: a language without rules of its own (German,
// Chinese, Japanese, ...) is processed as neutral text.
func ParseLanguage(s string) (language.Tag, error) {
	if s == "" {
		return language.Und, nil
	}
	tag, err := language.Parse(s)
	if err != nil {
		return language.Und, fmt.Errorf("Language (%q) is not a BCP 47 tag: %w", s, detector.ErrInvalidConfig)
	}
	return tag, nil
}

// RuleSet names the language rules textproc has for tag: "tr" for Turkish
// and Azerbaijani (dotted and dotless i, apostrophe suffixes, the stopwords
// of Varol 2012 Table 2.1, Turkish abbreviations and ordinals), "en" for
// English and its regional variants (possessive "'s", the Snowball
// stopwords, English abbreviations), and "" for every other tag and the
// zero tag: language-neutral text (Unicode default lower-casing, no
// stopwords, apostrophes kept inside words, the union of the abbreviation
// lists). Scripts written without spaces between words are tokenised into
// character bigrams under every rule set (see [Analyzer]).
func RuleSet(tag language.Tag) string {
	// The zero tag (und) guesses "en" with Low confidence: neutral, not
	// English.
	b, conf := tag.Base()
	if conf < language.High {
		return ""
	}
	switch b.String() {
	case "tr", "az":
		return "tr"
	case "en":
		return "en"
	}
	return ""
}
