package codet

import (
	"cmp"
	"fmt"
	"math"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/engine"
	"github.com/seed-9ef9c1df/neardup/textproc"
)

// Defaults. Each cites its source in Varol 2012 (Varol, "CoDet: a new
// algorithm for containment and near duplicate detection in text
// corpora", M.S. thesis, Bilkent University) or Varol et al. 2011 (Varol,
// Can, Aykanat, Kaya, "CoDet: sentence-based containment detection in news
// corpora", CIKM 2011), or, marked "ours", says how it was chosen where the
// papers are silent.
const (
	// DefaultDepthThreshold is DT, the number of (idf-sorted) words of a
	// sentence that are scored: "DT value of 5 gives the best result"
	// (Varol 2012 §5.2.2; Varol et al. 2011 §5.1).
	DefaultDepthThreshold = 5
	// DefaultDepthScorePower is DSP, the exponent of the depth factor of a
	// node's impact, depth^DSP × idf (Varol 2012 §5.2.4, Table 5.1: DSP = 1,
	// F1 0.76, the form of Eq. 3.2).
	DefaultDepthScorePower = 1
	// DefaultSuffixCount is PSC, the number of suffixes of each sorted
	// sentence inserted into the tree. PSC barely changes F1 (Varol 2012
	// §5.2.1, Fig. 5.1); its best value is not stated. Ours, 1: the sentence
	// itself, the least space.
	DefaultSuffixCount = 1
	// DefaultETL is the equivalency threshold level: C ⊇ A iff
	// CS(C, A)/SCS(A) > ETL (Varol 2012 §3.2) and C is not itself a part
	// of A (Config.BothDirections). The papers never state it. Ours, 0.15:
	// the value of TestQualitySweep (CODET_SWEEP=1) that meets the most
	// containment targets, then has the best Gold Set development F1
	// (rule and figures: docs/codet.md, docs/notes/codet.md).
	DefaultETL = 0.15
	// DefaultMinScore is the default Config.MinScore (ours: it keeps short
	// notices written from one template from joining into one cluster).
	DefaultMinScore = 80.0
	// DefaultNodeLimit is the visitor-list size above which a node is
	// deactivated (Varol 2012 Alg. 2, value not stated). Ours, 200, from
	// TestNodeLimitSweep and BenchmarkScale (docs/notes/codet.md).
	DefaultNodeLimit = 200
	// DefaultCollapseThreshold is the mutual CS/SCS from which
	// [CollapseNear] represents a new document by a live one. Ours: the
	// papers only suggest dropping one of two near-duplicates (Varol 2012
	// §3.3.1).
	DefaultCollapseThreshold = 0.9
)

// Mode selects how repeated prefixes are counted.
type Mode int

const (
	// ModeTree is Algorithms 2-3 (Varol 2012 §3.2): a node visited n
	// times by one document and m times by another adds its impact
	// min(n, m) times to their CS (Alg. 2 as written adds it n times,
	// which depends on which came first). The default.
	ModeTree Mode = iota
	// ModePairwise counts n·m, Eq. 3.1 over all sentence pairs truncated
	// at DT; it equals [Score] up to the rounding of floating-point sums
	// (which add in another order).
	ModePairwise
)

// Collapse selects how documents with the same content are represented.
type Collapse int

const (
	// CollapseExact represents a document whose content, as the tree sees
	// it (each sentence's terms), is a live document's by that document
	// (Varol 2012 §3.3.1), compared by a 128-bit hash: the copy is not
	// inserted, its relations are its representative's (those the tree
	// would compute for it) and copies contain each other with Score 1.
	// The default.
	CollapseExact Collapse = iota
	// CollapseOff inserts every document into the tree, as the papers'
	// experiments did. N identical documents then cost O(N²) time.
	CollapseOff
	// CollapseNear does what CollapseExact does, and also represents a new
	// document d by a live content R it is a near-duplicate of (CS/SCS
	// above ETL and at least Config.CollapseThreshold both ways): d is not
	// inserted, and its relations are derived from R's, with R's scores
	// (relations R lacks are lost). R stays in the tree while any document
	// it represents is live.
	CollapseNear
)

// IDFSource selects where [New] takes its term weights from.
type IDFSource int

const (
	// IDFReference weighs terms with the embedded frozen table of the
	// language (English: Reuters-21578 and BBC News; Turkish: TTC-3600)
	// when the text pipeline is the one it was built with, else as
	// [IDFOnline]. Frozen weights make the relations independent of the
	// arrival order. The default.
	IDFReference IDFSource = iota
	// IDFOnline learns the table from the stream, as the thesis does:
	// each document's terms are counted before it is scored, so the
	// relations depend somewhat on the arrival order.
	IDFOnline
)

// Config configures a [Detector]. The zero value is the configuration of
// Varol 2012 ch. 5 with the defaults above. Every field is a plain value, so
// a Config can be printed, compared and stored.
type Config struct {
	// Language is the BCP 47 tag of the text pipeline (textproc.RuleSet):
	// "tr" for the papers' collection (Varol 2012 §4.2), "en", ...; "" is
	// language-neutral.
	Language string
	// KeepStopwords disables stopword removal (Varol 2012 §5.1.2: removal
	// does not change F1; it is on in every reported run).
	KeepStopwords bool
	// Stemmer selects the stemmer; zero (textproc.StemDefault) is
	// textproc.StemPrefix, first-N stemming (Varol 2012 §5.1.1: F1 0.76
	// against 0.74 without stemming); textproc.StemNone disables it.
	Stemmer textproc.Stemmer
	// PrefixLen is the first-N stemmer's length in runes: 0 means
	// [textproc.DefaultPrefixLen] (first-5).
	PrefixLen int
	// NoWordSort disables sorting a sentence's words by idf, descending
	// (WS, Varol 2012 §5.2.3): an ablation. Ties are broken by term, so the
	// order is deterministic.
	NoWordSort bool
	// DepthThreshold is DT: only the first DT words of each (sorted)
	// sentence are scored; 0 means [DefaultDepthThreshold]. At most 64.
	DepthThreshold int
	// DepthScorePower is DSP in idf × depth^DSP (Alg. 3); 0 means
	// [DefaultDepthScorePower]. Set NoDepthScore for DSP = 0. At most 8.
	DepthScorePower int
	// NoDepthScore turns depth scoring off (Alg. 3's "else" branch: the
	// impact is idf alone), which is DSP = 0 of Table 5.1.
	NoDepthScore bool
	// SuffixCount is PSC: how many suffixes of each sorted sentence are
	// inserted; 0 means [DefaultSuffixCount]. At most 64.
	SuffixCount int
	// ETL is the equivalency threshold level in (0, 10]; 0 means
	// [DefaultETL].
	ETL float64
	// MinScore is the evidence a relation needs beyond ETL: CS(C, A) at
	// least MinScore, or 80% of the smaller document's SCS when that is
	// below MinScore/0.8, so that short notices written from one template
	// are not related by their shared openings. 0 means [DefaultMinScore];
	// a negative value turns the rule off.
	MinScore float64
	// NodeLimit is the visitor-list size above which a node is deactivated
	// for good (Alg. 2); 0 means [DefaultNodeLimit] and a negative value
	// means no limit (the papers' fidelity setting).
	NodeLimit int
	// Mode selects tree (Alg. 2-3, default) or pairwise (Eq. 3.1) scoring.
	Mode Mode
	// Collapse selects how identical (and, with [CollapseNear],
	// near-identical) contents are represented.
	Collapse Collapse
	// CollapseThreshold is the mutual CS/SCS score from which
	// [CollapseNear] represents a new document by a live one, in [0, 10];
	// 0 means [DefaultCollapseThreshold]. Other modes ignore it.
	CollapseThreshold float64
	// SCSPairs computes SCS by Eq. 3.3 over all sentence pairs (truncated
	// at DT) even in ModeTree; by default SCS uses the tree's own scoring,
	// so an exact duplicate scores 1 (with [CollapseOff], where a copy is
	// scored rather than collapsed, 1 up to the rounding of floating-point
	// sums: 0.9999999999999998, say).
	SCSPairs bool
	// Window, when positive, keeps only the last Window documents (Varol
	// et al. 2011 §3.3, "time window"): Add first removes the oldest. 0
	// keeps every document until Remove or [Detector.Expire].
	Window int
	// BothDirections reports C ⊇ A whenever CS(C, A)/SCS(A) > ETL, as
	// the thesis does (Varol 2012 §3.2). By default a C found in A for at
	// least 0.9 of its SCS contains A only if A is found in C for as much:
	// a part does not contain its whole.
	BothDirections bool
	// IDF selects the term weights of [New]: the language's reference table
	// ([IDFReference], the default) or an online table ([IDFOnline]).
	// [NewWithIDF] ignores it.
	IDF IDFSource
	// MaxResults caps the matches Add, Containers and Query return, in
	// detector.SortMatches order; 0 means detector.DefaultMaxResults and a
	// negative value is rejected. [Detector.Copies] is not capped.
	MaxResults int
	// MaxTextBytes is the largest text Add accepts; 0 means
	// [detector.DefaultMaxTextBytes].
	MaxTextBytes int
	// Content selects the part of each text that is read: its main
	// content (textproc.ContentMain) or all of it (textproc.ContentAll);
	// zero means DefaultContent. Matched spans point into the whole text.
	Content textproc.Content
}

// settings is a validated Config with defaults filled in.
type settings struct {
	Config
	tc  textproc.Config // the analyzers' text pipeline
	dt  int
	dsp int
	psc int
	etl float64
	// minScore is MinScore resolved (0: no evidence rule).
	minScore float64
	near     float64 // CollapseThreshold resolved
	limit    int     // math.MaxInt when unlimited
	pow      []float64
}

// DefaultContent is the part of a text read by default: the main content,
// boilerplate blocks skipped (textproc.ContentFilter).
const DefaultContent = textproc.ContentMain

// setDefaults fills every zero field that has a default, giving the
// effective Config ([Detector.Config]). Negative MinScore and NodeLimit
// (off, no limit) are kept as they are.
func (c *Config) setDefaults() {
	c.DepthThreshold = cmp.Or(c.DepthThreshold, DefaultDepthThreshold)
	c.DepthScorePower = cmp.Or(c.DepthScorePower, DefaultDepthScorePower)
	c.SuffixCount = cmp.Or(c.SuffixCount, DefaultSuffixCount)
	c.ETL = cmp.Or(c.ETL, DefaultETL)
	c.MinScore = cmp.Or(c.MinScore, DefaultMinScore)
	c.NodeLimit = cmp.Or(c.NodeLimit, DefaultNodeLimit)
	c.CollapseThreshold = cmp.Or(c.CollapseThreshold, DefaultCollapseThreshold)
	engine.Defaults(&c.Content, DefaultContent, &c.MaxTextBytes, &c.MaxResults)
	c.Stemmer = cmp.Or(c.Stemmer, textproc.StemPrefix)
	c.PrefixLen = cmp.Or(c.PrefixLen, textproc.DefaultPrefixLen)
}

// validate checks a Config whose defaults are set. Errors name the field
// and wrap [detector.ErrInvalidConfig].
func (c *Config) validate() error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("codet: "+format+": %w", append(args, detector.ErrInvalidConfig)...)
	}
	if err := engine.CheckLimits(c.Content, c.MaxTextBytes, c.MaxResults); err != nil {
		return bad("%v", err)
	}
	switch {
	case c.DepthThreshold < 1 || c.DepthThreshold > 64:
		return bad("DepthThreshold (%d) must be in [0, 64]", c.DepthThreshold)
	case c.DepthScorePower < 1 || c.DepthScorePower > 8:
		return bad("DepthScorePower (%d) must be in [0, 8]", c.DepthScorePower)
	case c.SuffixCount < 1 || c.SuffixCount > 64:
		return bad("SuffixCount (%d) must be in [0, 64]", c.SuffixCount)
	case math.IsNaN(c.ETL) || c.ETL <= 0 || c.ETL > 10:
		return bad("ETL (%v) must be in (0, 10]", c.ETL)
	case math.IsNaN(c.MinScore) || math.IsInf(c.MinScore, 0):
		return bad("MinScore (%v) must be finite", c.MinScore)
	case c.Mode != ModeTree && c.Mode != ModePairwise:
		return bad("Mode (%d) must be ModeTree (0) or ModePairwise (1)", c.Mode)
	case c.Collapse != CollapseExact && c.Collapse != CollapseOff && c.Collapse != CollapseNear:
		return bad("Collapse (%d) must be CollapseExact (0), CollapseOff (1) or CollapseNear (2)", c.Collapse)
	case math.IsNaN(c.CollapseThreshold) || c.CollapseThreshold < 0 || c.CollapseThreshold > 10:
		return bad("CollapseThreshold (%v) must be in [0, 10]", c.CollapseThreshold)
	case c.IDF != IDFReference && c.IDF != IDFOnline:
		return bad("IDF (%d) must be IDFReference (0) or IDFOnline (1)", c.IDF)
	case c.Window < 0:
		return bad("Window (%d) must be ≥ 0", c.Window)
	case c.PrefixLen < 0 || c.PrefixLen > 1000:
		return bad("PrefixLen (%d) must be in [0, 1000]", c.PrefixLen)
	}
	return nil
}

// resolve sets the defaults of c, validates it and derives the settings.
func (c Config) resolve() (settings, error) {
	c.setDefaults()
	if err := c.validate(); err != nil {
		return settings{}, err
	}
	tc, err := engine.Pipeline(c.Language, c.KeepStopwords, c.Stemmer, textproc.StemPrefix, c.PrefixLen)
	if err != nil {
		return settings{}, fmt.Errorf("codet: %w", err)
	}
	tc.Content = c.Content
	s := settings{Config: c, tc: tc, dt: c.DepthThreshold, dsp: c.DepthScorePower, psc: c.SuffixCount,
		etl: c.ETL, minScore: max(c.MinScore, 0), near: c.CollapseThreshold, limit: c.NodeLimit}
	if c.NoDepthScore {
		s.dsp = 0
	}
	if c.NodeLimit < 0 {
		s.limit = math.MaxInt
	}
	// Alg. 3: improvement ← idf × depth^DSP; pow[depth] for depth 1..DT.
	s.pow = make([]float64, s.dt+1)
	for k := 1; k <= s.dt; k++ {
		s.pow[k] = math.Pow(float64(k), float64(s.dsp))
	}
	return s, nil
}
