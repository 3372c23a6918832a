package mrcosine

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sync"

	"golang.org/x/text/language"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/docset"
	"github.com/seed-9ef9c1df/neardup/textproc"
)

// Defaults of the detector. Seed 003 §3.5 leaves t1 and t2 to be
// "determined empirically ... for each specific application"; these were
// tuned on goldset-dev.jsonl with the default reference (TestGoldSetSweep).
const (
	// DefaultT1 is the signature cosine at or above which a pair is a
	// duplicate candidate (seed 003 §3.5, s ≥ t1).
	DefaultT1 = 0.98
	// DefaultT2 is the signature cosine at or above which a pair is a
	// near-duplicate candidate (seed 003 §3.5, t2 ≤ s < t1). Empirical:
	// TestGoldSetSweep.
	DefaultT2 = 0.88
	// DefaultCenteredT1 and DefaultCenteredT2 are the thresholds of
	// Config.Centered, tuned the same way (TestGoldSetSweep).
	DefaultCenteredT1 = 0.95
	DefaultCenteredT2 = 0.67
	// DefaultMissRate is the probability, under the random-hyperplane model
	// (Charikar 2002), that the index misses a pair whose signature cosine
	// is exactly T2; pairs above T2 are missed less often.
	DefaultMissRate = 0.002
	// DefaultRows is the number of hyperplanes per LSH band when Rows is
	// zero. Empirical: BenchmarkQuery and TestIndexRecall.
	DefaultRows = 16
	// DefaultCenteredRows is DefaultRows under Config.Centered, whose lower
	// threshold needs 879 bands of 16 rows (7 KB of keys per document), 253
	// of 12 or 71 of 8 (TestIndexRecall: 12 rows compute 2.6 times fewer
	// cosines than 8 on Reuters).
	DefaultCenteredRows = 12
)

// Config configures a [Detector]. A zero field means its documented default.
type Config struct {
	// T1 is the duplicate threshold on signature cosine [DefaultT1].
	T1 float64
	// T2 is the near-duplicate threshold [DefaultT2]; Add and Containers
	// report pairs with signature cosine ≥ T2. 0 < T2 ≤ T1 ≤ 1.
	T2 float64
	// Centered compares signatures by the cosine of their unit vectors
	// minus the reference's center ([Reference.Centered]) instead of the
	// plain signature cosine of seed 003 §3.5. Not in the paper; it needs a
	// reference with a center, such as [Default] or one made by [Train].
	// With Centered, zero T1 and T2 mean [DefaultCenteredT1] and
	// [DefaultCenteredT2].
	Centered bool
	// Exhaustive compares every new document with every live one, as seed
	// 003 does, instead of using the LSH index. Exact, O(N) per call.
	Exhaustive bool
	// Rows is the number of random hyperplanes per LSH band [DefaultRows],
	// [DefaultCenteredRows] with Centered; at most 64.
	Rows int
	// Bands is the number of LSH bands; zero derives it from T2, Rows and
	// MissRate with [Bands].
	Bands int
	// MissRate is the target probability that the index misses a pair at
	// cosine T2 [DefaultMissRate]; in (0, 1).
	MissRate float64
	// Seed draws the hyperplanes.
	Seed uint64
	// Content selects the part of each text that is signed: its
	// main-content blocks (textproc.ContentMain: navigation, menus and
	// other boilerplate blocks skipped, see textproc.ContentFilter, under
	// the reference's TextConfig.Language) or the whole text
	// (textproc.ContentAll) [DefaultContent].
	Content textproc.Content
	// MaxTextBytes is the largest text Add accepts
	// [detector.DefaultMaxTextBytes].
	MaxTextBytes int
}

// DefaultContent is the part of a text signed by default: the main content,
// boilerplate blocks skipped (textproc.ContentFilter).
const DefaultContent = textproc.ContentMain

func (c Config) withDefaults() Config {
	t1, t2 := DefaultT1, DefaultT2
	if c.Centered {
		t1, t2 = DefaultCenteredT1, DefaultCenteredT2
	}
	if c.T1 == 0 {
		c.T1 = max(t1, c.T2)
	}
	if c.T2 == 0 {
		c.T2 = min(t2, c.T1)
	}
	if c.Rows == 0 {
		c.Rows = DefaultRows
		if c.Centered {
			c.Rows = DefaultCenteredRows
		}
	}
	if c.MissRate == 0 {
		c.MissRate = DefaultMissRate
	}
	if c.MaxTextBytes == 0 {
		c.MaxTextBytes = detector.DefaultMaxTextBytes
	}
	if c.Content == textproc.ContentDefault {
		c.Content = DefaultContent
	}
	if c.Bands == 0 && !c.Exhaustive && c.T2 > 0 && c.T2 <= 1 && c.Rows >= 1 && c.Rows <= 64 && c.MissRate > 0 && c.MissRate < 1 {
		c.Bands = Bands(c.T2, c.Rows, c.MissRate)
	}
	return c
}

func (c Config) validate() error {
	switch {
	case !(c.T2 > 0 && c.T2 <= 1):
		return fmt.Errorf("mrcosine: T2 (%g) must be in (0, 1]", c.T2)
	case !(c.T1 >= c.T2 && c.T1 <= 1):
		return fmt.Errorf("mrcosine: T1 (%g) must be in [T2 (%g), 1]", c.T1, c.T2)
	case c.Rows < 1 || c.Rows > 64:
		return fmt.Errorf("mrcosine: Rows (%d) must be in [1, 64]", c.Rows)
	case !(c.MissRate > 0 && c.MissRate < 1):
		return fmt.Errorf("mrcosine: MissRate (%g) must be in (0, 1)", c.MissRate)
	case !c.Exhaustive && (c.Bands < 1 || c.Bands > 4096):
		return fmt.Errorf("mrcosine: Bands (%d) must be in [1, 4096]", c.Bands)
	case c.MaxTextBytes < 0:
		return fmt.Errorf("mrcosine: MaxTextBytes (%d) must be ≥ 0", c.MaxTextBytes)
	case !c.Content.Valid():
		return fmt.Errorf("mrcosine: Content (%d) must be ContentDefault, ContentAll or ContentMain", c.Content)
	}
	return nil
}

// Bands returns the number of LSH bands of rows random hyperplanes each
// that misses a pair of signature cosine t at most with probability miss:
// one hyperplane separates two vectors at angle θ with probability θ/π
// (Charikar 2002 §3), so a band of rows hyperplanes agrees with
// probability p = (1 − arccos(t)/π)^rows and bands bands all disagree with
// probability (1 − p)^bands ≤ miss. Pairs of higher cosine are missed less
// often. It returns at least 1.
func Bands(t float64, rows int, miss float64) int {
	p := math.Pow(1-math.Acos(min(max(t, -1), 1))/math.Pi, float64(rows))
	if p >= 1 {
		return 1
	}
	if p <= 0 {
		return math.MaxInt32
	}
	return max(1, int(math.Ceil(math.Log(miss)/math.Log(1-p))))
}

// Class is the relation of a pair by signature cosine (seed 003 §3.5).
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

// Detector finds near-duplicates by multireference cosine signatures (seed
// 003 §3.5). It is symmetric: [detector.Match.Score] is the cosine of the
// two signatures (of the centered signatures with Config.Centered), and [Detector.Classify] says whether it passed T1
// (duplicate) or only T2 (near-duplicate).
//
// A Detector is safe for concurrent use by multiple goroutines; signatures
// are computed outside its lock.
type Detector struct {
	cfg   Config
	ref   *Reference
	parts int
	plane []float32 // Bands·Rows hyperplanes of P dimensions
	// filters holds *textproc.ContentFilter for ContentMain.
	filters sync.Pool

	mu      sync.Mutex
	docs    *docset.Set
	sigs    [][]float32 // by dense index; nil: free or zero signature
	keys    []uint64    // keys[idx*Bands+b]: band keys of idx
	buckets []map[uint64][]uint32
	stamp   []uint32
	epoch   uint32
	checked int // signature cosines computed by queries (for tests)
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
// error wrapping [detector.ErrInvalidConfig] if cfg is invalid or ref is nil.
func NewWithReference(cfg Config, ref *Reference) (*Detector, error) {
	cfg = cfg.withDefaults()
	if err := cfg.validate(); err != nil {
		return nil, fmt.Errorf("%w: %w", err, detector.ErrInvalidConfig)
	}
	if ref == nil || len(ref.genes) == 0 {
		return nil, fmt.Errorf("mrcosine: nil reference text: %w", detector.ErrInvalidConfig)
	}
	if cfg.Centered && len(ref.center) == 0 {
		return nil, fmt.Errorf("mrcosine: Centered needs a reference text with a center (Reference.Centered): %w", detector.ErrInvalidConfig)
	}
	d := &Detector{cfg: cfg, ref: ref, parts: ref.Parts(), docs: docset.New("mrcosine", cfg.MaxTextBytes)}
	tag, _ := language.Parse(ref.tc.Language) // validated: a bad tag reads as neutral
	d.filters.New = func() any { return textproc.NewContentFilter(tag) }
	if !cfg.Exhaustive {
		rng := rand.New(rand.NewPCG(cfg.Seed, 0x6879706572706c61))
		d.plane = make([]float32, cfg.Bands*cfg.Rows*d.parts)
		for i := range d.plane {
			d.plane[i] = float32(rng.NormFloat64())
		}
		d.buckets = make([]map[uint64][]uint32, cfg.Bands)
		for b := range d.buckets {
			d.buckets[b] = map[uint64][]uint32{}
		}
	}
	return d, nil
}

// Config returns the detector's configuration with defaults filled in.
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

// AppendBandKeys appends the LSH band keys of a signature to dst: key b
// packs the signs of sig's projections on the Rows hyperplanes of band b.
// It is the pure part of the index, for sharding signatures by key on
// several machines. It returns dst unchanged for an Exhaustive detector.
// It panics if len(sig) is not the reference's Parts.
func (d *Detector) AppendBandKeys(dst []uint64, sig []float32) []uint64 {
	if len(sig) != d.parts {
		panic(fmt.Sprintf("mrcosine: AppendBandKeys of a signature of length %d, want %d", len(sig), d.parts))
	}
	R := d.cfg.Rows
	for b := range d.cfg.Bands {
		var key uint64
		for r := range R {
			h := d.plane[(b*R+r)*d.parts : (b*R+r+1)*d.parts]
			var s float32
			for j, x := range sig {
				s += h[j] * x
			}
			if s >= 0 {
				key |= 1 << r
			}
		}
		dst = append(dst, key)
	}
	return dst
}

func zero(sig []float32) bool {
	for _, x := range sig {
		if x != 0 {
			return false
		}
	}
	return true
}

// Add signs d and indexes it, returning the live documents whose signature
// cosine with it is at least T2, by descending score. Time O(len(Text) +
// Genes) for the signature, plus O(Bands·Rows·Parts) for its band keys and
// O(C·Parts) for C candidates from the index (O(N·Parts) when Exhaustive).
func (d *Detector) Add(doc detector.Doc) ([]detector.Match, error) {
	var sig []float32
	if len(doc.Text) <= d.cfg.MaxTextBytes {
		text := doc.Text
		if d.cfg.Content == textproc.ContentMain {
			f := d.filters.Get().(*textproc.ContentFilter)
			text = f.Text(text)
			d.filters.Put(f)
		}
		sig = d.ref.Signature(text)
		if d.cfg.Centered {
			sig = d.ref.AppendCentered(nil, sig)
		}
	}
	return d.addSigned(doc, sig, true)
}

// addSigned indexes doc under its signature sig, and returns its matches if
// query is set (benchmarks fill a detector without querying).
func (d *Detector) addSigned(doc detector.Doc, sig []float32, query bool) ([]detector.Match, error) {
	if zero(sig) {
		sig = nil // matches nothing
	}
	var keys []uint64
	if sig != nil && !d.cfg.Exhaustive {
		keys = d.AppendBandKeys(make([]uint64, 0, d.cfg.Bands), sig)
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	idx, err := d.docs.Add(doc)
	if err != nil {
		return nil, err
	}
	for len(d.sigs) <= int(idx) {
		d.sigs = append(d.sigs, nil)
		d.stamp = append(d.stamp, 0)
		d.keys = append(d.keys, make([]uint64, d.cfg.Bands)...)
	}
	var out []detector.Match
	if query {
		out = d.query(idx, sig, keys)
	}
	d.sigs[idx] = sig
	if keys != nil {
		copy(d.keys[int(idx)*d.cfg.Bands:], keys)
		for b, k := range keys {
			d.buckets[b][k] = append(d.buckets[b][k], idx)
		}
	}
	return out, nil
}

// query returns the live documents other than self within T2 of sig.
func (d *Detector) query(self uint32, sig []float32, keys []uint64) []detector.Match {
	if sig == nil {
		return nil
	}
	var out []detector.Match
	check := func(o uint32) {
		if o == self || d.sigs[o] == nil || !d.docs.Live(o) {
			return
		}
		d.checked++
		if s := Cosine(sig, d.sigs[o]); s >= d.cfg.T2 {
			out = append(out, detector.Match{ID: d.docs.ID(o), Score: s})
		}
	}
	if d.cfg.Exhaustive {
		for o := range d.sigs {
			check(uint32(o))
		}
	} else {
		d.epoch++
		if d.epoch == 0 { // wrapped: clear the stamps
			clear(d.stamp)
			d.epoch = 1
		}
		for b, k := range keys {
			for _, o := range d.buckets[b][k] {
				if d.stamp[o] != d.epoch {
					d.stamp[o] = d.epoch
					check(o)
				}
			}
		}
	}
	detector.SortMatches(out)
	return out
}

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
	var keys []uint64
	if !d.cfg.Exhaustive && d.sigs[idx] != nil {
		keys = d.keys[int(idx)*d.cfg.Bands : int(idx+1)*d.cfg.Bands]
	}
	return d.query(idx, d.sigs[idx], keys), nil
}

// Remove forgets the live document id. Time O(Bands·bucket size).
func (d *Detector) Remove(id string) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	idx, err := d.docs.Remove(id)
	if err != nil {
		return err
	}
	if d.sigs[idx] != nil && !d.cfg.Exhaustive {
		for b, k := range d.keys[int(idx)*d.cfg.Bands : int(idx+1)*d.cfg.Bands] {
			list := d.buckets[b][k]
			if i := slices.Index(list, idx); i >= 0 {
				list = slices.Delete(list, i, i+1)
			}
			if len(list) == 0 {
				delete(d.buckets[b], k)
			} else {
				d.buckets[b][k] = list
			}
		}
	}
	d.sigs[idx] = nil
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
		d.sigs, d.keys, d.buckets, d.stamp = nil, nil, nil, nil
	}
	return nil
}
