package textproc

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"
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
// An IDF is safe for concurrent use by multiple goroutines: any number of
// readers, and writers serialised by an internal lock.
type IDF struct {
	mu     sync.RWMutex
	n      int64
	df     map[string]int64
	frozen bool
	smooth bool
	seen   map[string]struct{}
}

// ErrFrozen is returned when documents are added to a frozen IDF table.
var ErrFrozen = errors.New("textproc: IDF table is frozen")

// NewIDF returns an empty, unfrozen table. smooth selects log(1 + N/df).
func NewIDF(smooth bool) *IDF {
	return &IDF{df: make(map[string]int64), smooth: smooth}
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
// It returns ErrFrozen after Freeze.
func (t *IDF) AddDocument(terms []string) error {
	return t.update(terms, 1)
}

// RemoveDocument uncounts a document added before with the same terms, for an
// online table over a moving window. It returns ErrFrozen after Freeze.
func (t *IDF) RemoveDocument(terms []string) error {
	return t.update(terms, -1)
}

func (t *IDF) update(terms []string, delta int64) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.frozen {
		return ErrFrozen
	}
	if t.seen == nil {
		t.seen = make(map[string]struct{})
	}
	clear(t.seen)
	for _, w := range terms {
		if _, dup := t.seen[w]; dup {
			continue
		}
		t.seen[w] = struct{}{}
		if c := t.df[w] + delta; c > 0 {
			t.df[w] = c
		} else {
			delete(t.df, w)
		}
	}
	t.n = max(t.n+delta, 0)
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
	n, df := t.n, t.df[term]
	t.mu.RUnlock()
	return weight(n, df, t.smooth)
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

const idfMagic = "NDIDF\x01"

// AppendBinary appends the table in its versioned binary form: magic and
// version, flags, N, the number of terms, then each term (length-prefixed)
// with its document frequency, in sorted term order.
func (t *IDF) AppendBinary(b []byte) ([]byte, error) {
	t.mu.RLock()
	defer t.mu.RUnlock()
	b = append(b, idfMagic...)
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
	return b, nil
}

// MarshalBinary returns the table in the form AppendBinary describes.
func (t *IDF) MarshalBinary() ([]byte, error) { return t.AppendBinary(nil) }

// UnmarshalBinary replaces the table with one read from data. It checks the
// magic, version and every length, and leaves t unchanged on error.
func (t *IDF) UnmarshalBinary(data []byte) error {
	bad := func(what string) error { return fmt.Errorf("textproc: IDF.UnmarshalBinary: %s", what) }
	if len(data) < len(idfMagic)+1 || string(data[:len(idfMagic)]) != idfMagic {
		return bad("bad magic or version")
	}
	flags := data[len(idfMagic)]
	if flags&^3 != 0 {
		return bad("unknown flags")
	}
	p := data[len(idfMagic)+1:]
	uv := func() (uint64, bool) {
		v, k := binary.Uvarint(p)
		if k <= 0 || k != len(binary.AppendUvarint(nil, v)) {
			return 0, false // truncated, overflowing or not minimal
		}
		p = p[k:]
		return v, true
	}
	n, ok := uv()
	if !ok || n > math.MaxInt64 {
		return bad("truncated count")
	}
	cnt, ok := uv()
	if !ok || cnt > uint64(len(p)) {
		return bad("truncated term count")
	}
	df := make(map[string]int64, cnt)
	prev := ""
	for i := uint64(0); i < cnt; i++ {
		l, ok := uv()
		if !ok || l > uint64(len(p)) {
			return bad("truncated term")
		}
		k := string(p[:l])
		p = p[l:]
		v, ok := uv()
		if !ok || v == 0 || v > n {
			return bad("document frequency out of range")
		}
		if i > 0 && k <= prev {
			return bad("terms not sorted")
		}
		prev = k
		df[k] = int64(v)
	}
	if len(p) != 0 {
		return bad("trailing bytes")
	}
	t.mu.Lock()
	t.n, t.df, t.frozen, t.smooth, t.seen = int64(n), df, flags&1 != 0, flags&2 != 0, nil
	t.mu.Unlock()
	return nil
}
