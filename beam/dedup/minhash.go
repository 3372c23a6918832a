package dedup

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/evidence"
	"github.com/seed-9ef9c1df/neardup/minhash"
)

// Signed is a document's MinHash signature in the shuffle, with the
// number of distinct shingles it was drawn from (the set size the
// evidence rule of minhash.Config.MinOverlap needs).
type Signed struct {
	ID   string
	Sig  []uint32
	Size int
}

// sized is a representative's signature and set size, keyed by its ID, as
// the verification joins receive it.
type sized struct {
	Sig  []uint32
	Size int
}

// member is a document of an exact-copy class: its ID and set size.
// Copies share a signature but not necessarily a set size.
type member struct {
	ID   string
	Size int
}

// half is a candidate pair after the first verification join: the
// members of A's exact-copy class (A first) and A's signature, keyed by B.
type half struct {
	Members []member
	Sig     []uint32
}

func init() {
	register.DoFn3x1[context.Context, Doc, func(uint64, Signed), error](&signFn{})
	register.DoFn7x1[context.Context, uint64, func(*Signed) bool, func(uint64, string), func(string, sized), func(string, member), func(Pair), error](&collapseFn{})
	register.DoFn4x0[context.Context, uint64, func(*string) bool, func(string, string)](&bucketFn{})
	register.DoFn6x1[context.Context, string, func(*string) bool, func(*sized) bool, func(*member) bool, func(string, half), error](&join1Fn{})
	register.DoFn6x1[context.Context, string, func(*half) bool, func(*sized) bool, func(*member) bool, func(Pair), error](&join2Fn{})
	register.Emitter2[uint64, Signed]()
	register.Emitter2[uint64, string]()
	register.Emitter2[string, sized]()
	register.Emitter2[string, member]()
	register.Emitter2[string, string]()
	register.Emitter2[string, half]()
	register.Emitter1[Pair]()
	register.Iter1[Signed]()
	register.Iter1[string]()
	register.Iter1[sized]()
	register.Iter1[member]()
	register.Iter1[half]()
}

// Metric names, in namespace [Namespace]. The shuffle-byte counters sum
// the payload each stage writes into its shuffle: keys and values at their
// fixed widths (8 bytes per uint64, 4 per signature value), strings at
// their length, without the coders' length prefixes and framing.
const (
	Namespace = "neardup"

	MetricDocs            = "docs"              // documents read by the signing or shingling stage
	MetricSkipped         = "docs_skipped"      // documents over MaxTextBytes
	MetricNoWords         = "docs_no_words"     // documents without a shingle, which match nothing
	MetricCopies          = "exact_copies"      // documents collapsed into an identical signature
	MetricBandRecords     = "band_records"      // (band key, ID) records
	MetricCappedBuckets   = "capped_buckets"    // band buckets above MaxBucket, turned into a star
	MetricCandidates      = "candidate_records" // candidate pairs out of the buckets, before distinct
	MetricDistinctPairs   = "distinct_pairs"    // distinct candidate pairs among representatives
	MetricShuffleCollapse = "shuffle_bytes_collapse"
	MetricShuffleBands    = "shuffle_bytes_bands"
	MetricShuffleJoin1    = "shuffle_bytes_join1"
	MetricShuffleJoin2    = "shuffle_bytes_join2"
)

// DefaultMaxBucket is M, the largest band bucket expanded into all its
// pairs. A bucket of n members costs n(n−1)/2 candidate pairs; at M =
// 1000 that is at most 499,500 verifications of O(K) each (about 50 ms),
// and a bucket beyond it (boilerplate, templates) costs n−1 by a star.
const DefaultMaxBucket = 1000

// MinHashConfig configures [MinHashPairs]. A zero field means its default.
type MinHashConfig struct {
	// Sketch is the signature and banding configuration, as for
	// minhash.New. Only Mode Jaccard without supershingles is distributed.
	Sketch minhash.Config
	// MaxBucket is M: a band bucket of at most M members yields every pair
	// of its members, a larger one a star from its smallest ID to each
	// other member (counted in MetricCappedBuckets). Zero means
	// DefaultMaxBucket; a negative value never caps.
	MaxBucket int
	// NoVerify reports every distinct candidate pair with Score 0 instead
	// of verifying it by the signature estimate; the two joins then carry
	// no signatures.
	NoVerify bool
}

// minhashPlan is a validated MinHashConfig with defaults filled in.
type minhashPlan struct {
	sketch      minhash.Config
	bands, rows int
	maxBucket   int
	minOverlap  int // resolved minhash.Config.MinOverlap
}

func (c MinHashConfig) plan() (minhashPlan, error) {
	sk, err := minhash.NewSketcher(c.Sketch)
	if err != nil {
		return minhashPlan{}, fmt.Errorf("dedup: %w", err)
	}
	cfg := sk.Config()
	if cfg.Mode != minhash.Jaccard || cfg.Supershingles > 0 {
		return minhashPlan{}, fmt.Errorf("dedup: MinHashPairs needs Mode Jaccard without Supershingles (Mode %d, Supershingles %d): %w",
			cfg.Mode, cfg.Supershingles, detector.ErrInvalidConfig)
	}
	p := minhashPlan{sketch: cfg, bands: cfg.Bands, rows: cfg.Rows, maxBucket: c.MaxBucket, minOverlap: cfg.MinOverlap}
	if p.bands == 0 {
		// The banding minhash.New derives (minhash.Params).
		p.bands, p.rows, err = minhash.Params(cfg.Threshold, cfg.NumHashes, cfg.FalsePositiveWeight, cfg.FalseNegativeWeight)
		if err != nil {
			return minhashPlan{}, fmt.Errorf("dedup: %w", err)
		}
	}
	if p.maxBucket == 0 {
		p.maxBucket = DefaultMaxBucket
	}
	return p, nil
}

// MinHashPairs returns the near-duplicate pairs of docs (a PCollection of
// [Doc]) as a PCollection of [Pair]: exactly the pairs, and scores, that a
// minhash.Detector of the same Sketch config reports for the same documents
// when no bucket is capped. The stages are:
//
//  1. sign: one minhash.Sketcher per DoFn instance signs each text and keys
//     it by a digest of the whole signature;
//  2. collapse (GroupByKey on the digest): documents with identical
//     signatures form one class, represented by its smallest ID; every pair
//     inside a class is reported at once (with the estimate of a signature
//     with itself, 1), and only representatives go on;
//  3. band (GroupByKey on the LSH band key, minhash.AppendBandKeys): each
//     bucket yields its candidate pairs, a clique up to MaxBucket members
//     and a star from its smallest ID above that;
//  4. verify (two CoGroupByKeys, on the first ID and then on the second):
//     the first makes the candidates distinct and attaches A's signature,
//     the second B's, and minhash.Similarity decides against Threshold;
//     each verified pair of representatives expands to the pairs of their
//     classes.
//
// Candidates of the same pair from several buckets are verified once.
// Shuffle volume per document is about 4K+|ID|+8 bytes in stage 2,
// bands·(8+|ID|) in stage 3 and 4K+|ID| (its signature) in each join, plus
// per candidate record 2|ID| into the first join and per distinct
// candidate 4K+2|ID| into the second.
//
// It returns an error wrapping detector.ErrInvalidConfig for an invalid
// config (checked when the pipeline is built). At run time the pipeline
// fails on an empty ID, an ID holding a NUL byte, or two documents of one
// ID met in a shuffle; documents over MaxTextBytes are skipped and counted.
func MinHashPairs(s beam.Scope, docs beam.PCollection, cfg MinHashConfig) (beam.PCollection, error) {
	st, err := minhashStages(s, docs, cfg, stageVerify)
	return st.pairs, err
}

// Stages of MinHashPairs, for measuring a prefix of the pipeline.
const (
	stageSign = iota
	stageCollapse
	stageBand
	stageVerify
)

// minhashOut holds the collections of the stages built.
type minhashOut struct {
	signed, bandRecs, cands, pairs beam.PCollection
}

func minhashStages(s beam.Scope, docs beam.PCollection, cfg MinHashConfig, last int) (minhashOut, error) {
	var out minhashOut
	p, err := cfg.plan()
	if err != nil {
		return out, err
	}
	s = s.Scope("dedup.MinHashPairs")
	out.signed = beam.ParDo(s, &signFn{Cfg: p.sketch}, docs)
	if last == stageSign {
		return out, nil
	}
	byDigest := beam.GroupByKey(s, out.signed)
	bandRecs, repSigs, copies, copyPairs := beam.ParDo4(s,
		&collapseFn{Bands: p.bands, Rows: p.rows, NoVerify: cfg.NoVerify}, byDigest)
	out.bandRecs = bandRecs
	if last == stageCollapse {
		return out, nil
	}
	buckets := beam.GroupByKey(s, bandRecs)
	out.cands = beam.ParDo(s, &bucketFn{MaxBucket: p.maxBucket}, buckets)
	if last == stageBand {
		return out, nil
	}
	if cfg.NoVerify {
		repSigs = beam.ParDo(s, dropSig, repSigs)
	}
	halves := beam.ParDo(s, &join1Fn{}, beam.CoGroupByKey(s, out.cands, repSigs, copies))
	pairs := beam.ParDo(s, &join2Fn{Threshold: p.sketch.Threshold, MinOverlap: p.minOverlap, NoVerify: cfg.NoVerify},
		beam.CoGroupByKey(s, halves, repSigs, copies))
	out.pairs = beam.Flatten(s, copyPairs, pairs)
	return out, nil
}

// dropSig discards signatures: the joins of NoVerify carry none.
func dropSig(string, sized, func(string, sized)) {}

func init() {
	register.Function3x0(dropSig)
}

// sigBytes is the shuffle-byte estimate of one signature.
func sigBytes(sig []uint32) int64 { return 4 * int64(len(sig)) }

// sizeBytes is the shuffle-byte estimate of one set size (an int counted at
// 8 bytes, its fixed width).
const sizeBytes = 8

// signFn signs documents; stage 1.
type signFn struct {
	Cfg minhash.Config

	sk                             *minhash.Sketcher
	keys                           []uint64
	docs, skipped, noWords, shufBy beam.Counter
}

func (f *signFn) Setup() error {
	sk, err := minhash.NewSketcher(f.Cfg)
	if err != nil {
		return fmt.Errorf("dedup: %w", err)
	}
	f.sk = sk
	f.docs = beam.NewCounter(Namespace, MetricDocs)
	f.skipped = beam.NewCounter(Namespace, MetricSkipped)
	f.noWords = beam.NewCounter(Namespace, MetricNoWords)
	f.shufBy = beam.NewCounter(Namespace, MetricShuffleCollapse)
	return nil
}

func (f *signFn) ProcessElement(ctx context.Context, d Doc, emit func(uint64, Signed)) error {
	if err := checkID(d.ID); err != nil {
		return err
	}
	f.docs.Inc(ctx, 1)
	limit := f.Cfg.MaxTextBytes
	if limit == 0 {
		limit = detector.DefaultMaxTextBytes
	}
	if len(d.Text) > limit {
		f.skipped.Inc(ctx, 1)
		return nil
	}
	sig, size := f.sk.AppendSignature(nil, d.Text)
	if size == 0 {
		f.noWords.Inc(ctx, 1)
		return nil // a text without words matches nothing
	}
	// The whole signature as one band: a digest of all K values.
	f.keys = minhash.AppendBandKeys(f.keys[:0], sig, 1, len(sig))
	f.shufBy.Inc(ctx, 8+int64(len(d.ID))+sigBytes(sig)+sizeBytes)
	emit(f.keys[0], Signed{ID: d.ID, Sig: sig, Size: size})
	return nil
}

// collapseFn turns each group of one signature digest into classes of
// identical signatures; stage 2. Outputs: band records of the
// representatives, their signatures keyed by ID, (representative, copy)
// records, and the pairs inside each class.
type collapseFn struct {
	Bands, Rows int
	NoVerify    bool // the joins get no signatures

	keys                                    []uint64
	copies, bandRecs, shufB, shufJ1, shufJ2 beam.Counter
}

func (f *collapseFn) Setup() {
	f.copies = beam.NewCounter(Namespace, MetricCopies)
	f.bandRecs = beam.NewCounter(Namespace, MetricBandRecords)
	f.shufB = beam.NewCounter(Namespace, MetricShuffleBands)
	f.shufJ1 = beam.NewCounter(Namespace, MetricShuffleJoin1)
	f.shufJ2 = beam.NewCounter(Namespace, MetricShuffleJoin2)
}

func (f *collapseFn) ProcessElement(ctx context.Context, _ uint64, iter func(*Signed) bool,
	band func(uint64, string), sigs func(string, sized), copies func(string, member), pairs func(Pair)) error {
	var all []Signed
	var d Signed
	for iter(&d) {
		all = append(all, d)
	}
	// Classes of equal signatures (a digest collision splits a group).
	slices.SortFunc(all, func(a, b Signed) int {
		if c := slices.Compare(a.Sig, b.Sig); c != 0 {
			return c
		}
		if a.ID < b.ID {
			return -1
		}
		if a.ID > b.ID {
			return 1
		}
		return 0
	})
	for i := 0; i < len(all); {
		j := i + 1
		for j < len(all) && slices.Equal(all[j].Sig, all[i].Sig) {
			j++
		}
		class := all[i:j]
		rep := class[0]
		for k := 1; k < len(class); k++ {
			if class[k].ID == class[k-1].ID {
				return fmt.Errorf("dedup: document %q appears twice: %w", class[k].ID, detector.ErrDuplicateID)
			}
		}
		if len(class) > 1 {
			score := minhash.Similarity(rep.Sig, rep.Sig)
			for a := range class {
				for b := a + 1; b < len(class); b++ {
					pairs(Pair{A: class[a].ID, B: class[b].ID, Score: score})
				}
				if a > 0 {
					copies(rep.ID, member{ID: class[a].ID, Size: class[a].Size})
					// Each copy record goes into both joins.
					f.shufJ1.Inc(ctx, int64(len(rep.ID)+len(class[a].ID))+sizeBytes)
					f.shufJ2.Inc(ctx, int64(len(rep.ID)+len(class[a].ID))+sizeBytes)
				}
			}
			f.copies.Inc(ctx, int64(len(class)-1))
		}
		sigs(rep.ID, sized{Sig: rep.Sig, Size: rep.Size})
		if !f.NoVerify {
			// Every representative's signature and size go into both joins.
			f.shufJ1.Inc(ctx, int64(len(rep.ID))+sigBytes(rep.Sig)+sizeBytes)
			f.shufJ2.Inc(ctx, int64(len(rep.ID))+sigBytes(rep.Sig)+sizeBytes)
		}
		f.keys = minhash.AppendBandKeys(f.keys[:0], rep.Sig, f.Bands, f.Rows)
		for _, k := range f.keys {
			band(k, rep.ID)
		}
		f.bandRecs.Inc(ctx, int64(len(f.keys)))
		f.shufB.Inc(ctx, int64(len(f.keys))*(8+int64(len(rep.ID))))
		i = j
	}
	return nil
}

// bucketFn turns a band bucket into candidate pairs (A < B), keyed by A;
// stage 3.
type bucketFn struct {
	MaxBucket int

	capped, cands, shufJ beam.Counter
}

func (f *bucketFn) Setup() {
	f.capped = beam.NewCounter(Namespace, MetricCappedBuckets)
	f.cands = beam.NewCounter(Namespace, MetricCandidates)
	f.shufJ = beam.NewCounter(Namespace, MetricShuffleJoin1)
}

func (f *bucketFn) ProcessElement(ctx context.Context, _ uint64, iter func(*string) bool, emit func(string, string)) {
	var ids []string
	var id string
	for iter(&id) {
		ids = append(ids, id)
	}
	if len(ids) < 2 {
		return
	}
	slices.Sort(ids)
	var n, bytes int64
	if f.MaxBucket > 0 && len(ids) > f.MaxBucket {
		// A hot bucket: a star from the smallest ID keeps the bucket
		// connected (for clusters) at n−1 candidates instead of n(n−1)/2.
		f.capped.Inc(ctx, 1)
		for _, b := range ids[1:] {
			emit(ids[0], b)
			n++
			bytes += int64(len(ids[0]) + len(b))
		}
	} else {
		for i, a := range ids {
			for _, b := range ids[i+1:] {
				emit(a, b)
				n++
				bytes += int64(len(a) + len(b))
			}
		}
	}
	f.cands.Inc(ctx, n)
	f.shufJ.Inc(ctx, bytes)
}

// join1Fn meets the candidates of A with A's signature and copies; stage
// 4, first join. It makes the candidates distinct and sends each, with A's
// class and signature, to B.
type join1Fn struct {
	distinct, shufJ beam.Counter
}

func (f *join1Fn) Setup() {
	f.distinct = beam.NewCounter(Namespace, MetricDistinctPairs)
	f.shufJ = beam.NewCounter(Namespace, MetricShuffleJoin2)
}

func (f *join1Fn) ProcessElement(ctx context.Context, a string, bs func(*string) bool, sigs func(*sized) bool,
	copies func(*member) bool, emit func(string, half)) error {
	var others []string
	var b string
	for bs(&b) {
		others = append(others, b)
	}
	if len(others) == 0 {
		return nil
	}
	sig, err := onlySig(a, sigs)
	if err != nil {
		return err
	}
	members := classOf(a, sig.Size, copies)
	slices.Sort(others)
	others = slices.Compact(others)
	f.distinct.Inc(ctx, int64(len(others)))
	h := half{Members: members, Sig: sig.Sig}
	var per int64 = sigBytes(sig.Sig)
	for _, m := range members {
		per += int64(len(m.ID)) + sizeBytes
	}
	for _, b := range others {
		f.shufJ.Inc(ctx, per+int64(len(b)))
		emit(b, h)
	}
	return nil
}

// join2Fn meets each half pair with B's signature and copies, verifies it
// and emits the pairs of the two classes; stage 4, second join. A pair of
// estimate J ≥ Threshold is reported when J = 1 or when its estimated
// shared shingles, J/(1+J)·(|A|+|B|), are evidence enough (see
// evidence.Enough of the core), the rule minhash.Detector applies.
type join2Fn struct {
	Threshold  float64
	MinOverlap int // resolved minhash.Config.MinOverlap
	NoVerify   bool
}

func (f *join2Fn) ProcessElement(_ context.Context, b string, halves func(*half) bool, sigs func(*sized) bool,
	copies func(*member) bool, emit func(Pair)) error {
	var hs []half
	var h half
	for halves(&h) {
		hs = append(hs, h)
		h = half{}
	}
	if len(hs) == 0 {
		return nil
	}
	sig, err := onlySig(b, sigs)
	if err != nil {
		return err
	}
	members := classOf(b, sig.Size, copies)
	for _, h := range hs {
		score := 0.0
		if !f.NoVerify {
			if len(h.Sig) != len(sig.Sig) {
				return fmt.Errorf("dedup: signatures of %q and %q have %d and %d values", h.Members[0].ID, b, len(h.Sig), len(sig.Sig))
			}
			score = minhash.Similarity(h.Sig, sig.Sig)
			if score < f.Threshold {
				continue
			}
		}
		for _, x := range h.Members {
			for _, y := range members {
				// Copies share the signature, not the set size: the
				// evidence is decided per pair of members.
				if !f.NoVerify && score != 1 && !evidence.Enough(score/(1+score)*float64(x.Size+y.Size), float64(min(x.Size, y.Size)), float64(f.MinOverlap)) {
					continue
				}
				a, c := ordered(x.ID, y.ID)
				emit(Pair{A: a, B: c, Score: score})
			}
		}
	}
	return nil
}

// onlySig reads the one signature of id from a join (none under NoVerify).
func onlySig(id string, sigs func(*sized) bool) (sized, error) {
	var sig, s sized
	n := 0
	for sigs(&s) {
		sig = s
		s = sized{}
		n++
	}
	if n > 1 {
		return sized{}, fmt.Errorf("dedup: document %q appears %d times: %w", id, n, detector.ErrDuplicateID)
	}
	return sig, nil
}

// classOf returns rep (of set size size) followed by its copies, sorted
// by ID.
func classOf(rep string, size int, copies func(*member) bool) []member {
	members := []member{{ID: rep, Size: size}}
	var c member
	for copies(&c) {
		members = append(members, c)
	}
	slices.SortFunc(members[1:], func(a, b member) int { return strings.Compare(a.ID, b.ID) })
	return members
}
