package tweezer

import (
	"cmp"
	"fmt"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/engine"
	"github.com/seed-9ef9c1df/neardup/internal/enum"
	"github.com/seed-9ef9c1df/neardup/textproc"
)

// DefaultContext is the number of words taken before (p) and after (s) each
// named entity: "we used five for p and s values", the point where the
// number of detected duplicates stabilises (Uyar 2009 §4.1, Table 4.1:
// 5NE5 1,083, 6NE6 and 7NE7 1,082).
const DefaultContext = 5

// DefaultFallbackWords is the number of words taken from each end of a
// document without named entities: "Tweezer uses first and last twenty
// words of a document ... If the document size is smaller than forty words,
// whole of the document is used" (Uyar 2009 §4.2).
const DefaultFallbackWords = 20

// Default thresholds of the set modes. Empirical, chosen on the
// development part of the SpotSigs Gold Set (Theobald, Siddharth, Paepcke,
// SIGIR 2008; the only labelled English set, so there is no held-out
// figure): among 0.02, 0.04, ..., 0.15 they give the best strict
// pair-level F1 with 5NE5 shingles (docs/tweezer.md in the repository). They are low because the Gold Set
// pages keep their navigation: two copies of a story on different sites
// share only the shingles of the story itself.
const (
	DefaultJaccardThreshold = 0.02
	DefaultOverlapThreshold = 0.06
)

// Mode selects how documents are compared.
type Mode int

const (
	// Overlap treats the NE shingles as features and compares them by the
	// overlap coefficient |A ∩ B| / min(|A|, |B|): documents reaching
	// Config.Threshold, with Config.MinOverlap shared shingles of evidence,
	// are near-duplicates, Score = the coefficient. An extension, not in
	// the thesis; the default, chosen by the defaults procedure (see the
	// package doc).
	Overlap Mode = iota
	// Exact is Tweezer as published (Uyar 2009 Fig. 4.2): documents whose
	// signature digests are equal are near-duplicates, Score 1.
	Exact
	// Jaccard is Overlap with the Jaccard similarity |A ∩ B| / |A ∪ B| in
	// place of the overlap coefficient.
	Jaccard
)

// String returns "Overlap", "Exact", "Jaccard" or "Mode(n)".
func (m Mode) String() string {
	return enum.String("Mode", int(m), "Overlap", "Exact", "Jaccard")
}

// Config configures a [Signer] and a [Detector]. The zero value is Tweezer's
// 5NE5 shingles over the document's word stream (Uyar 2009), compared by
// overlap with evidence ([Overlap]); Mode [Exact] is the exact digest
// matching of the thesis.
type Config struct {
	// Language is a BCP 47 tag, parsed as every detector's Language is
	// (textproc.ParseLanguage; "" is language-neutral). It selects the
	// named-entity recogniser of package ner, which has rules and
	// gazetteers for two languages only: English ones for English
	// (textproc.RuleSet "en"), and TuNER's Turkish ones, as published
	// (Uyar 2009), for Turkish and for every other language, "" included;
	// the main-content filter ([Config].Content) reads the language itself
	// (neutral for ""). In a script without capital letters (Chinese,
	// Japanese, Thai, ...) no entity is found, and a document is signed by
	// its FallbackWords opening and closing words (in those scripts each
	// character is a word).
	Language string
	// Prefix and Suffix are p and s, the words kept before and after each
	// entity, at most MaxContext; zero means DefaultContext.
	Prefix, Suffix int
	// ClipSentences stops context windows at the entity's sentence. The
	// thesis does not say; by default windows run over the document's word
	// stream across sentence ends (its Fig. 4.1 fits both readings).
	ClipSentences bool
	// FallbackWords is the number of words taken from each end of a
	// document with no entity, at most MaxContext; zero means
	// DefaultFallbackWords.
	FallbackWords int
	// Mode selects a set similarity (Overlap, the default) or exact
	// digests as published (Exact).
	Mode Mode
	// Threshold is the least similarity reported in Jaccard and Overlap
	// mode, in (0, 1]; zero means DefaultJaccardThreshold or
	// DefaultOverlapThreshold. Ignored in Exact mode.
	Threshold float64
	// MinOverlap is the evidence a pair needs beyond Threshold in the
	// Jaccard and Overlap modes: at least MinOverlap shared shingles, or 80%
	// of the smaller signature's when it has fewer than MinOverlap/0.8.
	// Wire notices written from one template share their few entities
	// and the words around them. Zero means DefaultMinOverlap; 1 turns the
	// rule off.
	MinOverlap int
	// Content selects the part of each text that is read: its main-content
	// blocks (textproc.ContentMain: navigation, menus and other
	// boilerplate blocks skipped, see textproc.ContentFilter) or the whole
	// text (textproc.ContentAll); zero means DefaultContent.
	Content textproc.Content
	// MaxTextBytes caps Doc.Text; zero means detector.DefaultMaxTextBytes.
	MaxTextBytes int
	// MaxResults caps the matches Add, Containers and Query return (the
	// strongest, by detector.SortMatches); zero means
	// detector.DefaultMaxResults. Copies and Cluster are not capped.
	MaxResults int
}

// DefaultMinOverlap is the default Config.MinOverlap, chosen by the
// defaults procedure (see the package doc).
const DefaultMinOverlap = 2

// DefaultContent is the part of a text read by default: the main content,
// boilerplate blocks skipped (textproc.ContentFilter).
const DefaultContent = textproc.ContentMain

// MaxContext bounds Prefix, Suffix and FallbackWords. Context windows read
// up to 2·MaxContext·4096 bytes before an entity, which must not overflow an
// int; no one needs windows of more than 65,536 words (the thesis uses 5).
const MaxContext = 1 << 16

// MaxMinOverlap bounds MinOverlap: a pair can share at most as many
// shingles as a document has entities, far fewer in any text Add accepts.
const MaxMinOverlap = 1 << 20

// setDefaults replaces every zero field that has a default with it. It
// leaves invalid values for validate.
func (cfg *Config) setDefaults() {
	cfg.Prefix = cmp.Or(cfg.Prefix, DefaultContext)
	cfg.Suffix = cmp.Or(cfg.Suffix, DefaultContext)
	cfg.FallbackWords = cmp.Or(cfg.FallbackWords, DefaultFallbackWords)
	if cfg.Threshold == 0 {
		switch cfg.Mode {
		case Jaccard:
			cfg.Threshold = DefaultJaccardThreshold
		case Overlap:
			cfg.Threshold = DefaultOverlapThreshold
		}
	}
	cfg.MinOverlap = cmp.Or(cfg.MinOverlap, DefaultMinOverlap)
	engine.Defaults(&cfg.Content, DefaultContent, &cfg.MaxTextBytes, &cfg.MaxResults)
}

// validate checks a Config whose defaults are filled in: its error wraps
// detector.ErrInvalidConfig and names the first field out of range.
func (cfg Config) validate() error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("tweezer: "+format+": %w", append(args, detector.ErrInvalidConfig)...)
	}
	if _, err := textproc.ParseLanguage(cfg.Language); err != nil {
		return fmt.Errorf("tweezer: %w", err)
	}
	switch {
	case cfg.Prefix < 0 || cfg.Prefix > MaxContext:
		return bad("Prefix (%d) must be in [0, %d]", cfg.Prefix, MaxContext)
	case cfg.Suffix < 0 || cfg.Suffix > MaxContext:
		return bad("Suffix (%d) must be in [0, %d]", cfg.Suffix, MaxContext)
	case cfg.FallbackWords < 1 || cfg.FallbackWords > MaxContext:
		return bad("FallbackWords (%d) must be in [1, %d]", cfg.FallbackWords, MaxContext)
	case cfg.Mode != Exact && cfg.Mode != Jaccard && cfg.Mode != Overlap:
		return bad("unknown Mode %d", int(cfg.Mode))
	case cfg.Mode != Exact && !(cfg.Threshold > 0 && cfg.Threshold <= 1):
		return bad("Threshold (%v) must be in (0, 1]", cfg.Threshold)
	case cfg.Mode == Exact && !(cfg.Threshold >= 0 && cfg.Threshold <= 1):
		return bad("Threshold (%v) must be in [0, 1] (it is ignored in Exact mode)", cfg.Threshold)
	case cfg.MinOverlap < 1 || cfg.MinOverlap > MaxMinOverlap:
		return bad("MinOverlap (%d) must be in [1, %d]", cfg.MinOverlap, MaxMinOverlap)
	}
	if err := engine.CheckLimits(cfg.Content, cfg.MaxTextBytes, cfg.MaxResults); err != nil {
		return bad("%v", err)
	}
	return nil
}
