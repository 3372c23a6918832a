package codet

// Term weights: a caller's (frozen) idf table or the online table of the
// stream (Varol 2012 Eq. 2.1, §5.1.3).

import (
	"math"

	"github.com/seed-9ef9c1df/neardup/textproc"
)

// termWeight is the weight of a term for the document being added.
type termWeight Detector

func (t *termWeight) weight(id uint32, term string) float64 {
	d := (*Detector)(t)
	if int(id) < len(d.wstamp) && d.wstamp[id] == d.gen {
		return d.wdoc[id]
	}
	var w float64
	switch {
	case d.idf == nil:
		w = d.onlineWeight(id)
	case d.idfN >= 0: // frozen table: cached
		if int(id) < len(d.wcache) && !math.IsNaN(d.wcache[id]) {
			w = d.wcache[id]
		} else {
			w = d.idf.Weight(term)
			d.wcache = growNaN(d.wcache, int(id)+1)
			d.wcache[id] = w
		}
	default:
		w = d.idf.Weight(term)
	}
	if int(id) >= len(d.wstamp) {
		n := max(int(id)+1, 2*len(d.wstamp))
		d.wstamp = grow(d.wstamp, n)
		d.wdoc = grow(d.wdoc, n)
	}
	d.wstamp[id], d.wdoc[id] = d.gen, w
	return w
}

func (t *termWeight) key(_ uint32, w float64) float64 { return w }

func grow[T any](s []T, n int) []T {
	if n <= len(s) {
		return s
	}
	return append(s, make([]T, n-len(s))...)
}

func growNaN(s []float64, n int) []float64 {
	for len(s) < n {
		s = append(s, math.NaN())
	}
	return s
}

// onlineWeight is log(1 + N/df) of the online table; df ≥ 1 for every term
// of the document being added, which is counted first.
func (d *Detector) onlineWeight(id uint32) float64 {
	if d.nDocs == 0 {
		return 0
	}
	df := int64(1)
	if int(id) < len(d.df) && d.df[id] > 0 {
		df = d.df[id]
	}
	return math.Log1p(float64(d.nDocs) / float64(df))
}

// weightNow is idf(term) as a reader sees it (no cache writes).
func (d *Detector) weightNow(id uint32) float64 {
	if d.idf == nil {
		return d.onlineWeight(id)
	}
	if d.idfN >= 0 && int(id) < len(d.wcache) && !math.IsNaN(d.wcache[id]) {
		return d.wcache[id]
	}
	return d.idf.Weight(d.an.TermOf(id))
}

// prepare starts a new Add: a new scratch generation, the online idf
// counts of doc, and the frozen-table cache.
func (d *Detector) prepare(doc *textproc.Document) {
	d.gen++
	if d.gen == 0 { // wrapped: reset every stamp
		clear(d.stamp)
		clear(d.wstamp)
		clear(d.seen)
		d.gen = 1
	}
	if d.idf == nil {
		d.nDocs++
		for _, t := range doc.Tokens {
			if int(t.ID) >= len(d.seen) {
				n := max(int(t.ID)+1, 2*len(d.seen))
				d.seen = grow(d.seen, n)
				d.df = grow(d.df, n)
			}
			if d.seen[t.ID] != d.gen {
				d.seen[t.ID] = d.gen
				d.df[t.ID]++
			}
		}
		return
	}
	if d.idf.Frozen() {
		if n := d.idf.N(); n != d.idfN {
			d.idfN = n
			d.wcache = d.wcache[:0]
		}
	} else {
		d.idfN = -1
	}
}
