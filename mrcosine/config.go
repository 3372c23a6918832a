package mrcosine

import (
	"cmp"
	"fmt"
	"math"
	"runtime"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/engine"
	"github.com/seed-9ef9c1df/neardup/textproc"
)

// Defaults of the detector. Mohammadi and Khasteh 2020 §3.5 leaves t1 and t2
// to be "determined empirically ... for each specific application"; these
// were chosen on the labelled near-duplicate news pages of the SpotSigs Gold
// Set (Theobald, Siddharth and Paepcke 2008) with the default reference.
const (
	// DefaultT1 is the signature cosine at or above which a pair is a
	// duplicate candidate (Mohammadi and Khasteh 2020 §3.5, s ≥ t1), chosen
	// for high precision on the Gold Set pages.
	DefaultT1 = 0.98
	// DefaultT2 is the signature cosine at or above which a pair is a
	// near-duplicate candidate (Mohammadi and Khasteh 2020 §3.5,
	// t2 ≤ s < t1), chosen for F1 on the Gold Set pages (F1 by threshold:
	// docs/mrcosine.md in the repository).
	DefaultT2 = 0.88
	// DefaultCenteredT1 and DefaultCenteredT2 are the thresholds of
	// Config.Centered, chosen the same way.
	DefaultCenteredT1 = 0.95
	DefaultCenteredT2 = 0.67
	// DefaultMissRate is the probability, under the random-hyperplane model
	// (Charikar 2002), that one LSH lookup misses a pair whose hashed
	// vectors have exactly the index threshold as cosine (see
	// [Config].MissRate); pairs above it are missed less often.
	DefaultMissRate = 0.002
	// DefaultRows is the number of hyperplane signs per LSH band when Rows
	// is zero, for plain and centered signatures alike.
	DefaultRows = 7
	// DefaultCenteredRows is DefaultRows under Config.Centered.
	DefaultCenteredRows = DefaultRows
	// DefaultContent is the part of a text signed by default: the main
	// content, boilerplate blocks skipped (textproc.ContentFilter).
	DefaultContent = textproc.ContentMain
	// MaxBands bounds Config.Bands (and the number derived from the
	// thresholds): each band costs a key per document and a map lookup per
	// query.
	MaxBands = 4096
	// MaxRows bounds Config.Rows: a band key packs the signs in 64 bits.
	MaxRows = 64
)

// Config configures a [Detector]. A zero field means its documented default;
// [Detector.Config] returns the effective values.
type Config struct {
	// T1 is the duplicate threshold on signature cosine [DefaultT1].
	T1 float64
	// T2 is the near-duplicate threshold [DefaultT2]; Add and Containers
	// report pairs with signature cosine ≥ T2. 0 < T2 ≤ T1 ≤ 1.
	T2 float64
	// Centered compares signatures by the cosine of their unit vectors
	// minus the reference's center ([Reference.Centered]) instead of the
	// plain signature cosine of Mohammadi and Khasteh 2020 §3.5. Not in the
	// paper; it needs a reference with a center, such as [Default] or one
	// made by [Train]. With Centered, zero T1 and T2 mean [DefaultCenteredT1]
	// and [DefaultCenteredT2].
	Centered bool
	// Exhaustive compares every new document with every live one, as
	// Mohammadi and Khasteh 2020 §3.5 does, instead of using the LSH
	// index. Exact, O(N) per call.
	Exhaustive bool
	// Rows is the number of hyperplane signs per LSH band [DefaultRows];
	// in [1, MaxRows].
	Rows int
	// Bands is the number of LSH bands; zero derives it from the index
	// threshold, Rows and MissRate with [Bands]. In [1, MaxBands].
	Bands int
	// MissRate is the target probability that the index misses a pair
	// whose hashed vectors have the index threshold as cosine
	// [DefaultMissRate]; in (0, 1). The index threshold is T2 under
	// Centered, and 1 − PlainSlack·(1 − T2) for plain signatures hashed
	// from the reference's center (see [Detector]).
	MissRate float64
	// Seed draws the random rotations of the index.
	Seed uint64
	// Content selects the part of each text that is signed: its
	// main-content blocks (textproc.ContentMain: navigation, menus and
	// other boilerplate blocks skipped, see textproc.ContentFilter, under
	// the reference's TextConfig.Language) or the whole text
	// (textproc.ContentAll) [DefaultContent].
	Content textproc.Content
	// MaxTextBytes is the largest text Add accepts
	// [detector.DefaultMaxTextBytes]; at least 1.
	MaxTextBytes int
	// MaxResults is the most matches Add, Containers and Query return, the
	// strongest by detector.SortMatches (ties broken by the smallest ID)
	// [detector.DefaultMaxResults]; at least 1, negative is rejected. A
	// flood of exact copies would otherwise make every Add return every
	// earlier copy; [Detector.Copies] lists them all.
	MaxResults int
}

// PlainSlack relates the plain threshold T2 to the cosine the index hashes
// when signatures are compared plain but hashed from the reference's
// center: a pair at plain cosine T2 has centered cosine at least
// 1 − (1 − T2)/(‖x‖·‖y‖) for centered vectors x and y (the distance of two
// points does not change when both move by the center); news signatures
// have ‖x‖·‖y‖ above about 1/3 but for a few generic texts, so the index
// hashes at 1 − PlainSlack·(1 − T2): on the Gold Set pages and
// Reuters-21578 no pair at plain cosine 0.80-0.98 fell below
// 1 − 3.13·(1 − T2) (docs/mrcosine.md in the repository).
const PlainSlack = 3.3

// setDefaults fills in zero fields. It does not check anything, so it may
// leave invalid values for validate to report.
func (c *Config) setDefaults(hasCenter bool) {
	t1, t2, rows := DefaultT1, DefaultT2, DefaultRows
	if c.Centered {
		t1, t2, rows = DefaultCenteredT1, DefaultCenteredT2, DefaultCenteredRows
	}
	if c.T1 == 0 {
		c.T1 = max(t1, c.T2)
	}
	if c.T2 == 0 {
		c.T2 = min(t2, c.T1)
	}
	c.Rows = cmp.Or(c.Rows, rows)
	c.MissRate = cmp.Or(c.MissRate, DefaultMissRate)
	engine.Defaults(&c.Content, DefaultContent, &c.MaxTextBytes, &c.MaxResults)
	if c.Bands == 0 && !c.Exhaustive && c.validThresholds() == nil && c.Rows >= 1 && c.Rows <= MaxRows && c.MissRate > 0 && c.MissRate < 1 {
		t := c.T2 // the index threshold: the cosine of the hashed vectors the index is built for
		if !c.Centered && hasCenter {
			t = max(1-PlainSlack*(1-c.T2), -1)
		}
		c.Bands = Bands(t, c.Rows, c.MissRate)
	}
}

func (c *Config) validThresholds() error {
	switch {
	case !(c.T2 > 0 && c.T2 <= 1):
		return fmt.Errorf("mrcosine: T2 (%g) must be in (0, 1]", c.T2)
	case !(c.T1 >= c.T2 && c.T1 <= 1):
		return fmt.Errorf("mrcosine: T1 (%g) must be in [T2 (%g), 1]", c.T1, c.T2)
	}
	return nil
}

// validate checks a Config after setDefaults; the error wraps
// [detector.ErrInvalidConfig].
func (c *Config) validate() error {
	err := c.validThresholds()
	switch {
	case err != nil:
	case c.Rows < 1 || c.Rows > MaxRows:
		err = fmt.Errorf("mrcosine: Rows (%d) must be in [1, %d]", c.Rows, MaxRows)
	case !(c.MissRate > 0 && c.MissRate < 1):
		err = fmt.Errorf("mrcosine: MissRate (%g) must be in (0, 1)", c.MissRate)
	case !c.Exhaustive && (c.Bands < 1 || c.Bands > MaxBands):
		err = fmt.Errorf("mrcosine: Bands (%d) must be in [1, %d] (zero derives it from T2, Rows and MissRate)", c.Bands, MaxBands)
	default:
		if err = engine.CheckLimits(c.Content, c.MaxTextBytes, c.MaxResults); err != nil {
			err = fmt.Errorf("mrcosine: %w", err)
		}
	}
	if err != nil {
		return fmt.Errorf("%w: %w", err, detector.ErrInvalidConfig)
	}
	return nil
}

// Bands returns the number of LSH bands of rows random hyperplanes each
// that misses a pair of cosine t at most with probability miss: one
// hyperplane separates two vectors at angle θ with probability θ/π
// (Charikar 2002 §3), so a band of rows hyperplanes agrees with
// probability p = (1 − arccos(t)/π)^rows and bands bands all disagree with
// probability (1 − p)^bands ≤ miss. Pairs of higher cosine are missed less
// often. It returns at least 1 and at most math.MaxInt32.
func Bands(t float64, rows int, miss float64) int {
	p := math.Pow(1-math.Acos(min(max(t, -1), 1))/math.Pi, float64(rows))
	if p >= 1 {
		return 1
	}
	n := math.Ceil(math.Log(miss) / math.Log1p(-p))
	if !(n < math.MaxInt32) { // p ≈ 0, miss ≈ 0 or NaN
		return math.MaxInt32
	}
	return max(1, int(n))
}

// Defaults of the genetic algorithm (Mohammadi and Khasteh 2020 §3.6 and
// §4.2; our own choices where the paper is silent).
const (
	// DefaultPopulation is the number of reference texts per generation
	// (Mohammadi and Khasteh 2020 Table 1: 100, chosen over 50 and 150).
	DefaultPopulation = 100
	// DefaultGenerations is the number of generations (Mohammadi and Khasteh
	// 2020 §4.2: "Fifty generations are used").
	DefaultGenerations = 50
	// DefaultPoolSize is the number of highest-TF-IDF trigrams genes are
	// drawn from (Mohammadi and Khasteh 2020 §3.6.1: "A total of 9000 3-grams
	// with highest Tf-idf score").
	DefaultPoolSize = 9000
	// DefaultMutationRate is the fraction of a child's genes replaced by
	// random pool trigrams (Mohammadi and Khasteh 2020 §3.6.2: "randomly
	// replace 10 percent of 3-grams").
	DefaultMutationRate = 0.1
	// DefaultSampleDocs is N of Eq. 1, the documents whose pairs the fitness
	// is measured on (see TrainConfig.Resample). The paper gives no number;
	// all pairs of its 8,000 training documents would not fit the 20 s a
	// generation of its Table 1, so we take 200 documents (19,900 pairs).
	DefaultSampleDocs = 200
	// DefaultHoldout is the fraction of the collection kept out of the GA to
	// pick the winner of the final population (Mohammadi and Khasteh 2020
	// §4.2: 80/20 split).
	DefaultHoldout = 0.2
)

// PoolRanking selects how the TF-IDF of a trigram over many documents is
// aggregated into one score for the gene pool. Mohammadi and Khasteh 2020
// §3.6.1 ranks the trigrams of a corpus by "Tf-idf score" without saying how
// per-document scores are combined.
type PoolRanking int

const (
	// RankSum (the default, 0) scores a trigram by the sum of its tf·idf
	// over the documents, tf being its count over the document's trigram
	// count and idf = log(N/df). It favours trigrams frequent across the
	// collection without occurring in every document. On Reuters it
	// trains references of lower error whose genes occur in short texts
	// too (docs/notes/mrcosine.md in the repository).
	RankSum PoolRanking = iota
	// RankMax scores a trigram by its highest tf·idf over the documents: the
	// other plausible reading. It favours trigrams rare in the collection
	// (one short document suffices), so short texts often share no trigram
	// with the reference and get the zero signature.
	RankMax
)

// TrainConfig configures [Train]. A zero field means its documented default.
type TrainConfig struct {
	// Normalization, Language and Binary form the [TextConfig] of the
	// reference text (zero: Normalized, language-neutral, term frequency).
	Normalization Normalization
	Language      string
	Binary        bool
	// Genes is the length R of the reference text in trigrams
	// [DefaultGenes].
	Genes int
	// Parts is the number P of parts [DefaultParts]; 1 ≤ Parts ≤ Genes.
	Parts int
	// Population is the number of reference texts per generation
	// [DefaultPopulation]; at least 2.
	Population int
	// Generations is the number of generations after the initial one
	// [DefaultGenerations]. A negative value runs none: Train returns the
	// best reference of the initial population (the top-TF-IDF
	// initialisation of Mohammadi and Khasteh 2020 §3.6.1).
	Generations int
	// PoolSize is the number of highest-ranked trigrams genes are drawn
	// from [DefaultPoolSize].
	PoolSize int
	// Ranking aggregates TF-IDF over documents for the pool [RankSum].
	Ranking PoolRanking
	// MutationRate is the fraction of each child's genes replaced by random
	// pool trigrams [DefaultMutationRate]; in (0, 1]. A negative value
	// disables mutation.
	MutationRate float64
	// SampleDocs is the number N of documents of Eq. 1 per generation
	// [DefaultSampleDocs]; at least 2.
	SampleDocs int
	// Resample redraws the SampleDocs documents every generation (our
	// first reading) instead of drawing them once and scoring every
	// generation on the same ones. Mohammadi and Khasteh 2020 §3.6.3 say
	// only "a number of randomly selected documents". The fixed sample is the
	// default: on Reuters it trains references with lower error on texts
	// outside the sample (docs/notes/mrcosine.md in the repository).
	Resample bool
	// Holdout is the fraction of the texts kept out of the GA to choose the
	// winner of the final population [DefaultHoldout]; in (0, 1).
	Holdout float64
	// Seed makes training deterministic: the same texts, Config and Seed
	// give the same reference text whatever Workers is.
	Seed uint64
	// Workers is the number of goroutines that evaluate fitness; zero means
	// runtime.GOMAXPROCS(0).
	Workers int
}

// setDefaults fills in zero fields without checking anything.
func (c *TrainConfig) setDefaults() {
	c.Genes = cmp.Or(c.Genes, DefaultGenes)
	c.Parts = cmp.Or(c.Parts, DefaultParts)
	c.Population = cmp.Or(c.Population, DefaultPopulation)
	c.Generations = max(cmp.Or(c.Generations, DefaultGenerations), 0) // negative: none
	c.PoolSize = cmp.Or(c.PoolSize, DefaultPoolSize)
	c.MutationRate = cmp.Or(c.MutationRate, DefaultMutationRate)
	c.SampleDocs = cmp.Or(c.SampleDocs, DefaultSampleDocs)
	c.Holdout = cmp.Or(c.Holdout, DefaultHoldout)
	c.Workers = cmp.Or(c.Workers, runtime.GOMAXPROCS(0))
}

// validate checks a TrainConfig after setDefaults.
func (c *TrainConfig) validate() error {
	tc := TextConfig{Normalization: c.Normalization, Language: c.Language, Binary: c.Binary}
	if err := tc.validate("mrcosine"); err != nil {
		return err
	}
	switch {
	case c.Genes < 1:
		return fmt.Errorf("mrcosine: Genes (%d) must be ≥ 1", c.Genes)
	case c.Parts < 1 || c.Parts > c.Genes:
		return fmt.Errorf("mrcosine: Parts (%d) must be in [1, Genes (%d)]", c.Parts, c.Genes)
	case c.Population < 2:
		return fmt.Errorf("mrcosine: Population (%d) must be ≥ 2", c.Population)
	case c.PoolSize < 1:
		return fmt.Errorf("mrcosine: PoolSize (%d) must be ≥ 1", c.PoolSize)
	case c.Ranking != RankMax && c.Ranking != RankSum:
		return fmt.Errorf("mrcosine: Ranking (%d) must be RankSum (0) or RankMax (1)", int(c.Ranking))
	case c.MutationRate > 1 || math.IsNaN(c.MutationRate):
		return fmt.Errorf("mrcosine: MutationRate (%g) must be in (0, 1], or negative for none", c.MutationRate)
	case c.SampleDocs < 2:
		return fmt.Errorf("mrcosine: SampleDocs (%d) must be ≥ 2", c.SampleDocs)
	case !(c.Holdout > 0 && c.Holdout < 1):
		return fmt.Errorf("mrcosine: Holdout (%g) must be in (0, 1)", c.Holdout)
	case c.Workers < 1:
		return fmt.Errorf("mrcosine: Workers (%d) must be ≥ 1", c.Workers)
	}
	return nil
}
