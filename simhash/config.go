package simhash

import (
	"cmp"
	"fmt"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/engine"
	"github.com/seed-9ef9c1df/neardup/textproc"
)

// Defaults. A zero Config field takes the constant of the same name.
const (
	// DefaultK is the largest Hamming distance reported: Manku, Jain, Das
	// Sarma 2007 §3 chose k = 3 for 64-bit fingerprints; Varol 2012 §4.1.4
	// uses "Hamming distance less than three" (k = 2).
	DefaultK = 3
	// DefaultSkipTop is the number of highest-idf features dropped: "First
	// two words with the highest idf values are ignored" (Varol 2012
	// §4.1.4).
	DefaultSkipTop = 2
	// DefaultWordN is the n of FeatureWordNGrams (word 3-grams).
	DefaultWordN = 3
	// DefaultCharN is the n of FeatureCharNGrams (character 4-grams, the
	// width of the Python simhash package).
	DefaultCharN = 4
	// DefaultSpotN is the chain length of FeatureSpots: 1, the
	// CHAIN_LENGTH of the SpotSigs release configuration (Theobald et al.
	// 2008), also the best of 1, 2 and 3 on the Gold Set pages we measured
	// (docs/simhash.md).
	DefaultSpotN = 1
	// DefaultPrefixLen is the first-N stemming length (Varol 2012 §2.1.1).
	DefaultPrefixLen = textproc.DefaultPrefixLen
	// MaxK is the largest K a Config accepts: at 64 every fingerprint is a
	// neighbour of every other.
	MaxK = 64
)

// Features selects what a document's features are.
type Features int

const (
	// FeatureWords uses the document's terms ("each unique term of a
	// document is hashed", Varol 2012 §4.1.4). The default.
	FeatureWords Features = iota
	// FeatureWordNGrams uses runs of N consecutive terms (word shingles).
	FeatureWordNGrams
	// FeatureCharNGrams uses runs of N characters of the analysed text (the
	// terms joined by one space).
	FeatureCharNGrams
	// FeatureSpots uses spot signatures (Theobald, Siddharth, Paepcke,
	// SIGIR 2008): after every stopword (the antecedent), the chain of the
	// next N non-stopwords; the antecedent itself is not part of the
	// feature, as in the SpotSigs release. Boilerplate (menus, link lists)
	// has few stopwords, prose many, so these features describe the story
	// rather than the page template. Needs a Language with a stopword list;
	// stopwords are kept for anchoring whatever KeepStopwords says.
	FeatureSpots
)

// Weights selects each feature's weight w in V_i ± w.
type Weights int

const (
	// WeightTFIDF (0, the default) weighs each feature by its count in the
	// document times its idf. Over idf alone it raises every figure the
	// defaults were chosen on (Gold Set pair F1 0.080 to 0.145, MAP 0.852
	// to 0.892; docs/simhash.md in the repository).
	WeightTFIDF Weights = iota
	// WeightUnit (1) weighs each unique feature 1 (Charikar 2002 over a
	// set).
	WeightUnit
	// WeightTF (2) weighs each feature by its count in the document
	// (every occurrence adds 1), as the Go and Python peers do.
	WeightTF
	// WeightIDF (3) weighs each unique feature by its idf ("decreased by
	// the idf of w", Varol 2012 §4.1.4 and Table 4.2). A word n-gram weighs
	// the mean idf of its words, a character n-gram the idf of the term it
	// starts in (for every idf weighting). It was the default, numbered 0;
	// snapshot headers keep the old numbers (WeightIDF 0, WeightTFIDF 3),
	// so snapshots written before keep their meaning.
	WeightIDF
)

// Config configures SimHash. The zero value is the variant of Varol 2012
// §4.1.4 with Manku et al.'s parameters (stopwords removed and first-5
// stemming, the 2 highest-idf words dropped, 64-bit fingerprints,
// neighbours within Hamming distance 3), except that words weigh tf·idf
// where that paper weighs each unique word by its idf ([WeightIDF]).
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

	// Features selects the features (default FeatureWords).
	Features Features
	// N is the n-gram length of FeatureWordNGrams and FeatureCharNGrams; 0
	// means DefaultWordN or DefaultCharN.
	N int
	// Weights selects the feature weights (default WeightTFIDF).
	Weights Weights
	// SkipTop drops the features of highest idf; 0 means DefaultSkipTop, a
	// negative value drops none (and, with WeightUnit or WeightTF, makes
	// signing read no IDF table at all).
	SkipTop int
	// Seed seeds the 64-bit xxh3 feature hash.
	Seed uint64

	// K is the largest Hamming distance at which two documents are
	// near-duplicates; 0 means DefaultK, a negative value means 0 (equal
	// fingerprints only). At most MaxK.
	K int
	// Blocks is the number of bit blocks of the index (see [NewIndex]); 0
	// derives it from K.
	Blocks int
	// Content selects the part of each text that is read: its main-content
	// blocks (textproc.ContentMain: navigation, menus and other
	// boilerplate blocks skipped, see textproc.ContentFilter) or the whole
	// text (textproc.ContentAll); zero means DefaultContent.
	Content textproc.Content
	// MaxTextBytes is the largest text Add accepts; 0 means
	// detector.DefaultMaxTextBytes.
	MaxTextBytes int
	// MaxResults caps the matches Add, Containers and Query return (the
	// strongest, by detector.SortMatches: nearest first, ties by smallest
	// ID); zero means detector.DefaultMaxResults, a negative value is
	// rejected. Copies is not capped.
	MaxResults int
}

// DefaultContent is the part of a text read by default: the main content,
// boilerplate blocks skipped (textproc.ContentFilter).
const DefaultContent = textproc.ContentMain

// setDefaults fills every zero field that has a default, and maps the
// negative values that mean "none" to -1. It does not check anything:
// validate does, on the result.
func (c *Config) setDefaults() {
	if c.Stemmer == textproc.StemDefault {
		c.Stemmer = textproc.StemPrefix
	}
	c.PrefixLen = cmp.Or(c.PrefixLen, DefaultPrefixLen)
	if c.N == 0 {
		switch c.Features {
		case FeatureWordNGrams:
			c.N = DefaultWordN
		case FeatureCharNGrams:
			c.N = DefaultCharN
		case FeatureSpots:
			c.N = DefaultSpotN
		}
	}
	switch {
	case c.SkipTop == 0:
		c.SkipTop = DefaultSkipTop
	case c.SkipTop < 0:
		c.SkipTop = -1
	}
	switch {
	case c.K == 0:
		c.K = DefaultK
	case c.K < 0:
		c.K = -1
	}
	if c.Blocks == 0 && c.K <= MaxK {
		c.Blocks = defaultBlocks(c.k())
	}
	engine.Defaults(&c.Content, DefaultContent, &c.MaxTextBytes, &c.MaxResults)
}

// validate checks a Config after setDefaults and returns the text pipeline
// it selects. Errors name the field and wrap detector.ErrInvalidConfig.
func (c Config) validate() (textproc.Config, error) {
	bad := func(format string, args ...any) (textproc.Config, error) {
		return textproc.Config{}, fmt.Errorf("simhash: "+format+": %w", append(args, detector.ErrInvalidConfig)...)
	}
	tc, err := engine.Pipeline(c.Language, c.KeepStopwords, c.Stemmer, textproc.StemPrefix, c.PrefixLen)
	if err != nil {
		return textproc.Config{}, fmt.Errorf("simhash: %w", err)
	}
	switch c.Features {
	case FeatureWords, FeatureWordNGrams, FeatureCharNGrams:
	case FeatureSpots:
		if len(textproc.Stopwords(tc.Language)) == 0 {
			return bad("Features FeatureSpots needs a Language with stopwords (%q has none)", c.Language)
		}
		tc.RemoveStopwords = false // stopwords anchor the spots
	default:
		return bad("Features (%d) must be FeatureWords (0), FeatureWordNGrams (1), FeatureCharNGrams (2) or FeatureSpots (3)", c.Features)
	}
	if c.N < 0 || c.N > 64 {
		return bad("N (%d) must be in [0, 64]", c.N)
	}
	if c.Weights < WeightTFIDF || c.Weights > WeightIDF {
		return bad("Weights (%d) must be WeightTFIDF (0), WeightUnit (1), WeightTF (2) or WeightIDF (3)", c.Weights)
	}
	if c.K > MaxK {
		return bad("K (%d) must be at most %d", c.K, MaxK)
	}
	if _, err := indexLayout(c.k(), c.Blocks); err != nil {
		return bad("%v", err)
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

// k returns the Hamming radius of a resolved Config.
func (cfg Config) k() int { return max(cfg.K, 0) }

// skip returns the number of features dropped by a resolved Config.
func (cfg Config) skip() int { return max(cfg.SkipTop, 0) }

// usesIDF reports whether a resolved Config reads idf weights.
func (cfg Config) usesIDF() bool {
	return cfg.Weights == WeightIDF || cfg.Weights == WeightTFIDF || cfg.SkipTop > 0
}
