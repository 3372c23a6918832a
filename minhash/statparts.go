package minhash

// The online statistics of a Weighted-mode Detector are counted in ticket
// order: a document's weights must see exactly the counts after the
// documents before it, as sequential Adds would. Counting used to be one
// exclusive section per document, 16% of a Reuters Add's CPU, and Adds
// from 2 goroutines ran 1.2-1.4× as fast as from one (docs/minhash.md in
// the repository has the figures). The document frequencies are now
// split by key hash into statParts parts, each with its own turn, and a
// tail stage (N and the histogram of phrase dfs) after them: the document
// of ticket t counts its keys of part p once ticket t−1 has left part p,
// so consecutive documents pipeline through the parts, one in part p
// while the next is in part p−1, and each still reads in every part (and
// in the tail) the counts of exactly the tickets before its own. Whatever
// reads or changes the statistics whole (a Remove, a Query's weighing, a
// snapshot's fingerprint or load, AddDocument) takes a ticket too and
// holds every part and the tail at once.

import "github.com/seed-9ef9c1df/neardup/internal/idftab"

// statParts is the number of parts the document frequencies are split
// into (a power of two): enough that a part's turn is short beside the
// rest of an Add, few enough that a document's turns cost little.
const (
	statPartBits = 3
	statParts    = 1 << statPartBits
)

// statPart is one part of the document frequencies, with its turn. The
// turn's words, which the next ticket's goroutine polls while this one
// counts, and the tables' words, which the counting one writes (a new
// key's n, prefetch's sink), are kept on different cache lines, and so
// are neighbouring parts': a write of one no longer sends the line the
// other core reads back and forth.
type statPart struct {
	order  idftab.Order // tickets that have counted into the part
	_      [64]byte
	termDF dfTable
	phrDF  dfTable
	_      [64]byte
}

// partOf returns the part of a term or phrase hash. Its bits are the top
// ones of a product other than the one dfTable.home takes its slot from.
func partOf(h uint64) int {
	return int((h * 0xd6e8feb86659fd93) >> (64 - statPartBits))
}

// ticket returns the next ticket of the statistics' order. A Detector takes
// it for an Add while it holds its own lock, so that documents are counted
// in the order their Adds are indexed.
func (st *Stats) ticket() uint64 { return st.parts[0].order.Ticket() }

// exclusive runs fn holding the statistics whole: after every earlier
// ticket has counted and before any later one starts.
func (st *Stats) exclusive(fn func()) {
	t := st.ticket()
	for p := range st.parts {
		st.parts[p].order.Wait(t)
	}
	st.tail.Wait(t)
	fn()
	for p := range st.parts {
		st.parts[p].order.Done()
	}
	st.tail.Done()
}

// count counts the document s.phrases found into the online statistics
// stats in the turns of ticket t, and keeps the counts its weights need:
// the df of each phrase and term after its own count, the rare-phrase cut
// and N, all as of the tickets before t. Only the probes run in the turns;
// sorting the keys by part runs before them, and weighCounted the rest
// after them.
func (s *Sketcher) count(stats *Stats, t uint64) {
	nt, np := len(s.dterms), len(s.keys)
	s.phrDF = growInt64(s.phrDF, np)
	s.tdf = growInt64(s.tdf, nt)
	if cap(s.partTPos) < nt {
		s.partTPos = make([]int32, nt)
	}
	s.partTPos = s.partTPos[:nt]
	if cap(s.partKeys) < nt+np {
		s.partKeys = make([]uint64, nt+np)
	}
	if cap(s.partIdx) < np {
		s.partIdx = make([]int32, np)
	}
	s.partKeys, s.partIdx = s.partKeys[:nt+np], s.partIdx[:np]
	// Terms go to partKeys[:nt] and phrases to partKeys[nt:], each sorted
	// by part (a counting sort); partTPos[j] is the position in s.dterms
	// of the j-th term so sorted, partIdx[j] that in s.keys of the j-th
	// phrase.
	var ts, ps [statParts + 1]int
	for _, h := range s.dterms {
		ts[partOf(h)+1]++
	}
	for _, h := range s.keys {
		ps[partOf(h)+1]++
	}
	for p := 1; p <= statParts; p++ {
		ts[p] += ts[p-1]
		ps[p] += ps[p-1]
	}
	tnext, pnext := ts, ps
	for t, h := range s.dterms {
		p := partOf(h)
		s.partKeys[tnext[p]] = h
		s.partTPos[tnext[p]] = int32(t)
		tnext[p]++
	}
	for i, h := range s.keys {
		p := partOf(h)
		s.partKeys[nt+pnext[p]] = h
		s.partIdx[pnext[p]] = int32(i)
		pnext[p]++
	}
	for p := range stats.parts {
		part := &stats.parts[p]
		terms := s.partKeys[ts[p]:ts[p+1]]
		phrases := s.partKeys[nt+ps[p] : nt+ps[p+1]]
		part.order.Wait(t)
		part.termDF.reserve(len(terms))
		part.phrDF.reserve(len(phrases))
		part.termDF.prefetch(terms)
		part.phrDF.prefetch(phrases)
		for j, h := range terms {
			s.tdf[s.partTPos[ts[p]+j]] = part.termDF.inc(h)
		}
		for j, h := range phrases {
			s.phrDF[s.partIdx[ps[p]+j]] = part.phrDF.inc(h)
		}
		part.order.Done()
	}
	stats.tail.Wait(t)
	stats.n++
	for _, x := range s.phrDF {
		stats.tally(x)
	}
	s.cut, s.n = stats.rareCut(s.cfg), stats.n
	stats.tail.Done()
}
