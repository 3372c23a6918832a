package textproc

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"

	"github.com/zeebo/xxh3"

	"github.com/seed-9ef9c1df/neardup/internal/snapshot"
)

// IDF is an inverse-document-frequency table (Varol 2012 Eq. 2.1):
//
//	idf(w) = log(|D| / |{d ∈ D : w ∈ d}|)
//
// with the natural logarithm (the base only rescales every weight; Varol
// 2012's worked example uses base 10). It is built by adding documents, either
// from a reference collection and then frozen (Varol 2012 §5.1.3 used the last
// 25% of BilCol-2005), or online as a stream arrives.
//
// Unseen terms, and terms whose document frequency is 0, count as seen in one
// document: idf = log(N), the largest weight of the table, since a term
// absent from the reference collection is as rare as a term can be. With
// N = 0 every weight is 0. With Smooth set, the weight is log(1 + N/df)
// instead, which stays positive (an online table's first documents would
// otherwise weigh every term 0).
//
// # Memory
//
// The table holds one entry per term whose document frequency is above 0:
// about 50 bytes plus the term's own bytes (the table keeps a copy of each
// term, never a reference into the caller's text). [IDF.RemoveDocument]
// drops a term when its frequency falls to 0 and gives the map's memory back
// when the live terms fall to a quarter of their peak, so an online table
// over a moving window stays as large as the window's vocabulary. A table
// that is only added to grows with the number of distinct terms it has
// seen (Heaps' law: sublinearly in the text, but without bound over an
// endless stream of new identifiers). Scratch space sized by one huge
// document is released after that document.
//
// The zero IDF is an empty, unsmoothed, unfrozen table, ready to use, like
// NewIDF(false). An IDF must not be copied after first use. It is safe for
// concurrent use by multiple goroutines: any number of readers, and writers
// serialised by an internal lock.
type IDF struct {
	mu     sync.RWMutex
	n      int64
	df     map[string]int64
	peak   int // largest len(df) since df was last allocated
	frozen bool
	smooth bool
	seen   map[string]struct{} // AddDocument's scratch: the terms of one document
}

// ErrFrozen is returned when documents are added to a frozen IDF table, or
// a frozen table would be replaced ([IDF.UnmarshalBinary]).
var ErrFrozen = errors.New("textproc: IDF table is frozen")

// ErrFormat is wrapped by every error of [IDF.UnmarshalBinary] for input
// that is not a table in a known version of the binary form (bad magic,
// unknown version or flags, a checksum mismatch, a truncated or
// non-canonical encoding), and by [NewIDFFromCounts] for counts no table
// can hold.
var ErrFormat = errors.New("textproc: malformed IDF table")

// NewIDF returns an empty, unfrozen table. smooth selects log(1 + N/df).
func NewIDF(smooth bool) *IDF {
	return &IDF{smooth: smooth}
}

// NewIDFFromCounts returns an unfrozen table of n documents in which term w
// has document frequency df[w], for counts made elsewhere (a distributed
// count, a table pruned of rare terms). Terms with a frequency of 0 are
// left out. It returns an error wrapping [ErrFormat] when n is negative or
// a frequency is negative or above n. The map is copied, not kept.
func NewIDFFromCounts(n int64, df map[string]int64, smooth bool) (*IDF, error) {
	if n < 0 {
		return nil, fmt.Errorf("textproc: NewIDFFromCounts: N (%d) must be ≥ 0: %w", n, ErrFormat)
	}
	m := make(map[string]int64, len(df))
	for w, c := range df {
		switch {
		case c < 0 || c > n:
			return nil, fmt.Errorf("textproc: NewIDFFromCounts: df(%q) = %d outside [0, N = %d]: %w", w, c, n, ErrFormat)
		case c > 0:
			m[strings.Clone(w)] = c
		}
	}
	return &IDF{n: n, df: m, peak: len(m), smooth: smooth}, nil
}

// BuildIDF returns a frozen table of the documents texts, each analysed by
// a (the pipeline of the detector that will read the table): a reference
// table such as Varol 2012 §5.1.3 builds from a collection, ready for a
// detector's NewWithIDF. smooth selects log(1 + N/df).
func BuildIDF(a *Analyzer, texts []string, smooth bool) *IDF {
	t := NewIDF(smooth)
	var terms []string
	for _, text := range texts {
		terms = terms[:0]
		for _, tok := range a.Tokens(text) {
			terms = append(terms, tok.Term)
		}
		_ = t.AddDocument(terms) // never frozen yet
	}
	t.Freeze()
	return t
}

// AddDocument counts one document whose terms are terms (repeats count once).
// It returns ErrFrozen after Freeze. It takes O(len(terms)) time and keeps a
// copy of each term it has not seen before.
func (t *IDF) AddDocument(terms []string) error {
	return t.update(terms, 1)
}

// RemoveDocument uncounts a document added before with the same terms, for an
// online table over a moving window: a term whose frequency falls to 0 is
// dropped. It returns ErrFrozen after Freeze.
func (t *IDF) RemoveDocument(terms []string) error {
	return t.update(terms, -1)
}

// seenKeep is the most distinct terms of one document whose scratch set
// AddDocument keeps for the next call (news documents have a few hundred).
// A larger set is dropped after the call: Go maps never shrink, and
// clearing one costs time in proportion to its largest size, so a kept set
// sized by a document of a million distinct terms would slow every later
// call (BenchmarkIDFAfterOutlier).
const seenKeep = 1 << 14

// shrinkMin is the peak size below which the document-frequency map is
// never rebuilt to give memory back.
const shrinkMin = 1 << 12

func (t *IDF) update(terms []string, delta int64) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.frozen {
		return ErrFrozen
	}
	if t.df == nil {
		t.df = make(map[string]int64)
	}
	if t.seen == nil {
		t.seen = make(map[string]struct{}, min(len(terms), seenKeep))
	}
	clear(t.seen)
	for _, w := range terms {
		if _, dup := t.seen[w]; dup {
			continue
		}
		t.seen[w] = struct{}{}
		c, ok := t.df[w]
		switch c += delta; {
		case c > 0 && ok:
			t.df[w] = c
		case c > 0:
			t.df[strings.Clone(w)] = c // no reference into the caller's text
		case ok:
			delete(t.df, w)
		}
	}
	if len(t.seen) > seenKeep {
		t.seen = nil
	}
	t.n = max(t.n+delta, 0)
	t.peak = max(t.peak, len(t.df))
	if t.peak >= shrinkMin && len(t.df) < t.peak/4 {
		// Deleting from a Go map never frees its buckets: copy the live
		// terms into a map of their size (amortised O(1) per removal).
		// (maps.Clone would keep the old size.)
		m := make(map[string]int64, len(t.df))
		for w, c := range t.df {
			m[w] = c
		}
		t.df, t.peak = m, len(m)
	}
	return nil
}

// Freeze makes the table read-only.
func (t *IDF) Freeze() {
	t.mu.Lock()
	t.frozen = true
	t.seen = nil
	t.mu.Unlock()
}

// Frozen reports whether Freeze has been called.
func (t *IDF) Frozen() bool {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return t.frozen
}

// N returns the number of documents counted.
func (t *IDF) N() int64 {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return t.n
}

// DF returns the number of documents containing term.
func (t *IDF) DF(term string) int64 {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return t.df[term]
}

// Weight returns idf(term) under the rules in the type's documentation.
func (t *IDF) Weight(term string) float64 {
	t.mu.RLock()
	n, df, smooth := t.n, t.df[term], t.smooth
	t.mu.RUnlock()
	return weight(n, df, smooth)
}

func weight(n, df int64, smooth bool) float64 {
	if n <= 0 {
		return 0
	}
	df = min(max(df, 1), n)
	if smooth {
		return math.Log1p(float64(n) / float64(df))
	}
	return math.Log(float64(n) / float64(df))
}

// The binary form. Version 1 had no checksum; version 2 appends one.
const (
	idfMagic    = "NDIDF"
	idfVersion1 = 1
	idfVersion2 = 2
	idfSumLen   = 8 // xxh3 64-bit checksum, little endian
)

// AppendBinary appends the table in its binary form, version 2: the magic
// "NDIDF", the version byte 2, a flags byte (1 = frozen, 2 = smoothed), N,
// the number of terms, then each term (its length, then its bytes) with its
// document frequency, in increasing byte order of the terms, every number a
// minimal unsigned varint; then the xxh3 64-bit hash of all the preceding
// bytes, little endian. It never returns an error.
func (t *IDF) AppendBinary(b []byte) ([]byte, error) {
	t.mu.RLock()
	defer t.mu.RUnlock()
	start := len(b)
	b = append(b, idfMagic...)
	b = append(b, idfVersion2)
	var flags byte
	if t.frozen {
		flags |= 1
	}
	if t.smooth {
		flags |= 2
	}
	b = append(b, flags)
	b = binary.AppendUvarint(b, uint64(t.n))
	b = binary.AppendUvarint(b, uint64(len(t.df)))
	keys := make([]string, 0, len(t.df))
	for k := range t.df {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		b = binary.AppendUvarint(b, uint64(len(k)))
		b = append(b, k...)
		b = binary.AppendUvarint(b, uint64(t.df[k]))
	}
	return binary.LittleEndian.AppendUint64(b, xxh3.Hash(b[start:])), nil
}

// Fingerprint identifies the table's content: the xxh3 checksum that ends
// its binary form ([IDF.AppendBinary]), so two tables with the same N,
// frequencies and flags have the same fingerprint. Snapshots of detectors
// built over a caller's table store its fingerprint rather than the table.
// It costs one encoding of the table.
func (t *IDF) Fingerprint() uint64 {
	b, _ := t.AppendBinary(nil)
	return binary.LittleEndian.Uint64(b[len(b)-8:])
}

// MarshalBinary returns the table in the form AppendBinary describes.
func (t *IDF) MarshalBinary() ([]byte, error) { return t.AppendBinary(nil) }

// UnmarshalBinary replaces the table with one read from data, which must be
// exactly what [IDF.AppendBinary] writes for some table: it checks the
// magic, the version, the flags and the checksum, and accepts only the
// canonical encoding (minimal varints, terms strictly increasing, so none
// repeated, every frequency in [1, N], no byte after the checksum). It also
// reads version 1, the form written before the checksum was added (the
// same layout without it), so tables stored by earlier releases still load;
// such a table has no protection against corruption beyond the structural
// checks, and MarshalBinary writes it back as version 2. Every error wraps
// [ErrFormat] and leaves t unchanged, but for ErrFrozen when t is frozen:
// a frozen table is read-only, and those reading it (a Signer) may cache
// its weights.
func (t *IDF) UnmarshalBinary(data []byte) error {
	bad := func(what string) error {
		return fmt.Errorf("textproc: IDF.UnmarshalBinary: %s: %w", what, ErrFormat)
	}
	if len(data) < len(idfMagic)+2 || string(data[:len(idfMagic)]) != idfMagic {
		return bad("bad magic")
	}
	body := data[len(idfMagic)+1:]
	switch v := data[len(idfMagic)]; v {
	case idfVersion1:
	case idfVersion2:
		if len(body) < idfSumLen {
			return bad("truncated checksum")
		}
		n := len(data) - idfSumLen
		if binary.LittleEndian.Uint64(data[n:]) != xxh3.Hash(data[:n]) {
			return bad("checksum mismatch")
		}
		body = body[:len(body)-idfSumLen]
	default:
		return bad(fmt.Sprintf("unknown version %d", v))
	}
	df, n, flags, err := decodeIDFBody(body)
	if err != nil {
		return bad(err.Error())
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.frozen {
		return fmt.Errorf("textproc: IDF.UnmarshalBinary: %w", ErrFrozen)
	}
	t.n, t.df, t.peak, t.frozen, t.smooth, t.seen = n, df, len(df), flags&1 != 0, flags&2 != 0, nil
	return nil
}

// decodeIDFBody reads the flags, N and the terms of the binary form,
// accepting only the canonical encoding of a table and nothing after it.
func decodeIDFBody(p []byte) (df map[string]int64, n int64, flags byte, err error) {
	if len(p) == 0 {
		return nil, 0, 0, errors.New("truncated flags")
	}
	flags, p = p[0], p[1:]
	if flags&^3 != 0 {
		return nil, 0, 0, fmt.Errorf("unknown flags %#x", flags)
	}
	uv := func() (uint64, bool) {
		v, k := binary.Uvarint(p)
		if k <= 0 || k != snapshot.UvarintLen(v) {
			return 0, false // truncated, overflowing or not minimal
		}
		p = p[k:]
		return v, true
	}
	un, ok := uv()
	if !ok || un > math.MaxInt64 {
		return nil, 0, 0, errors.New("bad document count")
	}
	cnt, ok := uv()
	if !ok || cnt > uint64(len(p)/2) { // a term takes at least 2 bytes
		return nil, 0, 0, errors.New("bad term count")
	}
	df = make(map[string]int64, cnt)
	var prev []byte
	for i := uint64(0); i < cnt; i++ {
		l, ok := uv()
		if !ok || l > uint64(len(p)) {
			return nil, 0, 0, errors.New("truncated term")
		}
		k := p[:l]
		p = p[l:]
		if i > 0 && bytes.Compare(k, prev) <= 0 {
			return nil, 0, 0, errors.New("terms not strictly increasing")
		}
		prev = k
		v, ok := uv()
		if !ok || v == 0 || v > un {
			return nil, 0, 0, errors.New("document frequency out of range")
		}
		df[string(k)] = int64(v)
	}
	if len(p) != 0 {
		return nil, 0, 0, errors.New("trailing bytes")
	}
	return df, int64(un), flags, nil
}
