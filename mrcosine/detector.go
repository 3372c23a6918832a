package mrcosine

import (
	"fmt"
	"math"

	"golang.org/x/text/language"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/engine"
	"github.com/seed-9ef9c1df/neardup/internal/enum"
	"github.com/seed-9ef9c1df/neardup/internal/hashtab"
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
	return enum.String("Class", int(c), "unrelated", "near-duplicate", "duplicate")
}

// Detector finds near-duplicates by multireference cosine signatures
// (Mohammadi and Khasteh 2020 §3.5). It is symmetric:
// [detector.Match.Score] is the cosine of the two signatures (of the
// centered signatures with Config.Centered), and [Detector.Classify] says
// whether it passed T1 (duplicate) or only T2 (near-duplicate).
//
// The index hashes the signs of random projections of each signature's
// direction from the reference's center, where unrelated texts are about
// orthogonal (plain signatures are indexed for centered cosine
// 1 − [PlainSlack]·(1 − T2)), and keeps a 512-sign sketch per distinct
// signature that drops candidates too far to reach the threshold before
// the exact cosine; a query costs at most O(N) sketch comparisons plus the
// exact cosines (maxHamming gives the test and its error bound, sift.go
// the sequential pass that caps the cost).
//
// Documents whose compared vectors are identical bit for bit (exact
// copies as the detector reads them) share one entry of the index;
// [Detector.Copies] lists them. A text whose signature is zero (it shares
// no trigram with the reference: one long token, a script the reference
// lacks) or, under Centered, the center has no direction to compare, so it
// is no near-duplicate of anything; its exact copies (the same characters
// as the detector reads them, see [Normalization]) are still reported, with
// score 1. Add, Containers and Query return at most
// Config.MaxResults matches, the strongest.
//
// A Detector is safe for concurrent use by multiple goroutines; the
// package documentation says which calls share a lock.
type Detector struct {
	cfg    Config
	ref    *Reference
	parts  int
	center []float32 // origin of the hashed vectors, or nil
	hash   *hasher   // nil when Exhaustive
	// sketchMax is the most differing sketch bits a candidate can have
	// (see maxBits) for Centered or a reference without center, where the
	// lowest hashed cosine a candidate can have is T2; -1 means per pair.
	sketchMax int
	// filters holds content filters for ContentMain.
	filters engine.Pool[*textproc.ContentFilter]
	scratch engine.Pool[*signed]

	e *engine.Engine[sig, copyKey]
}

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
	d := &Detector{cfg: cfg, ref: ref, parts: ref.Parts(), center: ref.center}
	tag, _ := language.Parse(ref.tc.Language) // validated: a bad tag reads as neutral
	d.filters.New = func() (*textproc.ContentFilter, error) { return textproc.NewContentFilter(tag), nil }
	d.sketchMax = -1
	if cfg.Centered || d.center == nil {
		d.sketchMax = maxBits(cfg.T2)
	}
	if !cfg.Exhaustive {
		d.hash = newHasher(d.parts, cfg.Bands, cfg.Rows, cfg.Seed)
	}
	d.scratch.New = func() (*signed, error) { return d.newSigned(), nil }
	d.e = engine.New(engine.Spec{
		Name:         snapshotKind,
		Version:      snapshotVersion,
		Config:       cfg,
		Tables:       map[string]uint64{refTable: ref.fingerprint()},
		MaxTextBytes: cfg.MaxTextBytes,
		MaxResults:   cfg.MaxResults,
		SearchFirst:  true, // the choice between buckets and pass counts the groups
	}, engine.Algorithm[sig, copyKey](algorithm{d}))
	return d, nil
}

// algorithm is the detector as the engine sees it.
type algorithm struct{ d *Detector }

// Features signs text in scratch of the pool, which Release takes back.
func (a algorithm) Features(text string) sig {
	s := a.d.sign(text)
	f := sig{s: s, vec: s.vec}
	if s.vec == nil && s.hasDig {
		f.text, f.dig = true, s.dig
	}
	return f
}

// Release puts the scratch of an Add's or Query's features back.
func (a algorithm) Release(f *sig) {
	if f.s != nil {
		a.d.release(f.s)
	}
}

func (a algorithm) CopyKey(f *sig) (copyKey, bool) { return copyKey{}, f.vec != nil || f.text }

func (a algorithm) NewIndex() engine.Index[sig] { return a.d.newIndex() }

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

// bands returns the number of band keys a group keeps: 0 when Exhaustive.
func (d *Detector) bands() int {
	if d.hash == nil {
		return 0
	}
	return d.cfg.Bands
}

// signed is one document's signature prepared for the index (and the
// scratch it is prepared and searched in).
type signed struct {
	raw    []float32 // the signature
	vec    []float32 // unit vector compared by dot product; nil: matches nothing by signature
	x      []float32 // hashed vector
	rnorm  float32
	buf    []float32 // rotation scratch
	pool   []uint64  // sign pool; its first sketchWords words are the sketch
	keys   []uint64
	vecBuf []float32

	p probe // the search of the index

	// When vec is nil: the digest of the characters the text reads, which
	// groups its exact copies, and whether it reads any (readDigest).
	dig     hashtab.Digest
	hasDig  bool
	textBuf []byte // scratch of readDigest
}

// release puts s back in the pool, without references into an index.
func (d *Detector) release(s *signed) {
	p := &s.p
	p.vec, p.sk, p.keys = nil, nil, nil
	d.scratch.Put(s)
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

// prepare derives the compared vector from s.raw, and from it the hashed
// vector, its sign pool and band keys.
func (d *Detector) prepare(s *signed) {
	s.vec, s.hasDig = nil, false
	var ss float64
	for _, v := range s.raw {
		ss += float64(v) * float64(v)
	}
	if ss == 0 {
		return // the zero signature matches nothing by signature
	}
	inv := 1 / math.Sqrt(ss)
	if !d.cfg.Centered {
		for j, v := range s.raw {
			s.vecBuf[j] = float32(float64(v) * inv)
		}
	} else {
		var xs float64
		for j, v := range s.raw {
			x := float64(v)*inv - float64(d.center[j])
			xs += x * x
		}
		if xs == 0 {
			return // the center itself: no direction to compare
		}
		xinv := 1 / math.Sqrt(xs)
		for j, v := range s.raw {
			s.vecBuf[j] = float32((float64(v)*inv - float64(d.center[j])) * xinv)
		}
	}
	s.vec = s.vecBuf
	d.derive(s)
}

// derive computes what the index keeps besides s.vec from s.vec alone, so
// that a snapshot, which stores the vector, rebuilds it exactly: the
// hashed vector is the compared one under Centered (a positive multiple of
// the centered signature, so the same signs) or without a center, and the
// compared one minus the center otherwise.
func (d *Detector) derive(s *signed) {
	s.pool, s.keys = s.pool[:0], s.keys[:0]
	x := s.vec
	if !d.cfg.Centered && d.center != nil {
		x = s.x
		for j, v := range s.vec {
			x[j] = float32(float64(v) - float64(d.center[j]))
		}
	}
	var xs float64
	for _, v := range x {
		xs += float64(v) * float64(v)
	}
	s.rnorm = float32(math.Sqrt(xs))
	if d.hash != nil {
		s.pool = d.hash.pool(s.pool, x, s.buf)
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
	s, _ := d.scratch.Get() // New never fails
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

// sign returns the prepared signature of text in scratch of the pool; the
// caller puts it back.
func (d *Detector) sign(text string) *signed {
	if d.cfg.Content == textproc.ContentMain {
		f, _ := d.filters.Get() // New never fails
		filtered := f.Text(text)
		if len(text) <= bigText {
			d.filters.Put(f)
		}
		text = filtered
	}
	s, _ := d.scratch.Get() // New never fails
	s.raw = d.ref.AppendSignature(s.raw[:0], text)
	d.prepare(s)
	if s.vec == nil {
		s.dig, s.hasDig = readDigest(d.ref.tc, text, &s.textBuf)
		if cap(s.textBuf) > bigText {
			s.textBuf = nil // one outlier must not pin its buffer
		}
	}
	return s
}

// Add signs d and indexes it, returning the live documents whose signature
// cosine with it is at least T2 (for a text whose signature is zero or the
// center, its exact copies, score 1), the Config.MaxResults strongest by
// [detector.SortMatches]. It checks d (closed, empty or duplicate ID,
// size) before any work. Time O(len(Text) + Genes) for the signature and
// O(Parts·log Parts + Bands·Rows) for its band keys, with no lock, plus,
// under the exclusive lock, O(Bands) lookups, O(C·Parts) for C candidate
// signatures from the index (O(G·Parts) for G distinct live signatures
// when Exhaustive) and the search for the group of an exact copy among
// the signatures of the shortest of its buckets, O(k log k) for the k ≤
// MaxResults documents reported, and the insertion: O(Bands) bucket
// entries for a new signature, or O(log c) to join a group of c copies.
func (d *Detector) Add(doc detector.Doc) ([]detector.Match, error) { return d.e.Add(doc) }

// Query returns what Add(doc) would return now, without storing doc or
// changing anything a later call observes; a live document with doc's ID
// is not reported, and doc.ID may be empty. It signs outside the lock and
// searches under the shared lock. Time as for Add. It returns an error
// wrapping detector.ErrTooLarge or detector.ErrClosed.
func (d *Detector) Query(doc detector.Doc) ([]detector.Match, error) { return d.e.Query(doc) }

// Nearest returns the live documents nearest to text, best first, the
// min(k, Config.MaxResults) best, storing nothing (detector.Ranker): of
// the documents sharing a band bucket with text's signature (or all, with
// Config.Exhaustive), the max(4k, 64) nearest by sketch distance get an
// exact cosine, and those with a positive one are scored by it as Query
// scores them, below T2 too. On 5,000 Reuters stories at k = 20 it costs
// 1.3 Queries. Scores order documents within this detector.
func (d *Detector) Nearest(text string, k int) ([]detector.Match, error) { return d.e.Nearest(text, k) }

// cosine is the cosine of two signatures of unit length: their dot
// product, and 1 when they are equal (the float32 sum of a unit vector
// with itself can round below 1).
func cosine(a, b []float32) float64 {
	if s := dot(a, b); s <= 0.9999 || !sameBits(a, b) {
		return s
	}
	return 1
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

// Containers returns the live documents whose signature cosine with the
// live document id is at least T2, including ones added after it, the
// Config.MaxResults strongest by [detector.SortMatches]. Time as for the
// index part of Add.
func (d *Detector) Containers(id string) ([]detector.Match, error) { return d.e.Containers(id) }

// Copies returns the live documents whose compared vector is identical to
// that of the live document id, bit for bit (its exact copies as the
// detector reads them, such as the same text, or the same text in other
// case or spacing under Normalized text: every score against them is the
// same), in ascending ID order, without id. The copies of a document
// whose signature is zero (or, under Centered, the center) are the
// documents that read the same characters (see [Detector]); a text that
// reads none (empty, or only separators) has none. Time O(c log c) for c
// copies. It returns an error wrapping detector.ErrUnknownID or
// detector.ErrClosed.
func (d *Detector) Copies(id string) ([]string, error) { return d.e.Copies(id) }

// Remove forgets the live document id. Time O(log c) for a document with c
// exact copies, else O(Bands·bucket size); the bucket table shrinks when
// an eighth of it or less is in use, so memory comes back when the
// collection shrinks.
func (d *Detector) Remove(id string) error { return d.e.Remove(id) }

// Len returns the number of live documents.
func (d *Detector) Len() int { return d.e.Len() }

// Close releases the index. It is idempotent and returns nil; later calls
// of Add, Containers, Query, Copies, Remove, WriteTo and ReadFrom return an
// error wrapping [detector.ErrClosed].
func (d *Detector) Close() error { return d.e.Close() }
