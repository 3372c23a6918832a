package minhash

import (
	"cmp"
	"fmt"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/engine"
	"github.com/seed-9ef9c1df/neardup/textproc"
)

// Mode selects what a [Detector] measures.
type Mode int

const (
	// Jaccard (0) reports near-duplicates by the resemblance of word-shingle
	// sets, |A∩B|/|A∪B| (Broder 1997). Symmetric.
	Jaccard Mode = iota
	// Weighted (1) reports near-duplicates by the weighted Jaccard of
	// 7-word phrases under an Alonso et al. 2013 Table 4 weighting, sampled
	// by the configured Sampler (DartMinHash, or Ioffe's ICWS as in Alonso
	// et al. 2013 §4.3). Symmetric.
	Weighted
	// Containment (2) reports C ⊇ A when |S(A)∩S(C)|/|S(A)| reaches the
	// threshold, with LSH Ensemble style partitioning by set size
	// (Zhu et al., PVLDB 2016). Asymmetric.
	Containment
)

// Scheme selects how the K values of an unweighted signature are drawn.
type Scheme int

const (
	// OnePermutation (0) hashes each shingle once, sends it to one of K
	// bins and keeps each bin's minimum; empty bins are filled by optimal
	// densification (Li, Owen, Zhang, NIPS 2012; Shrivastava, ICML 2017).
	OnePermutation Scheme = iota
	// KHash (1) is classic MinHash: K independent hash functions, each
	// keeping its minimum over all shingles (Broder 1997). K times the
	// hashing work of OnePermutation.
	KHash
)

// Sampler selects how Weighted mode samples a weighted set. The zero
// value is [DefaultSampler]; New resolves it, so the effective Config
// names the sampler used.
type Sampler int

const (
	// DefaultSampler (0) is resolved to [PackedDarts] in Weighted mode
	// (and left as is in the others, which sample no weights): the
	// fastest of the samplers that hold on every input the defaults were
	// chosen on (Gold Set F1, Reuters clusters, Clough-Stevenson reuse,
	// TTC-3600 copies; docs/minhash.md in the repository has the
	// figures).
	DefaultSampler Sampler = iota
	// IoffeICWS (1) is Ioffe's improved consistent weighted sampling
	// (ICDM 2010), the sampler of Alonso et al. 2013 §4.3: three hashes and
	// three logarithms per element and sample. The option faithful to that
	// paper.
	IoffeICWS
	// PackedDarts (2, the default) is DartMinHash (Christiani,
	// DartMinHash: Fast Sketching for Weighted Sets, 2020) in the layout
	// of [PackedDartMinHash]: cells of four expected darts, each dart one
	// hash, and slot minima kept as packed integers, with no branch per
	// dart. Same collision probability and variance as ICWS; its
	// signatures compare with those of no other sampler.
	PackedDarts
	// Darts (3) is DartMinHash in the layout of [DartMinHash]: one hash
	// per element and pair of dyadic weight levels and about K(ln K + 1)
	// darts of one hash each. Same collision probability and variance as
	// ICWS at a fraction of its cost, and somewhat more costly than
	// PackedDarts (docs/minhash.md has the figures). It was the default
	// before PackedDarts; snapshot headers store it as 0, the number it
	// had then, so that snapshots written before keep their meaning.
	Darts
)

// Weighting is a final-weight function of Alonso et al. 2013 Table 4,
// applied to the document frequency df of a phrase's first term.
type Weighting int

const (
	// WeightDFPow (0, default): df^Power; Table 4 lists powers 2, 3, 4, and
	// df⁴ is the best Gold Set weighting of §4.8 (measured figures:
	// docs/minhash.md in the repository).
	WeightDFPow Weighting = iota
	// WeightUniform (1): every phrase weighs 1.
	WeightUniform
	// WeightDF (2): df.
	WeightDF
	// WeightLnDF (3): ln df.
	WeightLnDF
	// WeightLnDFPow (4): (ln df)^Power; Table 4 lists powers 2, 3, 4, 10.
	WeightLnDFPow
	// WeightIDF (5): ln(N/df), N the number of documents.
	WeightIDF
)

// PhraseScale selects how the weight is scaled by the phrase's own document
// frequency dfp (Alonso et al. 2013 §4.3: "we scale this by the inverse
// document frequency of the complete phrase").
type PhraseScale int

const (
	// ScaleNone (0, default): no scaling beyond the rare-phrase cut, which
	// already zeroes common phrases; the best of the three on news pages
	// with boilerplate (docs/minhash.md in the repository).
	ScaleNone PhraseScale = iota
	// ScaleLogIDF (1): multiply by the phrase's inverse document frequency
	// ln(1 + N/dfp), §4.3's "inverse document frequency" read as the usual
	// logarithmic IDF (+1 inside keeps it positive).
	ScaleLogIDF
	// ScaleInverse (2): divide by dfp, the literal reading of the df⁴
	// example of Alonso et al. 2013 §4.4 ("divided by the document
	// frequency of the entire phrase"). It suppresses the very phrases a
	// cluster of near-duplicates shares.
	ScaleInverse
)

// RareRule selects what "rare phrase" means (Alonso et al. 2013 §4.3 and
// §4.5 word it differently).
type RareRule int

const (
	// RareDocFraction (0): a phrase is rare when it occurs in at most
	// RarePercent % of the documents (Alonso et al. 2013 §4.3: "a phrase
	// that occurs in at most n% of the documents, as measured by document
	// frequency").
	RareDocFraction RareRule = iota
	// RarePercentile (1): a phrase is rare when its df is at most the df at
	// the RarePercent-th percentile of all phrases ordered by df (Alonso et al.
	// 2013 §4.5: "the bottom n% of phrases by document frequency").
	RarePercentile
)

// Defaults. Each cites its source.
const (
	// DefaultNumHashes is K, the signature length: datasketch's default and
	// the usual setting of MinHash libraries (128).
	DefaultNumHashes = 128
	// DefaultShingle is the words per shingle in Jaccard and Containment
	// modes: 5, the best setting of exact Jaccard on news pages with
	// boilerplate; empirical: TestGoldset.
	DefaultShingle = 5
	// DefaultPhraseLen is the phrase length of Weighted mode: "All of the
	// experiments in this paper use a phrase length of 7" (Alonso et al.
	// 2013 §4.4).
	DefaultPhraseLen = 7
	// DefaultThreshold is the Jaccard threshold of Jaccard mode, where
	// exact 5-shingle Jaccard peaks on news pages with boilerplate;
	// empirical: TestGoldset.
	DefaultThreshold = 0.08
	// DefaultWeightedThreshold is the weighted-Jaccard threshold of
	// Weighted mode: with DefaultPower, the best Gold Set F1 of the
	// defaults procedure's grid (go run ./examples/defaults). Its tie rule
	// would take 0.05 (more Clough-Stevenson answers found, F1 within
	// 0.005), but below 0.08 two different Chinese stories that share a
	// 32-character dateline are related (TestChinese in the repository).
	DefaultWeightedThreshold = 0.08
	// DefaultContainmentThreshold is the containment threshold of
	// Containment mode, chosen by the defaults procedure (go run
	// ./examples/defaults) with DefaultMinOverlap, below the 60% of the
	// shingling baselines in Varol 2012 §4.1.1-4.1.2 (docs/minhash.md has
	// the comparison).
	DefaultContainmentThreshold = 0.4
	// DefaultFalsePositiveWeight is the weight of false positives in the
	// (bands, rows) search: datasketch's 0.5 (MinHashLSH weights).
	DefaultFalsePositiveWeight = 0.5
	// DefaultFalseNegativeWeight is the weight of false negatives in the
	// (bands, rows) search: 2, four times the false positives' (datasketch
	// weighs them equally). The Detector verifies every candidate, so a
	// false-positive candidate costs one O(K) comparison while a false
	// negative is a pair lost; at equal weights a pair exactly at the
	// threshold becomes a candidate with probability 0.55 at t = 0.5 (25
	// bands of 5 rows) and 0.40 at t = 0.8. The price is more band entries
	// per stored document (measured figures: docs/minhash.md in the
	// repository). Set 0.5 for datasketch's balance and the smaller index.
	DefaultFalseNegativeWeight = 2
	// DefaultWeighting is a power of the first term's df, the family of
	// the best Gold Set weighting of Alonso et al. 2013 §4.8 (df⁴).
	DefaultWeighting = WeightDFPow
	// DefaultPower is the exponent of WeightDFPow and WeightLnDFPow: 1.5,
	// chosen by the defaults procedure over the four labelled collections;
	// on the Gold Set it beats the df⁴ of Alonso et al. 2013 §4.8 in pair
	// F1 and far more in ranking (docs/notes/minhash.md in the repository).
	DefaultPower = 1.5
	// DefaultRarePercent is the rare-phrase cut: "considering the bottom 50%
	// performs best" (Alonso et al. 2013 §4.5).
	DefaultRarePercent = 50
	// DefaultSupershingleMatches is how many equal supershingles make a
	// candidate when Supershingles is on: 2, the "≥ 2 of 6" rule of Fetterly
	// et al. 2003.
	DefaultSupershingleMatches = 2
	// DefaultSupershingles is the number of supershingles when Supershingles
	// is on: 6, as in Fetterly et al. 2003 (84 values → 6 supershingles of
	// 14).
	DefaultSupershingles = 6
)

// Config configures a [Detector] or a [Sketcher]. A zero field means its
// documented default. Every field is a plain value, so a Config can be
// printed, compared and stored with the signatures it produced.
type Config struct {
	// Mode is Jaccard (0, default), Weighted (1) or Containment (2).
	Mode Mode
	// Language is a BCP 47 tag for the text pipeline ("en", "tr", ...; see
	// textproc.RuleSet); "" is language-neutral tokenising and
	// lower-casing, as is any language without rules of its own. Stopwords
	// are kept and terms are not stemmed, whatever the language.
	Language string
	// Shingle is the words per shingle (phrase). Zero means DefaultShingle,
	// or DefaultPhraseLen in Weighted mode.
	Shingle int
	// NumHashes is K, the signature length, in [1, 4096]; zero means
	// DefaultNumHashes.
	NumHashes int
	// Scheme is OnePermutation (0, default) or KHash (1).
	Scheme Scheme
	// Seed selects the hash family. Signatures compare only under equal
	// Seed, NumHashes, Scheme, Shingle and Language.
	Seed uint64
	// Threshold is the similarity (Jaccard or weighted Jaccard) or
	// containment a pair must reach, estimated from signatures, to be
	// reported; zero means the mode's default.
	Threshold float64
	// Bands and Rows fix the LSH banding; zero means derived by [Params]
	// from Threshold and NumHashes. Each is at most NumHashes, and so is
	// Bands·Rows.
	// Ignored in Containment mode, which chooses rows per size partition.
	Bands, Rows int
	// FalsePositiveWeight and FalseNegativeWeight weigh the two error
	// integrals in the (bands, rows) search, each in (0, 1e100]; zero means
	// DefaultFalsePositiveWeight and DefaultFalseNegativeWeight.
	FalsePositiveWeight, FalseNegativeWeight float64
	// Supershingles, when > 0, replaces LSH banding by that many
	// supershingles (Alonso et al. 2013 §3; Broder 2000): hashes of equal
	// groups of signature values, a candidate needing SupershingleMatches
	// equal ones. Near-linear and strict: meant for high thresholds.
	Supershingles int
	// SupershingleMatches is the number of equal supershingles a candidate
	// needs; zero means DefaultSupershingleMatches.
	SupershingleMatches int
	// Sampler is the weighted sampler of Weighted mode: PackedDarts (2,
	// the default; zero means DefaultSampler, which is it), IoffeICWS (1)
	// or Darts (3). Signatures compare only under equal Sampler.
	Sampler Sampler
	// Weighting is the Table 4 function of Weighted mode; zero is
	// WeightDFPow (df^1.5 with the default Power).
	Weighting Weighting
	// Power is the exponent of WeightDFPow and WeightLnDFPow; zero means
	// DefaultPower.
	Power float64
	// Scale is the phrase-df scaling of Weighted mode (ScaleNone default).
	Scale PhraseScale
	// RarePercent is the rare-phrase cut n of Alonso et al. 2013 §4.5 in
	// percent, in (0, 100]; zero means DefaultRarePercent, 100 keeps every
	// phrase.
	RarePercent float64
	// Rare selects the rare-phrase rule (RareDocFraction default).
	Rare RareRule
	// MinOverlap is the evidence a reported pair needs beyond Threshold:
	// its estimated shared shingles (phrases in Weighted mode), at least
	// MinOverlap of them, or 80% of the smaller document's when it has
	// fewer than MinOverlap/0.8. Short notices written from one template
	// (dividends, bond issues, daily balances) share a Jaccard of 0.3-0.5
	// through the template alone; long texts at a low Jaccard share many
	// shingles. Zero means DefaultMinOverlap (DefaultWeightedMinOverlap in
	// Weighted mode); 1 turns the rule off.
	MinOverlap int
	// Content selects the part of each text that is read: its main-content
	// blocks (textproc.ContentMain: navigation, menus and other
	// boilerplate blocks skipped, see textproc.ContentFilter) or the whole
	// text (textproc.ContentAll); zero means DefaultContent. Signatures
	// compare only under equal Content.
	Content textproc.Content
	// MaxTextBytes bounds a document's size; zero means
	// detector.DefaultMaxTextBytes.
	MaxTextBytes int
	// MaxResults is the most matches Add, Containers and Query return, the
	// strongest by detector.SortMatches (ties broken by the smallest ID);
	// zero means detector.DefaultMaxResults, a negative value is rejected.
	// Copies is not capped.
	MaxResults int
}

// DefaultMinOverlap and DefaultWeightedMinOverlap are the default
// Config.MinOverlap of the Jaccard and Containment modes (shingles) and of
// Weighted mode (phrases), chosen by the defaults procedure (go run
// ./examples/defaults): the smallest that keep Reuters-21578's template
// notices apart (at most 20 different stories in a cluster).
const (
	DefaultMinOverlap         = 50
	DefaultWeightedMinOverlap = 30
)

// DefaultContent is the part of a text every Mode reads by default: the
// main content, boilerplate blocks skipped (textproc.ContentFilter).
const DefaultContent = textproc.ContentMain

// WeightedConfig returns the Weighted-mode configuration with every
// default spelled out: 7-word phrases, df^1.5 of the first term, rare
// phrases of the bottom 50% by the §4.3 rule of Alonso et al. 2013 (§4.4,
// §4.5), no phrase scaling, threshold 0.08, sampled by PackedDarts. It
// equals Config{Mode: Weighted} after defaults. The paper's best setting
// (§4.8) is df⁴: Power 4.
func WeightedConfig() Config {
	return Config{Mode: Weighted, Shingle: DefaultPhraseLen, Sampler: PackedDarts, Weighting: DefaultWeighting, Power: DefaultPower,
		RarePercent: DefaultRarePercent, Rare: RareDocFraction, Scale: ScaleNone, Threshold: DefaultWeightedThreshold}
}

// Upper bounds of the integer options, so that no product or allocation
// they size can overflow or exhaust memory: K values per signature (and
// so Bands, Rows, Supershingles) up to maxNumHashes, phrases of up to
// maxShingle words.
const (
	maxNumHashes = 4096
	maxShingle   = 64
	maxOverlap   = 1 << 20
	maxPower     = 64
)

// withDefaults returns cfg with its zero fields set to their defaults,
// then checks it; the error wraps detector.ErrInvalidConfig and names the
// field. Defaulting and checking are separate steps, so that the check
// sees every field as the Detector will use it.
func (cfg Config) withDefaults() (Config, error) {
	cfg = cfg.setDefaults()
	if err := cfg.validate(); err != nil {
		return Config{}, err
	}
	return cfg, nil
}

// setDefaults fills the zero fields of cfg with the defaults of its Mode.
// It never fails: a field out of range is left for validate.
func (cfg Config) setDefaults() Config {
	if cfg.Shingle == 0 {
		cfg.Shingle = DefaultShingle
		if cfg.Mode == Weighted {
			cfg.Shingle = DefaultPhraseLen
		}
	}
	cfg.NumHashes = cmp.Or(cfg.NumHashes, DefaultNumHashes)
	if cfg.Sampler == DefaultSampler && cfg.Mode == Weighted {
		// Only in Weighted mode: a Jaccard or Containment Config keeps
		// the zero its snapshots have always stored.
		cfg.Sampler = PackedDarts
	}
	if cfg.Threshold == 0 {
		switch cfg.Mode {
		case Weighted:
			cfg.Threshold = DefaultWeightedThreshold
		case Containment:
			cfg.Threshold = DefaultContainmentThreshold
		default:
			cfg.Threshold = DefaultThreshold
		}
	}
	cfg.FalsePositiveWeight = cmp.Or(cfg.FalsePositiveWeight, DefaultFalsePositiveWeight)
	cfg.FalseNegativeWeight = cmp.Or(cfg.FalseNegativeWeight, DefaultFalseNegativeWeight)
	cfg.SupershingleMatches = cmp.Or(cfg.SupershingleMatches, DefaultSupershingleMatches)
	cfg.Power = cmp.Or(cfg.Power, DefaultPower)
	cfg.RarePercent = cmp.Or(cfg.RarePercent, DefaultRarePercent)
	engine.Defaults(&cfg.Content, DefaultContent, &cfg.MaxTextBytes, &cfg.MaxResults)
	if cfg.MinOverlap == 0 {
		cfg.MinOverlap = DefaultMinOverlap
		if cfg.Mode == Weighted {
			cfg.MinOverlap = DefaultWeightedMinOverlap
		}
	}
	return cfg
}

// validate checks a Config whose defaults are set. Integer options are
// bounded before any product is formed, so that no value (2^32 Bands and
// Rows, MaxInt anywhere) can overflow a check and pass.
func (cfg Config) validate() error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("minhash: "+format+": %w", append(args, detector.ErrInvalidConfig)...)
	}
	for _, e := range [...]struct {
		name      string
		v, lo, hi int
	}{
		{"Mode", int(cfg.Mode), int(Jaccard), int(Containment)},
		{"Scheme", int(cfg.Scheme), int(OnePermutation), int(KHash)},
		{"Sampler", int(cfg.Sampler), int(DefaultSampler), int(Darts)},
		{"Weighting", int(cfg.Weighting), int(WeightDFPow), int(WeightIDF)},
		{"Scale", int(cfg.Scale), int(ScaleNone), int(ScaleInverse)},
		{"Rare", int(cfg.Rare), int(RareDocFraction), int(RarePercentile)},
	} {
		if e.v < e.lo || e.v > e.hi {
			return bad("unknown %s %d", e.name, e.v)
		}
	}
	if _, err := textproc.ParseLanguage(cfg.Language); err != nil {
		return fmt.Errorf("minhash: %w", err)
	}
	if cfg.Shingle < 1 || cfg.Shingle > maxShingle {
		return bad("Shingle (%d) must be in [1, %d]", cfg.Shingle, maxShingle)
	}
	if cfg.NumHashes < 1 || cfg.NumHashes > maxNumHashes {
		return bad("NumHashes (%d) must be in [1, %d]", cfg.NumHashes, maxNumHashes)
	}
	if !(cfg.Threshold > 0 && cfg.Threshold <= 1) {
		return bad("Threshold (%v) must be in (0, 1]", cfg.Threshold)
	}
	// Params multiplies each weight by an integral in [0, 1]: a weight
	// must leave room for the sum of two.
	for _, w := range []float64{cfg.FalsePositiveWeight, cfg.FalseNegativeWeight} {
		if !(w > 0 && w <= 1e100) {
			return bad("FalsePositiveWeight and FalseNegativeWeight (%v) must be in (0, 1e100]", w)
		}
	}
	if cfg.Supershingles < 0 || cfg.Supershingles > cfg.NumHashes {
		return bad("Supershingles (%d) must be in [0, NumHashes (%d)]", cfg.Supershingles, cfg.NumHashes)
	}
	if cfg.SupershingleMatches < 1 || cfg.SupershingleMatches > maxNumHashes ||
		cfg.Supershingles > 0 && cfg.SupershingleMatches > cfg.Supershingles {
		return bad("SupershingleMatches (%d) must be in [1, Supershingles (%d)]", cfg.SupershingleMatches, cfg.Supershingles)
	}
	if cfg.Bands < 0 || cfg.Rows < 0 || cfg.Bands > cfg.NumHashes || cfg.Rows > cfg.NumHashes {
		return bad("Bands (%d) and Rows (%d) must be in [0, NumHashes (%d)]", cfg.Bands, cfg.Rows, cfg.NumHashes)
	}
	if (cfg.Bands == 0) != (cfg.Rows == 0) {
		return bad("Bands (%d) and Rows (%d) must be set together", cfg.Bands, cfg.Rows)
	}
	// Both are at most maxNumHashes here: the product cannot overflow.
	if cfg.Bands*cfg.Rows > cfg.NumHashes {
		return bad("Bands·Rows (%d·%d) must not exceed NumHashes (%d)", cfg.Bands, cfg.Rows, cfg.NumHashes)
	}
	if !(cfg.Power > 0 && cfg.Power <= maxPower) {
		return bad("Power (%v) must be in (0, %d]", cfg.Power, maxPower)
	}
	if !(cfg.RarePercent > 0 && cfg.RarePercent <= 100) {
		return bad("RarePercent (%v) must be in (0, 100]", cfg.RarePercent)
	}
	if cfg.MinOverlap < 1 || cfg.MinOverlap > maxOverlap {
		return bad("MinOverlap (%d) must be in [1, 2^20]", cfg.MinOverlap)
	}
	if err := engine.CheckLimits(cfg.Content, cfg.MaxTextBytes, cfg.MaxResults); err != nil {
		return bad("%v", err)
	}
	return nil
}
