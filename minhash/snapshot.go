package minhash

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"slices"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/engine"
	"github.com/seed-9ef9c1df/neardup/internal/hashtab"
	"github.com/seed-9ef9c1df/neardup/internal/snapshot"
)

// Snapshot layout, version 1 (docs/snapshot.md in the repository has the
// framing). The header's Config is the effective Config; a Detector made
// by NewWithStats names its caller-owned statistics in the header's
// Tables as "Stats" with a fingerprint of their counts (they are not
// stored). Two sections follow:
//
//	"groups": count, then per group of exact copies, in the order the
//	          groups entered the LSH tables (when created; in Weighted
//	          mode when their newest copy was signed): the order of the
//	          band chains, which decides which groups a flooded band key
//	          probes:
//	            size:uvarint ≥ 1        distinct shingles (phrases)
//	            Weighted mode only:
//	              digest:u64            of the phrase set
//	              signed:bool           whether the group has a signature
//	            K × sig:u32             when signed (always in Jaccard and
//	                                    Containment modes)
//	            members: count ≥ 1, then per member, IDs ascending:
//	              id:str
//	              Weighted mode with online statistics only, the member's
//	              distinct terms and phrases: the first member
//	                terms:uvarint phrases:uvarint, then terms × u64 and
//	                phrases × u64, each part strictly ascending;
//	              every other member
//	                same:bool, true when its keys are the first member's,
//	                else its own keys as above (differing from them)
//	"empty":  count, then the IDs of the live documents without words,
//	          str each in ascending order
//
// Rebuilt on load: the band tables and the exact-copy map from the
// signatures, the order of each band chain from the order of the groups,
// and (with online statistics) the document frequencies, their histogram
// and N from the members' terms and phrases and the count of documents
// without words, each of which counts once towards N. Every other answer
// depends on the signatures, sizes and IDs only (results are ordered by
// score and ID). The trailer counts the live documents.
const (
	snapshotKind    = "minhash"
	snapshotVersion = 1
)

// storedConfig returns the Config a snapshot header stores for the
// effective Config cfg: cfg with the Sampler numbered as when layout
// version 1 was written, Darts 0 (then the default), IoffeICWS 1,
// PackedDarts 2. The effective Config of a Weighted detector never
// holds DefaultSampler, so a stored 0 names Darts alone there, and a
// Weighted snapshot written while Darts was the default keeps its meaning:
// it loads into a detector whose Config says Darts, and into no other.
// (Jaccard and Containment ignore the Sampler and store 0 as before.)
func storedConfig(cfg Config) Config {
	if cfg.Sampler == Darts {
		cfg.Sampler = 0
	}
	return cfg
}

// header returns the snapshot header of d. Caller holds no lock.
func (d *Detector) header() snapshot.Header {
	h := snapshot.Header{Kind: snapshotKind, KindVersion: snapshotVersion, Config: storedConfig(d.cfg)}
	if d.stats != nil && !d.online {
		h.Tables = map[string]uint64{"Stats": d.stats.fingerprint()}
	}
	return h
}

// fingerprint identifies the counts of st: N, every term's and phrase's
// document frequency and the tokenising they were made with. It is
// independent of the order documents were counted in.
func (st *Stats) fingerprint() uint64 {
	st.mu.RLock()
	defer st.mu.RUnlock()
	cfg := st.sk.cfg
	var h uint64
	// A sum over the keys of every part: the same whatever the parts.
	table := func(of func(*statPart) *dfTable, salt uint64) uint64 {
		var zero int64
		var sum uint64
		for p := range st.parts {
			for k, c := range of(&st.parts[p]).all {
				if k == 0 {
					zero += c
				} else {
					sum += hashtab.Mix64(hashtab.Combine(k^salt, uint64(c)))
				}
			}
		}
		return hashtab.Mix64(salt^uint64(zero)) + sum
	}
	st.exclusive(func() {
		h = hashtab.Combine(hashtab.Mix64(uint64(st.n)), uint64(cfg.Shingle))
		h = hashtab.Combine(h, hashtab.String64(cfg.Language, uint64(cfg.Content)))
		h = hashtab.Combine(h, table(func(p *statPart) *dfTable { return &p.termDF }, 0x7465726d)) // "term"
		h = hashtab.Combine(h, table(func(p *statPart) *dfTable { return &p.phrDF }, 0x706872))    // "phr"
	})
	return h
}

// WriteTo writes a snapshot of the live documents to w and returns the
// bytes written: their IDs, the signatures and set sizes of their groups
// of exact copies, and in Weighted mode with online statistics each
// document's distinct terms and phrases (8 bytes each), from which the
// statistics are rebuilt; not their texts (the layout: snapshot.go, the
// framing: docs/snapshot.md in the repository). The sections are encoded
// under the Detector's lock, after any Add that is signing has indexed
// its document, so the snapshot is consistent and concurrent Adds and
// Removes are either wholly in it or wholly not; w is written after the
// lock is released. It returns an error wrapping detector.ErrClosed after
// Close, or the error of w.
func (d *Detector) WriteTo(w io.Writer) (int64, error) {
	h := d.header()
	groups, empty, n, err := d.encode()
	if err != nil {
		return 0, err
	}
	sw := snapshot.NewWriter(w, h)
	sw.Section("groups", groups)
	sw.Section("empty", empty)
	return sw.Finish(uint64(n))
}

// encode returns the payloads of the two sections and the number of live
// documents, read under the lock.
func (d *Detector) encode() (groups, empty []byte, n int, err error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	for d.done.Load() != d.issued && !d.ix.docs.Closed() {
		d.turn.Wait()
	}
	ix := d.ix
	if ix.docs.Closed() {
		return nil, nil, 0, fmt.Errorf("minhash: WriteTo: %w", detector.ErrClosed)
	}
	var live []uint32
	for g := range ix.groups {
		if ix.groups[g].size > 0 {
			live = append(live, uint32(g))
		}
	}
	slices.SortFunc(live, func(a, b uint32) int { return cmp.Compare(ix.groups[a].seq, ix.groups[b].seq) })
	var bare []string
	for idx, g := range ix.refs {
		if g == noGroup && ix.docs.Live(uint32(idx)) {
			bare = append(bare, ix.docs.ID(uint32(idx)))
		}
	}
	slices.Sort(bare)

	var e snapshot.Enc
	e.Int(len(live))
	for _, g := range live {
		gr := &ix.groups[g]
		e.Int(int(gr.size))
		if d.cfg.Mode == Weighted {
			e.U64(ix.digests[g])
			e.Bool(gr.hasSig)
		}
		if gr.hasSig {
			for _, v := range ix.sigs.of(g) {
				e.U32(v)
			}
		}
		idxs := engine.Sorted(ix.docs, ix.gs.AppendMembers(nil, g, gr.first))
		e.Int(len(idxs))
		var first countedKeys
		for i, idx := range idxs {
			e.String(ix.docs.ID(idx))
			if !d.online {
				continue
			}
			c := ix.counted[idx].sorted()
			if i > 0 {
				same := c.terms == first.terms && slices.Equal(c.keys, first.keys)
				e.Bool(same)
				if same {
					continue
				}
			} else {
				first = c
			}
			e.Int(c.terms)
			e.Int(len(c.keys) - c.terms)
			for _, k := range c.keys {
				e.U64(k)
			}
		}
	}
	groups = e.B
	e = snapshot.Enc{}
	e.Int(len(bare))
	for _, id := range bare {
		e.String(id)
	}
	return groups, e.B, ix.docs.Len(), nil
}

// ReadFrom loads a snapshot written by WriteTo into d, which must be empty
// and made by the same constructor with the same Config (and, for
// NewWithStats, statistics with the same counts), and returns the bytes
// read. It reads and checks the whole snapshot and builds a fresh index
// (and, with online statistics, fresh counts) before it installs them, so
// on any error d stays empty. Loading is linear in the snapshot: per group
// one insertion into each band table, per document one ID, and no text is
// signed.
//
// It returns an error wrapping detector.ErrClosed after Close, and one
// wrapping detector.ErrSnapshot for a d that is not empty and for input it
// cannot load: not a MinHash snapshot of this layout, a Config differing
// from d's (the error names the field), other statistics (the error names
// the Stats table), a damaged or truncated stream.
func (d *Detector) ReadFrom(r io.Reader) (int64, error) {
	return snapshot.Load("minhash", r, d.header(), []string{"groups", "empty"}, d.readable,
		func(secs [][]byte) (int, func() error, error) {
			ix, st, err := d.decode(secs[0], secs[1])
			if err != nil {
				return 0, nil, err
			}
			return ix.docs.Len(), func() error {
				d.mu.Lock()
				defer d.mu.Unlock()
				if err := d.emptyLocked(); err != nil {
					return err
				}
				if d.online {
					d.stats.exclusive(func() {
						d.stats.n, d.stats.nphr, d.stats.hist = st.n, st.nphr, st.hist
						for p := range d.stats.parts {
							d.stats.parts[p].termDF, d.stats.parts[p].phrDF = st.parts[p].termDF, st.parts[p].phrDF
						}
					})
				}
				d.ix = ix
				d.version++
				return nil
			}, nil
		})
}

// readable returns the error ReadFrom gives a closed or non-empty d.
func (d *Detector) readable() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.emptyLocked()
}

func (d *Detector) emptyLocked() error {
	if err := d.ix.docs.Loadable(); err != nil {
		return err
	}
	if d.done.Load() != d.issued {
		return engine.NotEmpty("minhash", "an Add into this one is under way")
	}
	return nil
}

// decode builds a fresh index, and with online statistics fresh counts,
// from the payloads of the two sections, checking that they are
// canonical: what it accepts, encode writes back byte for byte.
func (d *Detector) decode(groups, empty []byte) (*index, *Stats, error) {
	ix := d.newIndex()
	var st *Stats
	if d.online {
		st = &Stats{}
	}
	k := d.cfg.NumHashes
	weighted := d.cfg.Mode == Weighted
	dec := snapshot.NewDec(groups)
	// A group takes at least a size, a member count and one ID.
	ng := dec.Len(3, 0)
	sig := make([]uint32, k)
	var prev []string
	for range ng {
		size := dec.Int(math.MaxInt32)
		if dec.Err() == nil && size < 1 {
			dec.Fail("group of size 0")
		}
		var digest uint64
		signed := true
		if weighted {
			digest = dec.U64()
			signed = dec.Bool()
		}
		s := sig[:0]
		if signed {
			for i := range k {
				sig[i] = dec.U32()
			}
			s = sig
		}
		nm := dec.Len(2, 0)
		if dec.Err() == nil && nm < 1 {
			dec.Fail("group without members")
		}
		if dec.Err() != nil {
			return nil, nil, dec.Err()
		}
		if _, ok := d.find(ix, s, size, digest); ok {
			dec.Fail("two groups with one content")
			return nil, nil, dec.Err()
		}
		var g uint32
		prev = prev[:0]
		var first countedKeys
		for m := range nm {
			id := dec.String()
			if dec.Err() == nil && (id == "" || m > 0 && id <= prev[len(prev)-1]) {
				dec.Fail("member IDs empty or out of order")
			}
			var keys countedKeys
			if d.online {
				if m > 0 && dec.Bool() {
					keys = first
				} else {
					keys = decKeys(dec)
					if m > 0 && dec.Err() == nil && keys.terms == first.terms && slices.Equal(keys.keys, first.keys) {
						dec.Fail("a copy's terms and phrases written out though they are the first member's")
					}
				}
				if m == 0 {
					first = keys
				}
			}
			if dec.Err() != nil {
				return nil, nil, dec.Err()
			}
			idx, err := ix.docs.Add(detector.Doc{ID: id})
			if err != nil {
				dec.Fail("document %q twice", id)
				return nil, nil, dec.Err()
			}
			prev = append(prev, id)
			if m == 0 {
				g = d.place(ix, idx, s, size, digest)
			} else {
				ix.ensureRef(idx)
				ix.join(g, idx)
			}
			if d.online {
				ix.setCounted(idx, keys)
				st.addAll(keys.keys[:keys.terms], keys.keys[keys.terms:])
			}
		}
	}
	if err := dec.Done(); err != nil {
		return nil, nil, err
	}

	dec = snapshot.NewDec(empty)
	ne := dec.Len(2, 0)
	last := ""
	for i := range ne {
		id := dec.String()
		if dec.Err() == nil && (id == "" || i > 0 && id <= last) {
			dec.Fail("IDs of documents without words empty or out of order")
		}
		if dec.Err() != nil {
			return nil, nil, dec.Err()
		}
		last = id
		idx, err := ix.docs.Add(detector.Doc{ID: id})
		if err != nil {
			dec.Fail("document %q twice", id)
			return nil, nil, dec.Err()
		}
		ix.ensureRef(idx)
		ix.refs[idx] = noGroup
		if d.online {
			ix.setCounted(idx, countedKeys{keys: []uint64{}})
			st.addAll(nil, nil)
		}
	}
	if err := dec.Done(); err != nil {
		return nil, nil, err
	}
	return ix, st, nil
}

// decKeys reads one document's terms and phrases, each part strictly
// ascending.
func decKeys(dec *snapshot.Dec) countedKeys {
	nt := dec.Len(8, 0)
	np := dec.Len(8, 0)
	if dec.Err() != nil {
		return countedKeys{}
	}
	if uint64(nt)+uint64(np) > math.MaxInt32 {
		dec.Fail("%d terms and %d phrases", nt, np)
		return countedKeys{}
	}
	keys := make([]uint64, nt+np)
	for i := range keys {
		keys[i] = dec.U64()
		if i != 0 && i != nt && keys[i] <= keys[i-1] && dec.Err() == nil {
			dec.Fail("terms or phrases out of order")
		}
	}
	return countedKeys{keys: keys, terms: nt}
}

// sorted returns c with each part ascending, as a snapshot stores it: c
// itself when it already is (as loaded from a snapshot), else a sorted
// copy (Add keeps text order).
func (c countedKeys) sorted() countedKeys {
	t, p := c.keys[:c.terms], c.keys[c.terms:]
	if slices.IsSorted(t) && slices.IsSorted(p) {
		return c
	}
	keys := slices.Clone(c.keys)
	slices.Sort(keys[:c.terms])
	slices.Sort(keys[c.terms:])
	return countedKeys{keys: keys, terms: c.terms}
}

// setCounted records the terms and phrases of the document idx.
func (ix *index) setCounted(idx uint32, c countedKeys) {
	for len(ix.counted) <= int(idx) {
		ix.counted = append(ix.counted, countedKeys{})
	}
	ix.counted[idx] = c
}
