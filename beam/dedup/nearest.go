package dedup

import (
	"cmp"
	"fmt"
	"reflect"
	"slices"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/minhash"
)

// Neighbour is one entry of a document's ranked neighbours: a document
// and its estimated Jaccard similarity to it.
type Neighbour struct {
	ID    string  `json:"id"`
	Score float64 `json:"score"`
}

// Neighbours is a document's top-k MinHash neighbours, best first (equal
// scores by ID), without the document itself.
type Neighbours struct {
	ID         string      `json:"id"`
	Neighbours []Neighbour `json:"neighbours"`
}

// ranked is a document's first-step candidates after scoring: every one
// with a positive estimate.
type ranked struct {
	Scored []Neighbour
}

// NearestConfig configures [Nearest]. A zero field means its default.
type NearestConfig struct {
	// Sketch is the signature and banding configuration, as for
	// minhash.New. Only Mode Jaccard without supershingles is distributed.
	Sketch minhash.Config
	// K is the number of neighbours per document; it must be at least 1.
	K int
}

// nearestWidenSeeds is the number of best first-step neighbours whose
// band neighbours the second step scores, as minhash.Detector.Nearest
// widens in Jaccard mode.
const nearestWidenSeeds = 8

func init() {
	for _, t := range []any{Neighbour{}, Neighbours{}, ranked{}, nnList{}} {
		beam.RegisterType(reflect.TypeOf(t))
	}
	register.DoFn3x0[uint64, func(*string) bool, func(string, string)](&nnBucketFn{})
	register.DoFn4x0[string, func(*string) bool, func(string, nnList), func(string, string)](&nnListFn{})
	register.DoFn4x0[string, func(*string) bool, func(*sized) bool, func(string, Signed)](&nnAttachFn{})
	register.DoFn5x0[string, func(*Signed) bool, func(*sized) bool, func(string, ranked), func(string, string)](&nnFirstFn{})
	register.DoFn4x0[string, func(*string) bool, func(*nnList) bool, func(string, string)](&nnWidenFn{})
	register.DoFn5x1[string, func(*ranked) bool, func(*Signed) bool, func(*sized) bool, func(Neighbours), error](&nnFinalFn{})
	register.Emitter2[string, nnList]()
	register.Emitter2[string, ranked]()
	register.Emitter1[Neighbours]()
	register.Iter1[nnList]()
	register.Iter1[ranked]()
	register.DoFn2x0[Signed, func(uint64, string)](&nnBandFn{})
	register.DoFn2x0[Signed, func(string, sized)](&nnSigFn{})
}

// nnList is a document's band neighbours, sorted, itself included.
type nnList struct {
	IDs []string
}

// Nearest returns the top K MinHash neighbours of every document of docs
// (a PCollection of [Doc]) with words, as a PCollection of [Neighbours]:
// exactly what minhash.Detector.Nearest(text, K+1) gives with the
// document itself dropped (cut to K), for a Detector of the same Sketch
// config holding docs added in ascending ID order, as long as no band key
// is shared by more than 1,024 distinct contents (the Detector reads the
// newest 1,024 of a band key; the pipeline reads them all). Documents
// without words and documents over MaxTextBytes are left out.
//
// The stages follow the Detector's Nearest: band keys (GroupByKey on the
// key) give each document the documents sharing a band key with it, which
// a join with their signatures scores by minhash.Similarity; a document
// with fewer than min(K+1, MaxResults) documents of positive score asks
// the band neighbours of its 8 best neighbours (distinct contents, equal
// scores by smallest ID) to be scored too; the best are kept. Each step is
// a CoGroupByKey, five in all; a band bucket of n documents costs n² pair
// records, so the job suits collections without huge buckets. It returns
// an error wrapping detector.ErrInvalidConfig for an invalid config,
// checked when the pipeline is built.
func Nearest(s beam.Scope, docs beam.PCollection, cfg NearestConfig) (beam.PCollection, error) {
	p, err := MinHashConfig{Sketch: cfg.Sketch}.plan()
	if err != nil {
		return beam.PCollection{}, err
	}
	if cfg.K < 1 {
		return beam.PCollection{}, fmt.Errorf("dedup: Nearest with K = %d, want at least 1: %w", cfg.K, detector.ErrInvalidConfig)
	}
	limit := min(cfg.K+1, p.sketch.MaxResults)
	if limit <= 0 {
		limit = cfg.K + 1
	}
	s = s.Scope("dedup.Nearest")
	signed := beam.DropKey(s, beam.ParDo(s, &signFn{Cfg: p.sketch}, docs))
	sigs := beam.ParDo(s, &nnSigFn{}, signed)
	bands := beam.ParDo(s, &nnBandFn{Bands: p.bands, Rows: p.rows}, signed)
	pairs := beam.ParDo(s, &nnBucketFn{}, beam.GroupByKey(s, bands))
	lists, asks := beam.ParDo2(s, &nnListFn{}, beam.GroupByKey(s, pairs))
	cands := beam.ParDo(s, &nnAttachFn{}, beam.CoGroupByKey(s, asks, sigs))
	first, widen := beam.ParDo2(s, &nnFirstFn{Limit: limit}, beam.CoGroupByKey(s, cands, sigs))
	asks2 := beam.ParDo(s, &nnWidenFn{}, beam.CoGroupByKey(s, widen, lists))
	cands2 := beam.ParDo(s, &nnAttachFn{}, beam.CoGroupByKey(s, asks2, sigs))
	return beam.ParDo(s, &nnFinalFn{Limit: limit, K: cfg.K}, beam.CoGroupByKey(s, first, cands2, sigs)), nil
}

// nnSigFn keys each signature and set size by its document's ID.
type nnSigFn struct{}

func (f *nnSigFn) ProcessElement(d Signed, emit func(string, sized)) {
	emit(d.ID, sized{Sig: d.Sig, Size: d.Size})
}

// nnBandFn emits each document's band keys.
type nnBandFn struct {
	Bands, Rows int

	keys []uint64
}

func (f *nnBandFn) ProcessElement(d Signed, emit func(uint64, string)) {
	f.keys = minhash.AppendBandKeys(f.keys[:0], d.Sig, f.Bands, f.Rows)
	for _, k := range f.keys {
		emit(k, d.ID)
	}
}

// nnBucketFn turns a band bucket into (member, member) records, every
// ordered pair and each member with itself.
type nnBucketFn struct{}

func (f *nnBucketFn) ProcessElement(_ uint64, iter func(*string) bool, emit func(string, string)) {
	var ids []string
	var id string
	for iter(&id) {
		ids = append(ids, id)
	}
	for _, a := range ids {
		for _, b := range ids {
			emit(a, b)
		}
	}
}

// nnListFn makes a document's band neighbours distinct: it emits their
// list, keyed by the document, and one request (neighbour, document) for
// each, for the join with the neighbour's signature.
type nnListFn struct{}

func (f *nnListFn) ProcessElement(q string, iter func(*string) bool, list func(string, nnList), ask func(string, string)) {
	var ids []string
	var id string
	for iter(&id) {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	ids = slices.Compact(ids)
	list(q, nnList{IDs: ids})
	for _, c := range ids {
		ask(c, q)
	}
}

// nnAttachFn sends the signature of the document c to every document that
// asked for it.
type nnAttachFn struct{}

func (f *nnAttachFn) ProcessElement(c string, asks func(*string) bool, sigs func(*sized) bool, emit func(string, Signed)) {
	var sg sized
	if !sigs(&sg) {
		return
	}
	var q string
	for asks(&q) {
		emit(q, Signed{ID: c, Sig: sg.Sig, Size: sg.Size})
	}
}

// nnFirstFn scores the first-step candidates of the document q against its
// signature and, when fewer than Limit score above 0, asks for the band
// neighbours of its nearestWidenSeeds best distinct contents.
type nnFirstFn struct {
	Limit int
}

func (f *nnFirstFn) ProcessElement(q string, cands func(*Signed) bool, sigs func(*sized) bool, emit func(string, ranked), widen func(string, string)) {
	var own sized
	if !sigs(&own) {
		return
	}
	type content struct {
		sig   []uint32
		size  int
		score float64
		first string // smallest member ID
	}
	var groups []content
	var r ranked
	var c Signed
	for cands(&c) {
		s := minhash.Similarity(own.Sig, c.Sig)
		if !(s > 0) {
			continue
		}
		r.Scored = append(r.Scored, Neighbour{ID: c.ID, Score: s})
		i := slices.IndexFunc(groups, func(g content) bool { return g.size == c.Size && slices.Equal(g.sig, c.Sig) })
		if i < 0 {
			groups = append(groups, content{sig: c.Sig, size: c.Size, score: s, first: c.ID})
		} else if c.ID < groups[i].first {
			groups[i].first = c.ID
		}
	}
	emit(q, r)
	if len(r.Scored) >= f.Limit {
		return
	}
	slices.SortFunc(groups, func(a, b content) int {
		return cmp.Or(cmp.Compare(b.score, a.score), cmp.Compare(a.first, b.first))
	})
	for _, g := range groups[:min(len(groups), nearestWidenSeeds)] {
		widen(g.first, q)
	}
}

// nnWidenFn forwards the band neighbours of the seed document to every
// document that widens from it, as requests for their signatures.
type nnWidenFn struct{}

func (f *nnWidenFn) ProcessElement(seed string, asks func(*string) bool, lists func(*nnList) bool, emit func(string, string)) {
	var l nnList
	if !lists(&l) {
		return
	}
	var q string
	for asks(&q) {
		for _, c := range l.IDs {
			emit(c, q)
		}
	}
}

// nnFinalFn merges the document q's first-step scores with the scores of
// the candidates its widening found, and emits the best K other than q.
type nnFinalFn struct {
	Limit, K int
}

func (f *nnFinalFn) ProcessElement(q string, firsts func(*ranked) bool, cands func(*Signed) bool, sigs func(*sized) bool, emit func(Neighbours)) error {
	var own sized
	if !sigs(&own) {
		return nil
	}
	var r ranked
	if !firsts(&r) {
		return fmt.Errorf("dedup: Nearest: no first step for %q", q)
	}
	seen := map[string]bool{}
	for _, n := range r.Scored {
		seen[n.ID] = true
	}
	all := r.Scored
	var c Signed
	for cands(&c) {
		if seen[c.ID] {
			continue
		}
		seen[c.ID] = true
		if s := minhash.Similarity(own.Sig, c.Sig); s > 0 {
			all = append(all, Neighbour{ID: c.ID, Score: s})
		}
	}
	slices.SortFunc(all, func(a, b Neighbour) int {
		return cmp.Or(cmp.Compare(b.Score, a.Score), cmp.Compare(a.ID, b.ID))
	})
	all = slices.DeleteFunc(all[:min(len(all), f.Limit)], func(n Neighbour) bool { return n.ID == q })
	emit(Neighbours{ID: q, Neighbours: all[:min(len(all), f.K)]})
	return nil
}
