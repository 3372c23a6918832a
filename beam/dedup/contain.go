package dedup

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/evidence"
	"github.com/seed-9ef9c1df/neardup/shingle"
)

// posting is one document in a shingle's posting list: its ID and how
// many features (shingles, or DSC samples) it has.
type posting struct {
	ID   string
	Size int
}

func init() {
	register.DoFn3x1[context.Context, Doc, func(uint64, posting), error](&shingleFn{})
	register.DoFn4x0[context.Context, uint64, func(*posting) bool, func(string, int)](&postingFn{})
	register.DoFn4x1[context.Context, string, int, func(Contained), error](&overlapFn{})
	register.Function2x1(sumInts)
	register.Emitter2[uint64, posting]()
	register.Emitter2[string, int]()
	register.Emitter1[Contained]()
	register.Iter1[posting]()
}

// Containment metric names, in namespace [Namespace].
const (
	MetricCappedShingles  = "capped_shingles"        // shingles above MaxDF, left out of the overlap
	MetricPairRecords     = "overlap_records"        // (pair, 1) records out of the posting lists
	MetricShufflePostings = "shuffle_bytes_postings" // (shingle, posting) records
	MetricShuffleOverlap  = "shuffle_bytes_overlap"  // (pair, 1) records, before combining
)

// DefaultMaxDF is the largest posting list [Containment] expands: a
// shingle in n documents costs n(n−1)/2 pair records, about 500,000 at
// 1000; a shingle that common is boilerplate or a quotation rather than
// evidence of containment.
const DefaultMaxDF = 1000

const (
	pairSep                = "\x00"
	containmentScopeName   = "dedup.Containment"
	containmentMethodError = "dedup: Containment needs FullFingerprint or DSC with SampleModulus or SampleStride and no SuperShingle"
)

// ContainmentConfig configures [Containment]. A zero field means its
// default.
type ContainmentConfig struct {
	// Shingle is the feature configuration, as for shingle.New: Method
	// FullFingerprint, or DSC with SampleModulus or SampleStride sampling
	// and no SuperShingle (the samples are then compared as sets, as the
	// Detector does).
	Shingle shingle.Config
	// MaxDF caps the document frequency of a shingle: a shingle in more
	// than MaxDF documents (boilerplate, quotations) yields no overlap and
	// is counted in MetricCappedShingles, so a reported score is the
	// overlap over the other shingles, a lower bound, and a pair whose
	// overlap lies in capped shingles is missed. The set sizes stay whole,
	// so a lowered overlap can also lift the part-of rule: a part whose
	// overlap with its whole fell below 90% of the part, by capped
	// shingles alone, may then be reported as its container. A posting
	// list of n documents costs n(n−1)/2 pair records. Zero means
	// DefaultMaxDF;
	// a negative value never caps.
	MaxDF int
}

// Containment returns the containment relations among docs (a PCollection
// of [Doc]) as a PCollection of [Contained]: with no shingle capped, exactly
// the (document, container, score) triples that a shingle.Detector of the
// same config reports by Containers. The stages are:
//
//  1. shingle: shingle.Extract per document, one (shingle, posting) record
//     per distinct shingle;
//  2. invert (GroupByKey on the shingle): each posting list of at most MaxDF
//     documents yields one (A, B) record per pair of its members;
//  3. overlap (CombinePerKey, a sum lifted before the shuffle): the number
//     m of shared shingles per pair; A ⊆ B is reported when m/|A| reaches
//     Threshold and either m = |A| or m is evidence enough
//     (shingle.Config.MinOverlap) and B is not a part of A; B ⊆ A likewise,
//     each with its ratio as the score.
//
// The set sizes travel in the postings and in the pair key, so no join is
// needed. Shuffle volume is 8+|ID|+8 bytes per shingle occurrence in stage 2
// and, per pair of documents sharing m shingles, up to m records before
// the combiner (one after it, per worker bundle).
//
// It returns an error wrapping detector.ErrInvalidConfig for an invalid
// config. At run time the pipeline fails on an empty ID or an ID holding a
// NUL byte; documents over MaxTextBytes are skipped and counted.
func Containment(s beam.Scope, docs beam.PCollection, cfg ContainmentConfig) (beam.PCollection, error) {
	// The Detector's own resolution of the config (defaults by Method,
	// Threshold, MinOverlap, the content filter), so that the pipeline
	// decides as its Containers does.
	d, err := shingle.New(cfg.Shingle)
	if err != nil {
		return beam.PCollection{}, fmt.Errorf("dedup: %w", err)
	}
	sc := d.Config()
	switch {
	case sc.Method == shingle.FullFingerprint:
	case sc.Method == shingle.DSC && sc.SuperShingle == 0 && (sc.Sampling == shingle.SampleModulus || sc.Sampling == shingle.SampleStride):
	default:
		return beam.PCollection{}, fmt.Errorf("%s (Method %v, Sampling %v, SuperShingle %d): %w",
			containmentMethodError, sc.Method, sc.Sampling, sc.SuperShingle, detector.ErrInvalidConfig)
	}
	maxDF := cfg.MaxDF
	if maxDF == 0 {
		maxDF = DefaultMaxDF
	}
	maxText := sc.MaxTextBytes
	if maxText == 0 {
		maxText = detector.DefaultMaxTextBytes
	}
	s = s.Scope(containmentScopeName)
	posts := beam.ParDo(s, &shingleFn{Cfg: sc, MaxText: maxText}, docs)
	pairs := beam.ParDo(s, &postingFn{MaxDF: maxDF}, beam.GroupByKey(s, posts))
	overlaps := beam.CombinePerKey(s, sumInts, pairs)
	return beam.ParDo(s, &overlapFn{Threshold: sc.Threshold, MinOverlap: sc.MinOverlap}, overlaps), nil
}

func sumInts(a, b int) int { return a + b }

// shingleFn extracts each document's features; stage 1.
type shingleFn struct {
	Cfg     shingle.Config
	MaxText int

	docs, skipped, noWords, shuf beam.Counter
}

func (f *shingleFn) Setup() {
	f.docs = beam.NewCounter(Namespace, MetricDocs)
	f.skipped = beam.NewCounter(Namespace, MetricSkipped)
	f.noWords = beam.NewCounter(Namespace, MetricNoWords)
	f.shuf = beam.NewCounter(Namespace, MetricShufflePostings)
}

func (f *shingleFn) ProcessElement(ctx context.Context, d Doc, emit func(uint64, posting)) error {
	if err := checkID(d.ID); err != nil {
		return err
	}
	f.docs.Inc(ctx, 1)
	if len(d.Text) > f.MaxText {
		f.skipped.Inc(ctx, 1)
		return nil
	}
	feat, err := shingle.Extract(f.Cfg, d.Text)
	if err != nil {
		return fmt.Errorf("dedup: %w", err)
	}
	if len(feat.Hashes) == 0 {
		f.noWords.Inc(ctx, 1)
		return nil
	}
	p := posting{ID: d.ID, Size: len(feat.Hashes)}
	for _, h := range feat.Hashes { // distinct: Extract sorts and compacts
		emit(h, p)
	}
	f.shuf.Inc(ctx, int64(len(feat.Hashes))*(16+int64(len(d.ID))))
	return nil
}

// postingFn turns a posting list into one record per pair of its members;
// stage 2. The key is "A\x00B\x00|A|\x00|B|" with A < B.
type postingFn struct {
	MaxDF int

	capped, recs, shuf beam.Counter
}

func (f *postingFn) Setup() {
	f.capped = beam.NewCounter(Namespace, MetricCappedShingles)
	f.recs = beam.NewCounter(Namespace, MetricPairRecords)
	f.shuf = beam.NewCounter(Namespace, MetricShuffleOverlap)
}

func (f *postingFn) ProcessElement(ctx context.Context, _ uint64, iter func(*posting) bool, emit func(string, int)) {
	var list []posting
	var p posting
	for iter(&p) {
		list = append(list, p)
		if f.MaxDF > 0 && len(list) > f.MaxDF {
			f.capped.Inc(ctx, 1)
			return
		}
	}
	if len(list) < 2 {
		return
	}
	slices.SortFunc(list, func(a, b posting) int { return strings.Compare(a.ID, b.ID) })
	var n, bytes int64
	for i, a := range list {
		for _, b := range list[i+1:] {
			if a.ID == b.ID {
				continue // one document twice: never its own container
			}
			k := pairKey(a, b)
			emit(k, 1)
			n++
			bytes += int64(len(k)) + 8
		}
	}
	f.recs.Inc(ctx, n)
	f.shuf.Inc(ctx, bytes)
}

func pairKey(a, b posting) string {
	return a.ID + pairSep + b.ID + pairSep + strconv.Itoa(a.Size) + pairSep + strconv.Itoa(b.Size)
}

// overlapFn decides both directions of a pair from its overlap; stage 3.
// C ⊇ A is reported, as shingle.Detector.Containers does, when m/|A|
// reaches Threshold and either C holds all of A (m = |A|) or the overlap
// is evidence enough and C is not a part of A (evidence.Enough and
// evidence.PartOf, the core's rules).
type overlapFn struct {
	Threshold  float64
	MinOverlap int // resolved shingle.Config.MinOverlap
}

func (f *overlapFn) ProcessElement(_ context.Context, key string, m int, emit func(Contained)) error {
	parts := strings.Split(key, pairSep)
	if len(parts) != 4 {
		return fmt.Errorf("dedup: malformed pair key %q", key)
	}
	na, err1 := strconv.Atoi(parts[2])
	nb, err2 := strconv.Atoi(parts[3])
	if err1 != nil || err2 != nil || na < 1 || nb < 1 {
		return fmt.Errorf("dedup: malformed pair key %q", key)
	}
	// "if document d_C contains 60% of d_A's hash values, then d_C ⊇ d_A"
	// (Varol 2012 §4.1.2): |S(A) ∩ S(C)| / |S(A)| ≥ θ.
	if s := float64(m) / float64(na); s >= f.Threshold && f.contains(m, nb, na) {
		emit(Contained{Doc: parts[0], Container: parts[1], Score: s})
	}
	if s := float64(m) / float64(nb); s >= f.Threshold && f.contains(m, na, nb) {
		emit(Contained{Doc: parts[1], Container: parts[0], Score: s})
	}
	return nil
}

// contains reports whether a container of c features, sharing m with a
// document of a features whose share m/a already reached Threshold, is
// reported: all of the document (m = a), or evidence enough and not a part
// of the document.
func (f *overlapFn) contains(m, c, a int) bool {
	return m == a || evidence.Enough(float64(m), float64(min(a, c)), float64(f.MinOverlap)) &&
		!evidence.PartOf(float64(m), float64(c), float64(a))
}
