package shingle

import (
	"cmp"
	"fmt"
	"math"
	"strings"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/engine"
	"github.com/seed-9ef9c1df/neardup/internal/enum"
	"github.com/seed-9ef9c1df/neardup/textproc"
)

// Method selects the algorithm a [Detector] runs.
type Method int

const (
	// FullFingerprint hashes every word w-gram and reports C ⊇ A when C holds
	// at least Threshold of A's shingles (Varol 2012 §4.1.2). Asymmetric.
	// The zero Method.
	FullFingerprint Method = iota
	// DSC samples A's shingles (Broder et al. 1997) and reports C ⊇ A when C
	// holds at least Threshold of A's sample (Varol 2012 §4.1.1). Asymmetric.
	DSC
	// SpotSigs compares multisets of spot signatures by Jaccard similarity
	// (Theobald, Siddharth, Paepcke, SIGIR 2008). Symmetric.
	SpotSigs
)

func (m Method) String() string {
	return enum.String("Method", int(m), "ffp", "dsc", "spotsigs")
}

// Sampling selects how DSC picks the shingles of a document's sample.
type Sampling int

const (
	// SampleModulus keeps the shingles whose hash is ≡ 0 mod Modulus:
	// Broder's MOD_m sketch, whose |MOD(A) ∩ MOD(C)| / |MOD(A)| estimates the
	// containment of A in C without bias (Broder 1997; the DSC
	// implementation of Uyar 2009 Fig. 2.2 keeps fingerprints ≡ 0 mod 25).
	// The zero Sampling.
	SampleModulus Sampling = iota
	// SampleMin keeps the SampleSize smallest shingle hashes: Broder's
	// MIN_s sketch. Containment is estimated on the part of A's sketch below
	// the largest hash of C's sketch, where membership in C's sketch equals
	// membership in C.
	SampleMin
	// SampleStride keeps every Stride-th shingle by position, reading Varol
	// 2012 §4.1.1 ("each three overlapping substrings of four consecutive
	// words") as 4-word shingles taken with stride 3 (the wording also
	// allows super-shingles of 3 consecutive shingles). Positional sampling
	// is not shift-invariant: an inserted word changes every later sample,
	// consistent with Varol 2012's low DSC figure (F1 0.30, Table 5.2).
	SampleStride
)

func (s Sampling) String() string {
	return enum.String("Sampling", int(s), "modulus", "min", "stride")
}

// Defaults. A zero Config field takes the default named here.
const (
	// DefaultShingle is the shingle length in words for full fingerprinting
	// and DSC: "all substrings of size four" (Varol 2012 §4.1.1-4.1.2).
	DefaultShingle = 4
	// DefaultContainment is the containment threshold of full
	// fingerprinting and DSC, with DefaultMinOverlap (DefaultDSCMinOverlap)
	// shared features as evidence: chosen by the defaults procedure (go run
	// ./examples/defaults) over news pages, graded reuse, wire copy and
	// Turkish news. Varol 2012 §4.1.1-4.1.2 uses 60% ("if a document d_C
	// contains 60% of d_A's shingles, then d_C ⊇ d_A"), which misses many
	// more Gold Set pairs (docs/shingle.md).
	DefaultContainment = 0.25
	// DefaultModulus is DSC's modulus m for SampleModulus, chosen with
	// DefaultDSCMinOverlap by the defaults procedure (go run
	// ./examples/defaults; why not 8: docs/notes/shingle.md). Broder's DSC
	// kept fingerprints ≡ 0 mod 25 of 10-word shingles of web pages (Uyar
	// 2009 Fig. 2.2); a news text of 90 shingles then has no sample 1 time
	// in 40.
	DefaultModulus = 4
	// DefaultSampleSize is s for SampleMin (empirical: a news article has a
	// few hundred shingles; 64 keeps the containment estimate's standard
	// error near 0.06 at c = 0.6).
	DefaultSampleSize = 64
	// DefaultStride is the stride of SampleStride: "three overlapping
	// substrings" (Varol 2012 §4.1.1, read as a stride).
	DefaultStride = 3
	// DefaultAntecedents are SpotSigs' antecedents: the set with the best
	// Gold Set F1 (0.87) in Alonso et al. 2013 §4.8, a row of their Table 5.
	// (Table 5's best row on ClueWeb adds there, a, it, and scores lower
	// than this set on goldset-dev: docs/shingle.md.)
	DefaultAntecedents = "is,the,said,was"
	// DefaultChainLength is SpotSigs' chain length c: "the best settings
	// reported in the SpotSigs paper are a chain length of 3 plus a distance
	// of 2" (Alonso et al. 2013 §4.4).
	DefaultChainLength = 3
	// DefaultSpotDistance is SpotSigs' spot distance d (Alonso et al. 2013
	// §4.4).
	DefaultSpotDistance = 2
	// DefaultMinSignatures is the fewest spot signatures a document needs to
	// be indexed: MIN_SPOTSIGS of the reference release's spotsigs.config.
	DefaultMinSignatures = 4
	// DefaultMinIDF and DefaultMaxIDF bound the normalised signature idf
	// ln((N+1)/df)/ln(N+1) of the signatures SpotSigs keeps: MIN_IDF and
	// MAX_IDF of the reference release's spotsigs.config.
	DefaultMinIDF = 0.2
	// DefaultMaxIDF: see DefaultMinIDF.
	DefaultMaxIDF = 0.8
	// DefaultJaccard is SpotSigs' similarity threshold τ. The paper's value
	// could not be obtained; the authors' release ships 0.85, which
	// finds few of the goldset-dev pairs. 0.1 was chosen by a sweep on
	// goldset-dev (TestGoldSet; docs/shingle.md).
	DefaultJaccard = 0.1
)

// DefaultMinOverlap, DefaultDSCMinOverlap and DefaultSpotMinOverlap are the
// default Config.MinOverlap of FullFingerprint (shingles), DSC (sampled
// shingles) and SpotSigs (spot signatures), chosen by the defaults procedure (go run ./examples/defaults):
// the smallest values that keep Reuters-21578's template notices apart (no
// cluster of more than 20); what they cost on the Gold Set is in
// docs/notes/shingle.md.
const (
	DefaultMinOverlap     = 30
	DefaultDSCMinOverlap  = 10
	DefaultSpotMinOverlap = 4
)

// DefaultContent is the part of a text every Method reads by default: the
// main content, boilerplate blocks skipped (textproc.ContentFilter).
const DefaultContent = textproc.ContentMain

// Config configures a [Detector]. The zero value is full fingerprinting of
// language-neutral text as in Varol 2012 §4.1.2. Every field is a plain value, so a
// Config can be printed, compared and stored with the index it built; a
// zero field means the documented default. Fields that do not apply to
// Method are ignored (but still validated).
type Config struct {
	// Method selects the algorithm; zero is FullFingerprint.
	Method Method

	// Language is the BCP 47 tag of the text pipeline ("en", "tr", ...;
	// see textproc.RuleSet); "" is language-neutral (no stopwords), as is
	// any language without rules of its own.
	Language string
	// KeepStopwords keeps the Language's stopwords for FullFingerprint and
	// DSC (Varol 2012 §5.1 removes them for every detector). SpotSigs always
	// sees every word: its antecedents are stopwords.
	KeepStopwords bool
	// Stemmer selects the stemmer of FullFingerprint and DSC; zero
	// (textproc.StemDefault) is textproc.StemPrefix, first-N stemming
	// (Varol 2012 §5.1). SpotSigs never stems.
	Stemmer textproc.Stemmer
	// PrefixLen is the StemPrefix length; 0 means
	// textproc.DefaultPrefixLen.
	PrefixLen int

	// Threshold is the decision threshold: the containment ratio for
	// FullFingerprint and DSC (zero means DefaultContainment), the multiset
	// Jaccard similarity τ for SpotSigs (zero means DefaultJaccard). It
	// must lie in (0, 1].
	Threshold float64

	// Shingle is the number of words per shingle for FullFingerprint and
	// DSC; zero means DefaultShingle.
	Shingle int

	// Sampling selects DSC's sample; zero is SampleModulus.
	Sampling Sampling
	// Modulus is m for SampleModulus; zero means DefaultModulus.
	Modulus int
	// SampleSize is s for SampleMin; zero means DefaultSampleSize.
	SampleSize int
	// Stride is the stride of SampleStride; zero means DefaultStride.
	Stride int
	// SuperShingle, when positive, turns on DSC-SS candidate generation:
	// the sorted sample is shingled again in windows of SuperShingle
	// hashes, and only documents sharing a super-shingle are compared
	// (Broder et al. 1997). Zero compares every document sharing a sampled
	// shingle.
	SuperShingle int

	// Antecedents is SpotSigs' comma-separated antecedent list; empty means
	// DefaultAntecedents. Words are matched after the Language's case
	// folding. The default is English: for another Language, name that
	// language's frequent function words, or SpotSigs finds only exact
	// duplicates. For a Language without a stopword list (the neutral
	// default), the antecedents are also the stopwords chains skip.
	Antecedents string
	// ChainLength is SpotSigs' chain length c; zero means
	// DefaultChainLength.
	ChainLength int
	// SpotDistance is SpotSigs' spot distance d; zero means
	// DefaultSpotDistance.
	SpotDistance int
	// IncludeAntecedent keys a spot signature on the antecedent as well as
	// its chain. The reference release and Alonso et al. 2013 §3 key on the
	// chain only, which is the default.
	IncludeAntecedent bool
	// ReleaseChains reproduces the reference release's chain walk, which
	// after skipping stopwords resumes one word late (found+1+d instead of
	// found+d). Off by default.
	ReleaseChains bool
	// MinSignatures is the fewest spot signatures a document needs, before
	// and after the idf filter, to be indexed; zero means
	// DefaultMinSignatures.
	MinSignatures int
	// MinIDF and MaxIDF bound the normalised idf of the signatures SpotSigs
	// keeps; zero means DefaultMinIDF / DefaultMaxIDF. A negative MinIDF
	// and a MaxIDF above 1 turn the respective cut off. Both must be
	// finite.
	MinIDF, MaxIDF float64

	// MinOverlap is the evidence a reported pair needs beyond Threshold:
	// the features the two documents share (shingles for FullFingerprint,
	// sampled shingles for DSC, spot signatures for SpotSigs), at least
	// MinOverlap of them, or 80% of the smaller document's when it has
	// fewer than MinOverlap/0.8. Short notices written from one template
	// (dividends, bond issues, daily balances) reach any threshold through
	// the template alone; long texts at a low threshold share many
	// features. Zero means the Method's default: DefaultMinOverlap,
	// DefaultDSCMinOverlap or DefaultSpotMinOverlap. 1 turns the rule off.
	MinOverlap int
	// Content selects the part of each text that is read: its main-content
	// blocks (textproc.ContentMain: navigation, menus and other
	// boilerplate blocks skipped, see textproc.ContentFilter) or the whole
	// text (textproc.ContentAll); zero means DefaultContent.
	Content textproc.Content

	// MaxTextBytes is the largest text Add accepts; zero means
	// detector.DefaultMaxTextBytes.
	MaxTextBytes int

	// MaxResults caps the matches Add, Containers and Query return: the
	// first MaxResults by [detector.SortMatches] (highest score, then
	// smallest ID). Zero means detector.DefaultMaxResults; a negative
	// value is rejected. Copies is not capped.
	MaxResults int
}

// Largest values of the integer options that step through a text: a larger
// step could overflow an index. They are far beyond any useful setting.
const (
	maxSpotDistance = 1 << 16
	maxStride       = 1 << 16
)

// withDefaults returns the effective configuration: c with every zero field
// replaced by its default ([Config.setDefaults]), then checked
// ([Config.validate]). The error wraps detector.ErrInvalidConfig.
func (c Config) withDefaults() (Config, error) {
	c.setDefaults()
	if err := c.validate(); err != nil {
		return Config{}, err
	}
	return c, nil
}

// setDefaults replaces every zero field of c with its default. It checks
// nothing: a field it cannot resolve (an unknown Language or Stemmer) is
// left for validate to reject.
func (c *Config) setDefaults() {
	if tc, err := engine.Pipeline(c.Language, c.KeepStopwords, c.Stemmer, textproc.StemPrefix, c.PrefixLen); err == nil {
		c.Stemmer, c.PrefixLen = tc.Stemmer, tc.PrefixLen
	}
	if c.Threshold == 0 {
		c.Threshold = DefaultContainment
		if c.Method == SpotSigs {
			c.Threshold = DefaultJaccard
		}
	}
	zero := func(p *int, def int) {
		if *p == 0 {
			*p = def
		}
	}
	zero(&c.Shingle, DefaultShingle)
	zero(&c.Modulus, DefaultModulus)
	zero(&c.SampleSize, DefaultSampleSize)
	zero(&c.Stride, DefaultStride)
	zero(&c.ChainLength, DefaultChainLength)
	zero(&c.SpotDistance, DefaultSpotDistance)
	zero(&c.MinSignatures, DefaultMinSignatures)
	switch c.Method {
	case SpotSigs:
		zero(&c.MinOverlap, DefaultSpotMinOverlap)
	case DSC:
		zero(&c.MinOverlap, DefaultDSCMinOverlap)
	default:
		zero(&c.MinOverlap, DefaultMinOverlap)
	}
	c.Antecedents = cmp.Or(c.Antecedents, DefaultAntecedents)
	c.MinIDF = cmp.Or(c.MinIDF, DefaultMinIDF)
	c.MaxIDF = cmp.Or(c.MaxIDF, DefaultMaxIDF)
	engine.Defaults(&c.Content, DefaultContent, &c.MaxTextBytes, &c.MaxResults)
}

// validate checks a configuration whose defaults are set, returning an
// error that names the first field out of range and wraps
// detector.ErrInvalidConfig.
func (c Config) validate() error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("shingle: "+format+": %w", append(args, detector.ErrInvalidConfig)...)
	}
	switch c.Method {
	case FullFingerprint, DSC, SpotSigs:
	default:
		return bad("unknown Method (%d)", int(c.Method))
	}
	if _, err := engine.Pipeline(c.Language, c.KeepStopwords, c.Stemmer, textproc.StemPrefix, c.PrefixLen); err != nil {
		return fmt.Errorf("shingle: %w", err)
	}
	switch c.Sampling {
	case SampleModulus, SampleMin, SampleStride:
	default:
		return bad("unknown Sampling (%d)", int(c.Sampling))
	}
	switch {
	case !(c.Threshold > 0 && c.Threshold <= 1):
		return bad("Threshold (%v) must be in (0, 1]", c.Threshold)
	case c.Shingle < 1 || c.Shingle > 64:
		return bad("Shingle (%d) must be in [1, 64]", c.Shingle)
	case c.Modulus < 1:
		return bad("Modulus (%d) must be ≥ 1", c.Modulus)
	case c.SampleSize < 1:
		return bad("SampleSize (%d) must be ≥ 1", c.SampleSize)
	case c.Stride < 1 || c.Stride > maxStride:
		return bad("Stride (%d) must be in [1, %d]", c.Stride, maxStride)
	case c.SuperShingle < 0 || c.SuperShingle > 64:
		return bad("SuperShingle (%d) must be in [0, 64]", c.SuperShingle)
	case len(antecedentList(c.Antecedents)) == 0:
		return bad("Antecedents (%q) names no word", c.Antecedents)
	case c.ChainLength < 1 || c.ChainLength > 64:
		return bad("ChainLength (%d) must be in [1, 64]", c.ChainLength)
	case c.SpotDistance < 1 || c.SpotDistance > maxSpotDistance:
		return bad("SpotDistance (%d) must be in [1, %d]", c.SpotDistance, maxSpotDistance)
	case c.MinSignatures < 1:
		return bad("MinSignatures (%d) must be ≥ 1", c.MinSignatures)
	case math.IsNaN(c.MinIDF):
		return bad("MinIDF (%v) must be a number", c.MinIDF)
	case math.IsNaN(c.MaxIDF):
		return bad("MaxIDF (%v) must be a number", c.MaxIDF)
	case math.IsInf(c.MinIDF, 0):
		return bad("MinIDF (%v) must be finite (a snapshot stores it; any negative value turns the cut off)", c.MinIDF)
	case math.IsInf(c.MaxIDF, 0):
		return bad("MaxIDF (%v) must be finite (a snapshot stores it; any value above 1 turns the cut off)", c.MaxIDF)
	case c.MinIDF >= c.MaxIDF:
		return bad("MinIDF (%v) must be below MaxIDF (%v)", c.MinIDF, c.MaxIDF)
	case c.MinOverlap < 1 || c.MinOverlap > 1<<20:
		return bad("MinOverlap (%d) must be in [1, 2^20]", c.MinOverlap)
	}
	if err := engine.CheckLimits(c.Content, c.MaxTextBytes, c.MaxResults); err != nil {
		return bad("%v", err)
	}
	return nil
}

// antecedentList splits a comma-separated antecedent list into its
// non-empty, trimmed words (the analyzer folds their case).
func antecedentList(s string) []string {
	var out []string
	for w := range strings.SplitSeq(s, ",") {
		if w = strings.TrimSpace(w); w != "" {
			out = append(out, w)
		}
	}
	return out
}
