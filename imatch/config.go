package imatch

import (
	"cmp"
	"fmt"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/engine"
	"github.com/seed-9ef9c1df/neardup/textproc"
)

// Defaults. A zero Config field takes the constant of the same name.
const (
	// DefaultSkip is the number of highest-idf terms SelectRank drops:
	// "First two words with the highest idf values are ignored since they
	// are likely to be misspellings" (Varol 2012 §4.1.3).
	DefaultSkip = 2
	// DefaultKeep is the number of terms SelectRank keeps after the skipped
	// ones: "ten words with the highest idf values are used to create a
	// fingerprint" (Varol 2012 §4.1.3).
	DefaultKeep = 10
	// DefaultBandLow and DefaultBandHigh bound the normalised idf of the
	// terms SelectBand keeps, nidf = ln((N+1)/df) / ln(N+1): the I-Match mode
	// of the SpotSigs release (Theobald et al. 2008), also the idf band of
	// Alonso et al. 2013 §4.1.
	DefaultBandLow  = 0.2
	DefaultBandHigh = 0.85
	// DefaultMinTerms is the fewest selected terms a signature needs; a
	// document with fewer gets none under that lexicon, so that near-empty
	// documents do not all collide (not in the papers; the value is our
	// choice).
	DefaultMinTerms = 5
	// DefaultLexiconKeep is the fraction of the lexicon each random
	// sub-lexicon keeps (FreeDiscovery's rand_lexicon_ratio = 0.7; Kołcz et
	// al. 2004 do not state theirs).
	DefaultLexiconKeep = 0.7
	// DefaultPrefixLen is the first-N stemming length (Varol 2012 §2.1.1).
	DefaultPrefixLen = textproc.DefaultPrefixLen
)

// Selection says which terms of a document enter its signature.
type Selection int

const (
	// SelectRank ranks the document's unique terms by idf, highest first,
	// drops the first Skip and keeps the next Keep (Varol 2012 §4.1.3,
	// Varol et al. 2011 §4): CoDet's adaptation of I-Match. The default.
	SelectRank Selection = iota
	// SelectBand keeps every unique term whose normalised idf lies in
	// [BandLow, BandHigh]: the collection-statistics lexicon of I-Match
	// (Chowdhury et al. 2002) with the cut-offs of the SpotSigs release.
	SelectBand
)

// Encoding says how the sorted terms are serialised before hashing.
type Encoding int

const (
	// EncodeLengthPrefixed writes each term as a uvarint length and its
	// bytes: no two term lists encode alike. The default.
	EncodeLengthPrefixed Encoding = iota
	// EncodeConcat concatenates the terms with no separator, as the
	// SpotSigs release does ("ab"+"c" and "a"+"bc" collide): for fidelity
	// experiments only.
	EncodeConcat
)

// Config configures I-Match. The zero value is CoDet's adaptation (Varol 2012
// §4.1.3) over language-neutral text: stopword removal (where the language
// has a list), first-5 stemming, rank selection skipping 2 and keeping 10
// terms, no lexicon randomisation, length-prefixed encoding.
type Config struct {
	// Language is a BCP 47 tag ("en", "tr", ...) selecting case folding,
	// stopwords and sentence rules; "" is language-neutral, as is any
	// language without rules of its own (textproc.RuleSet).
	Language string
	// KeepStopwords keeps the language's stopwords (Varol 2012 §2.1 removes
	// them).
	KeepStopwords bool
	// Stemmer selects the stemmer; zero (textproc.StemDefault) is
	// textproc.StemPrefix, first-N stemming (Varol 2012 §2.1.1, the
	// preprocessing of every detector in its §5.1). Terms of scripts
	// written without spaces (character bigrams) are never cut.
	Stemmer textproc.Stemmer
	// PrefixLen is the StemPrefix length; 0 means DefaultPrefixLen.
	PrefixLen int

	// Selection picks the term selection rule (default SelectRank).
	Selection Selection
	// Skip is how many highest-idf terms SelectRank drops; 0 means
	// DefaultSkip, a negative value drops none. At most 2^20.
	Skip int
	// Keep is how many terms SelectRank keeps; 0 means DefaultKeep. At
	// most 2^20.
	Keep int
	// BandLow and BandHigh bound SelectBand's normalised idf; 0 means
	// DefaultBandLow and DefaultBandHigh.
	BandLow, BandHigh float64
	// MinTerms is the fewest selected terms a signature needs; 0 means
	// DefaultMinTerms.
	MinTerms int

	// Lexicons is the number K of extra random sub-lexicons (Kołcz et al.
	// 2004): each document gets K+1 digests and two documents match when
	// any of them agree. 0 is plain I-Match.
	Lexicons int
	// LexiconKeep is the fraction of terms each random sub-lexicon keeps;
	// 0 means DefaultLexiconKeep.
	LexiconKeep float64
	// Seed derives the random sub-lexicons.
	Seed uint64

	// Encoding serialises the sorted terms (default EncodeLengthPrefixed).
	Encoding Encoding
	// Content selects the part of each text that is read: its main-content
	// blocks (textproc.ContentMain: navigation, menus and other
	// boilerplate blocks skipped, see textproc.ContentFilter) or the whole
	// text (textproc.ContentAll); zero means DefaultContent.
	Content textproc.Content
	// MaxTextBytes is the largest text Add accepts; 0 means
	// detector.DefaultMaxTextBytes.
	MaxTextBytes int
	// MaxResults is the most matches Add, Containers and Query return (the
	// strongest first, by detector.SortMatches: ties go to the smallest
	// IDs); 0 means detector.DefaultMaxResults, a negative value is
	// rejected. Exact copies beyond the cap are listed by
	// [Detector.Copies].
	MaxResults int
}

// DefaultContent is the part of a text read by default: the main content,
// boilerplate blocks skipped (textproc.ContentFilter).
const DefaultContent = textproc.ContentMain

// maxLexicons bounds Config.Lexicons: each lexicon costs one digest per
// document.
const maxLexicons = 1024

// maxRank bounds Skip and Keep: SelectRank keeps its candidates in an
// array of Skip+Keep terms, and no document has a million distinct terms
// worth ranking.
const maxRank = 1 << 20

// setDefaults fills every zero field that has a default, and maps a
// negative Skip (drop none) to -1. It does not check anything: validate
// does, on the result.
func (c *Config) setDefaults() {
	if c.Stemmer == textproc.StemDefault {
		c.Stemmer = textproc.StemPrefix
	}
	c.PrefixLen = cmp.Or(c.PrefixLen, DefaultPrefixLen)
	switch {
	case c.Skip == 0:
		c.Skip = DefaultSkip
	case c.Skip < 0:
		c.Skip = -1
	}
	c.Keep = cmp.Or(c.Keep, DefaultKeep)
	c.BandLow = cmp.Or(c.BandLow, DefaultBandLow)
	c.BandHigh = cmp.Or(c.BandHigh, DefaultBandHigh)
	c.MinTerms = cmp.Or(c.MinTerms, DefaultMinTerms)
	c.LexiconKeep = cmp.Or(c.LexiconKeep, DefaultLexiconKeep)
	engine.Defaults(&c.Content, DefaultContent, &c.MaxTextBytes, &c.MaxResults)
}

// validate checks a Config after setDefaults and returns the text pipeline
// it selects. Errors name the field and wrap detector.ErrInvalidConfig.
func (c Config) validate() (textproc.Config, error) {
	bad := func(format string, args ...any) (textproc.Config, error) {
		return textproc.Config{}, fmt.Errorf("imatch: "+format+": %w", append(args, detector.ErrInvalidConfig)...)
	}
	tc, err := engine.Pipeline(c.Language, c.KeepStopwords, c.Stemmer, textproc.StemPrefix, c.PrefixLen)
	if err != nil {
		return textproc.Config{}, fmt.Errorf("imatch: %w", err)
	}
	if c.Selection != SelectRank && c.Selection != SelectBand {
		return bad("Selection (%d) must be SelectRank (0) or SelectBand (1)", c.Selection)
	}
	if c.Skip > maxRank {
		return bad("Skip (%d) must be at most %d", c.Skip, maxRank)
	}
	if c.Keep < 0 || c.Keep > maxRank {
		return bad("Keep (%d) must be in [0, %d]", c.Keep, maxRank)
	}
	if !(c.BandLow >= 0 && c.BandLow <= c.BandHigh && c.BandHigh <= 1) {
		return bad("BandLow (%g) and BandHigh (%g) must satisfy 0 ≤ BandLow ≤ BandHigh ≤ 1", c.BandLow, c.BandHigh)
	}
	if c.MinTerms < 0 {
		return bad("MinTerms (%d) must be ≥ 0", c.MinTerms)
	}
	if c.Selection == SelectRank && c.MinTerms > c.Keep {
		return bad("MinTerms (%d) must not exceed Keep (%d)", c.MinTerms, c.Keep)
	}
	if c.Lexicons < 0 || c.Lexicons > maxLexicons {
		return bad("Lexicons (%d) must be in [0, %d]", c.Lexicons, maxLexicons)
	}
	if !(c.LexiconKeep > 0 && c.LexiconKeep <= 1) {
		return bad("LexiconKeep (%g) must be in (0, 1]", c.LexiconKeep)
	}
	if c.Encoding != EncodeLengthPrefixed && c.Encoding != EncodeConcat {
		return bad("Encoding (%d) must be EncodeLengthPrefixed (0) or EncodeConcat (1)", c.Encoding)
	}
	if err := engine.CheckLimits(c.Content, c.MaxTextBytes, c.MaxResults); err != nil {
		return bad("%v", err)
	}
	tc.Content = c.Content
	return tc, nil
}

// resolve returns cfg with its defaults filled in (setDefaults), checked
// (validate), and the text pipeline it selects.
func (cfg Config) resolve() (Config, textproc.Config, error) {
	return engine.Resolve(cfg, (*Config).setDefaults, Config.validate)
}

// skip returns the number of terms SelectRank drops.
func (cfg Config) skip() int { return max(cfg.Skip, 0) }
