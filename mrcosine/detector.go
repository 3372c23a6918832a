package mrcosine

import (
	"fmt"
	"math"
	"sync"

	"golang.org/x/text/language"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/docset"
	"github.com/seed-9ef9c1df/neardup/internal/matches"
	"github.com/seed-9ef9c1df/neardup/textproc"
)

// Class is the relation of a pair by signature cosine (Mohammadi and Khasteh
// 2020 §3.5).
type Class int

const (
	// Unrelated: signature cosine below T2.
	Unrelated Class = iota
	// NearDuplicate: T2 ≤ signature cosine < T1.
	NearDuplicate
	// Duplicate: signature cosine ≥ T1.
	Duplicate
)

// String returns the name of c.
func (c Class) String() string {
	switch c {
	case Unrelated:
		return "unrelated"
	case NearDuplicate:
		return "near-duplicate"
	case Duplicate:
		return "duplicate"
	}
	return fmt.Sprintf("Class(%d)", int(c))
}

// Detector finds near-duplicates by multireference cosine signatures
// (Mohammadi and Khasteh 2020 §3.5). It is symmetric:
// [detector.Match.Score] is the cosine of the two signatures (of the
// centered signatures with Config.Centered), and [Detector.Classify] says
// whether it passed T1 (duplicate) or only T2 (near-duplicate).
//
// The index hashes the unit signature minus the reference's center (the
// plain unit signature for a reference without one): every news signature
// shares one direction, so the plain cosine of unrelated texts is about
// 0.76 and signs of projections of the raw signature separate related from
// unrelated texts poorly, while from the center unrelated texts are about
// orthogonal. Plain signatures are still compared by their plain cosine;
// the index is then built for centered cosine 1 − [PlainSlack]·(1 − T2).
// Each document keeps a sketch of 512 of those signs; a candidate whose
// sketch differs from the query's in too many signs for the pair to reach
// the threshold is dropped before the exact cosine (a statistical test
// that drops a pair at the threshold with probability below 10⁻⁶ under
// the random-hyperplane model). When the buckets of a query hold more
// entries than there are documents, as on newswire where most stories
// share a band with many others, the query compares the sketches of all
// live documents in one sequential pass instead, so its cost never exceeds
// O(N) sketch comparisons plus the exact cosines.
//
// A Detector is safe for concurrent use by multiple goroutines. Add checks
// the document (closed, empty or duplicate ID, size) before any work, signs
// and hashes it outside the lock, and takes the lock only to query and
// insert; of several Adds of one new ID at once exactly one succeeds.
type Detector struct {
	cfg    Config
	ref    *Reference
	parts  int
	center []float32 // origin of the hashed vectors, or nil
	hash   *hasher   // nil when Exhaustive
	// sketchLo is the lowest hashed cosine a candidate can have, for
	// Centered or a reference without center; NaN means per pair.
	sketchLo float64
	// filters holds *textproc.ContentFilter for ContentMain.
	filters sync.Pool
	scratch sync.Pool // *signed

	mu       sync.Mutex
	docs     *docset.Set
	vecs     []float32 // vecs[idx*parts:]: unit vector compared by dot product
	has      []bool    // has[idx]: live with a non-zero signature
	rnorm    []float32 // rnorm[idx]: length of the hashed vector
	sketch   []uint64  // sketch[idx*sketchWords:]
	keys     []uint64  // keys[idx*Bands+b]: band keys of idx
	buckets  buckets
	stamp    []uint32
	epoch    uint32
	lists    [][]uint32 // scratch of query
	checked  int        // exact cosines computed by queries (for tests)
	rejected int        // candidates the sketch dropped (for tests)
}

var (
	_ detector.Detector = (*Detector)(nil)
	_ detector.Remover  = (*Detector)(nil)
)

// New returns a Detector that signs documents with the default reference
// text ([Default]). It returns an error wrapping [detector.ErrInvalidConfig]
// if cfg is invalid, and nil otherwise.
func New(cfg Config) (*Detector, error) {
	return NewWithReference(cfg, Default())
}

// NewWithReference returns a Detector that signs documents with ref, for
// example one made by [Train] on the caller's own collection. It returns an
// error wrapping [detector.ErrInvalidConfig] if cfg is invalid or ref is nil
// or empty (the zero Reference).
func NewWithReference(cfg Config, ref *Reference) (*Detector, error) {
	if ref == nil || len(ref.genes) == 0 {
		return nil, fmt.Errorf("mrcosine: nil or empty reference text: %w", detector.ErrInvalidConfig)
	}
	cfg.setDefaults(len(ref.center) > 0)
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	if cfg.Centered && len(ref.center) == 0 {
		return nil, fmt.Errorf("mrcosine: Centered needs a reference text with a center (Reference.Centered): %w", detector.ErrInvalidConfig)
	}
	d := &Detector{cfg: cfg, ref: ref, parts: ref.Parts(), center: ref.center, docs: docset.New("mrcosine", cfg.MaxTextBytes)}
	tag, _ := language.Parse(ref.tc.Language) // validated: a bad tag reads as neutral
	d.filters.New = func() any { return textproc.NewContentFilter(tag) }
	d.sketchLo = math.NaN()
	if cfg.Centered || d.center == nil {
		d.sketchLo = cfg.T2
	}
	if !cfg.Exhaustive {
		d.hash = newHasher(d.parts, cfg.Bands, cfg.Rows, cfg.Seed)
	}
	d.scratch.New = func() any { return d.newSigned() }
	return d, nil
}

// Config returns the detector's effective configuration: defaults filled
// in, Bands derived.
func (d *Detector) Config() Config { return d.cfg }

// Reference returns the reference text the detector signs documents with.
func (d *Detector) Reference() *Reference { return d.ref }

// Classify returns the class of a signature cosine under the detector's
// thresholds: Duplicate for score ≥ T1, NearDuplicate for T2 ≤ score < T1.
func (d *Detector) Classify(score float64) Class {
	switch {
	case score >= d.cfg.T1:
		return Duplicate
	case score >= d.cfg.T2:
		return NearDuplicate
	}
	return Unrelated
}

// signed is one document's signature prepared for the index (and the
// scratch it is prepared in).
type signed struct {
	raw    []float32 // the signature
	vec    []float32 // unit vector compared by dot product; nil: matches nothing
	x      []float32 // hashed vector
	rnorm  float32
	buf    []float32 // rotation scratch
	pool   []uint64  // sign pool; its first sketchWords words are the sketch
	keys   []uint64
	vecBuf []float32
}

func (d *Detector) newSigned() *signed {
	s := &signed{raw: make([]float32, 0, d.parts), vecBuf: make([]float32, d.parts), x: make([]float32, d.parts)}
	if d.hash != nil {
		s.buf = make([]float32, d.hash.dim)
		s.pool = make([]uint64, 0, d.hash.poolWords())
		s.keys = make([]uint64, 0, d.cfg.Bands)
	}
	return s
}

// prepare derives the compared vector, the hashed vector, its sign pool and
// band keys from s.raw.
func (d *Detector) prepare(s *signed) {
	s.vec, s.pool, s.keys = nil, s.pool[:0], s.keys[:0]
	var ss float64
	for _, v := range s.raw {
		ss += float64(v) * float64(v)
	}
	if ss == 0 {
		return // the zero signature matches nothing
	}
	inv := 1 / math.Sqrt(ss)
	var xs float64
	for j, v := range s.raw {
		u := float64(v) * inv
		x := u
		if d.center != nil {
			x -= float64(d.center[j])
		}
		s.vecBuf[j], s.x[j] = float32(u), float32(x)
		xs += x * x
	}
	s.rnorm = float32(math.Sqrt(xs))
	if d.cfg.Centered {
		if xs == 0 {
			return // the center itself: no direction to compare
		}
		xinv := 1 / math.Sqrt(xs)
		for j, x := range s.x {
			s.vecBuf[j] = float32(float64(x) * xinv)
		}
	}
	s.vec = s.vecBuf
	if d.hash != nil {
		s.pool = d.hash.pool(s.pool, s.x, s.buf)
		s.keys = d.hash.keys(s.keys, s.pool)
	}
}

// AppendBandKeys appends the LSH band keys of a signature (as returned by
// [Reference.Signature]) to dst. It is the pure part of the index, for
// sharding signatures by key on several machines. It returns dst unchanged
// for an Exhaustive detector or the zero signature. It panics if len(sig)
// is not the reference's Parts.
func (d *Detector) AppendBandKeys(dst []uint64, sig []float32) []uint64 {
	if len(sig) != d.parts {
		panic(fmt.Sprintf("mrcosine: AppendBandKeys of a signature of length %d, want %d", len(sig), d.parts))
	}
	s := d.scratch.Get().(*signed)
	defer d.scratch.Put(s)
	s.raw = append(s.raw[:0], sig...)
	d.prepare(s)
	if s.vec == nil {
		return dst
	}
	return append(dst, s.keys...)
}

// bigText is the text size above which Add drops its content filter
// instead of keeping it for the next text, so one outlier does not pin
// its scratch.
const bigText = 1 << 20

// Add signs d and indexes it, returning the live documents whose signature
// cosine with it is at least T2, by descending score. It checks d (closed,
// empty or duplicate ID, size) before any work. Time O(len(Text) + Genes)
// for the signature and O(Parts·log Parts + Bands·Rows) for its band keys,
// outside the lock, plus O(Bands) lookups and O(C·Parts) for C candidates
// from the index (O(N·Parts) when Exhaustive).
func (d *Detector) Add(doc detector.Doc) ([]detector.Match, error) {
	d.mu.Lock()
	err := d.docs.Check(doc)
	d.mu.Unlock()
	if err != nil {
		return nil, err
	}
	text := doc.Text
	if d.cfg.Content == textproc.ContentMain {
		f := d.filters.Get().(*textproc.ContentFilter)
		text = f.Text(text)
		if len(doc.Text) <= bigText {
			d.filters.Put(f)
		}
	}
	s := d.scratch.Get().(*signed)
	s.raw = d.ref.AppendSignature(s.raw[:0], text)
	d.prepare(s)
	out, err := d.insert(doc, s, true)
	d.scratch.Put(s)
	return out, err
}

// addSigned indexes doc under its signature sig, and returns its matches if
// query is set (benchmarks fill a detector without querying).
func (d *Detector) addSigned(doc detector.Doc, sig []float32, query bool) ([]detector.Match, error) {
	s := d.scratch.Get().(*signed)
	s.raw = append(s.raw[:0], sig...)
	d.prepare(s)
	out, err := d.insert(doc, s, query)
	d.scratch.Put(s)
	return out, err
}

// insert registers doc under the lock (checking it again) and indexes s.
func (d *Detector) insert(doc detector.Doc, s *signed, query bool) ([]detector.Match, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	idx, err := d.docs.Add(doc)
	if err != nil {
		return nil, err
	}
	for len(d.has) <= int(idx) {
		d.has = append(d.has, false)
		d.rnorm = append(d.rnorm, 0)
		d.stamp = append(d.stamp, 0)
		d.vecs = append(d.vecs, make([]float32, d.parts)...)
		if d.hash != nil {
			d.sketch = append(d.sketch, make([]uint64, sketchWords)...)
			d.keys = append(d.keys, make([]uint64, d.cfg.Bands)...)
		}
	}
	var out []detector.Match
	if query {
		out = d.query(idx, s.vec, s.rnorm, s.pool, s.keys)
	}
	if s.vec == nil {
		return out, nil
	}
	d.has[idx] = true
	d.rnorm[idx] = s.rnorm
	copy(d.vecs[int(idx)*d.parts:], s.vec)
	if d.hash != nil {
		copy(d.sketch[int(idx)*sketchWords:], s.pool[:sketchWords])
		copy(d.keys[int(idx)*d.cfg.Bands:], s.keys)
		for b, k := range s.keys {
			d.buckets.add(uint32(b), k, idx)
		}
	}
	return out, nil
}

// dot is the dot product of two vectors of equal length.
func dot(a, b []float32) float64 {
	b = b[:len(a)]
	var s0, s1, s2, s3 float32
	i := 0
	for ; i+4 <= len(a); i += 4 {
		s0 += a[i] * b[i]
		s1 += a[i+1] * b[i+1]
		s2 += a[i+2] * b[i+2]
		s3 += a[i+3] * b[i+3]
	}
	for ; i < len(a); i++ {
		s0 += a[i] * b[i]
	}
	return min(max(float64((s0+s1)+(s2+s3)), -1), 1)
}

// query returns the live documents other than self within T2 of vec.
func (d *Detector) query(self uint32, vec []float32, rnorm float32, sketch, keys []uint64) []detector.Match {
	if vec == nil {
		return []detector.Match{}
	}
	var out []detector.Match
	P := d.parts
	check := func(o uint32) {
		if o == self || !d.has[o] { // has: live, with a non-zero signature
			return
		}
		d.checked++
		if s := dot(vec, d.vecs[int(o)*P:int(o+1)*P]); s >= d.cfg.T2 {
			out = append(out, detector.Match{ID: d.docs.ID(o), Score: s})
		}
	}
	if d.cfg.Exhaustive {
		for o := range d.has {
			check(uint32(o))
		}
		return matches.Top(out, 0)
	}
	hi := hiCos()
	lo := d.sketchLo
	perPair := math.IsNaN(lo)
	slack := 1 - d.cfg.T2
	sk := sketch[:sketchWords]
	// sift drops o if its sketch says the pair cannot reach T2, else
	// computes the exact cosine.
	sift := func(o uint32) {
		h := hi[hamming(sk, d.sketch[int(o)*sketchWords:])]
		// Plain cosine T2 needs centered cosine at least
		// lo = 1 − (1 − T2)/(‖x‖·‖y‖), translation keeping distances:
		// lo > h ⟺ (1 − h)·‖x‖·‖y‖ > 1 − T2.
		if perPair && (1-h)*float64(rnorm)*float64(d.rnorm[o]) > slack || !perPair && lo > h {
			d.rejected++
			return
		}
		check(o)
	}
	lists, total := d.lists[:0], 0
	for b, k := range keys {
		l := d.buckets.get(uint32(b), k)
		lists = append(lists, l)
		total += len(l)
	}
	d.lists = lists[:0]
	if total >= len(d.has) {
		// The buckets hold more entries than there are documents (close
		// texts, or a low threshold): a sequential pass over the sketches
		// costs less than visiting them, and misses nothing they hold.
		for o, ok := range d.has {
			if ok && uint32(o) != self {
				sift(uint32(o))
			}
		}
		return matches.Top(out, 0)
	}
	d.epoch++
	if d.epoch == 0 { // wrapped: clear the stamps
		clear(d.stamp)
		d.epoch = 1
	}
	for _, l := range lists {
		for _, o := range l {
			if d.stamp[o] != d.epoch {
				d.stamp[o] = d.epoch
				sift(o)
			}
		}
	}
	return matches.Top(out, 0)
}

// hiCos returns, for each number of differing sketch bits, the highest
// hashed cosine a pair can have (see maxHamming).
var hiCos = sync.OnceValue(func() []float64 {
	out := make([]float64, sketchWords*64+1)
	for h := range out {
		lo, hi := -1.0, 1.0 // maxHamming(lo) ≥ h; find the largest such lo
		if maxHamming(hi) >= h {
			out[h] = 2 // never reject
			continue
		}
		for range 60 {
			m := (lo + hi) / 2
			if maxHamming(m) >= h {
				lo = m
			} else {
				hi = m
			}
		}
		out[h] = lo
	}
	return out
})

// Containers returns the live documents whose signature cosine with the
// live document id is at least T2, including ones added after it, by
// descending score. Time as for the index part of Add.
func (d *Detector) Containers(id string) ([]detector.Match, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	idx, err := d.docs.Lookup("Containers", id)
	if err != nil {
		return nil, err
	}
	if int(idx) >= len(d.has) || !d.has[idx] {
		return []detector.Match{}, nil
	}
	i := int(idx)
	var sketch, keys []uint64
	if d.hash != nil {
		sketch = d.sketch[i*sketchWords : (i+1)*sketchWords]
		keys = d.keys[i*d.cfg.Bands : (i+1)*d.cfg.Bands]
	}
	return d.query(idx, d.vecs[i*d.parts:(i+1)*d.parts], d.rnorm[i], sketch, keys), nil
}

// Remove forgets the live document id. Time O(Bands·bucket size); the
// bucket table shrinks when an eighth of it or less is in use, so memory
// comes back when the collection shrinks.
func (d *Detector) Remove(id string) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	idx, err := d.docs.Remove(id)
	if err != nil {
		return err
	}
	if int(idx) >= len(d.has) || !d.has[idx] {
		return nil
	}
	d.has[idx] = false
	if d.hash == nil {
		return nil
	}
	for b, k := range d.keys[int(idx)*d.cfg.Bands : int(idx+1)*d.cfg.Bands] {
		d.buckets.remove(uint32(b), k, idx)
	}
	return nil
}

// Len returns the number of live documents.
func (d *Detector) Len() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.docs.Len()
}

// Close releases the index. It is idempotent and returns nil; later calls
// of Add, Containers and Remove return an error wrapping
// [detector.ErrClosed].
func (d *Detector) Close() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.docs.Close() {
		d.vecs, d.has, d.rnorm, d.sketch, d.keys, d.stamp = nil, nil, nil, nil, nil, nil
		d.buckets = buckets{}
	}
	return nil
}
