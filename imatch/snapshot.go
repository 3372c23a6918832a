package imatch

import (
	"io"

	"github.com/seed-9ef9c1df/neardup/internal/engine"
	"github.com/seed-9ef9c1df/neardup/internal/idftab"
	"github.com/seed-9ef9c1df/neardup/internal/snapshot"
)

// Snapshot layout, version 1 (docs/snapshot.md in the repository has the
// framing). The header's Config is the effective Config. A Detector of
// [NewWithIDF] names the caller's table by its fingerprint
// (textproc.IDF.Fingerprint), as "idf" when the table was frozen when the
// Detector was built and "idf-unfrozen" when it was not (the two index
// different keys); a Detector of [New] has no caller-owned table: its own
// online table is rebuilt from the terms stored below. Two sections
// follow:
//
//	"groups": count, then per content (the live documents of one analysed
//	          term sequence), in ascending order of its smallest member ID:
//	            content: u64 u64 (the exact-content digest)
//	            terms: own table only: count ≥ 1, str each, distinct, in
//	                   the order of their first occurrence in the text
//	            groups: count ≥ 1 (exactly 1 with a frozen table), per key
//	                    list in ascending order of its smallest member ID:
//	              keys: count, then lexicon:uvarint digest:u64 u64 each,
//	                    lexicons strictly ascending, at most Lexicons
//	              members: count ≥ 1, str each in ascending order
//	"empty":  count, then the IDs of the documents without terms, str each
//	          in ascending order
//
// The engine frames the snapshot; the algorithm writes both sections
// (engine.Layout), as the engine's shared layout would but for "groups",
// whose contents nest the engine's groups.
// The exact-content key is not stored: a key list carries it when the
// table can change or the list has no lexicon key, as Add decides. Every
// later answer depends on the keys, the IDs and the online table's counts
// (its document frequencies and N, which the terms of the live documents
// determine), not on the order the documents arrived in, so no arrival
// order is stored. The trailer counts the live documents.
const snapshotVersion = 1

var _ engine.Layout[features] = (*algorithm)(nil)

// WriteTo writes a snapshot of the live documents to w and returns the
// bytes written: their IDs, their keys once per group of copies and, for a
// Detector of [New], the distinct terms of each content, from which
// ReadFrom rebuilds the online table; not their texts. Concurrent Adds and
// Removes are wholly in it or not. After Close the error wraps
// detector.ErrClosed.
func (d *Detector) WriteTo(w io.Writer) (int64, error) { return d.e.WriteTo(w) }

// ReadFrom loads a snapshot written by WriteTo into the empty d, made by
// the same constructor with the same Config (and, for [NewWithIDF], a
// table of the same content and frozen state), and returns the bytes read;
// on any error d stays empty. It costs the bytes read plus one index
// insertion per document and, for a Detector of [New], counting its terms;
// no text is analysed. Errors wrap detector.ErrClosed after Close,
// otherwise detector.ErrSnapshot (d not empty, another layout, Config or
// IDF table, damaged input).
func (d *Detector) ReadFrom(r io.Reader) (int64, error) { return d.e.ReadFrom(r) }

// Sections names the two sections.
func (a *algorithm) Sections() []string { return []string{"groups", "empty"} }

// EncodeSections writes the "groups" section, the engine's groups (which
// come in ascending order of their smallest member) nested in their
// contents, in the order of their first group, and the "empty" section,
// the documents without terms.
func (a *algorithm) EncodeSections(groups []engine.SnapshotGroup[features], empty []string, _ engine.Counter[features]) [][]byte {
	var e snapshot.Enc
	byContent := map[Digest][]engine.SnapshotGroup[features]{}
	var order []Digest
	for _, g := range groups {
		c := g.F.content
		if _, ok := byContent[c]; !ok {
			order = append(order, c)
		}
		byContent[c] = append(byContent[c], g)
	}
	e.Int(len(order))
	var terms []string
	for _, c := range order {
		gs := byContent[c]
		e.Bytes16(c)
		if a.own {
			terms = idftab.Unpack(terms[:0], gs[0].F.packed)
			e.Strings(terms)
		}
		e.Int(len(gs))
		for _, g := range gs {
			a.EncodeGroup(&e, g.F)
			e.Strings(g.IDs)
		}
	}
	groupsSec := e.B
	e = snapshot.Enc{}
	e.Strings(empty)
	return [][]byte{groupsSec, e.B}
}

// EncodeGroup writes the key list of one group (its lexicon keys).
func (a *algorithm) EncodeGroup(e *snapshot.Enc, f *features) {
	keys := f.keys[:lexiconKeys(f.keys)]
	e.Int(len(keys))
	for _, k := range keys {
		e.Int(k.Lexicon)
		e.Bytes16(k.Digest)
	}
}

// DecodeGroup reads what EncodeGroup wrote: the lexicon keys, checked in
// range and strictly ascending by lexicon.
func (a *algorithm) DecodeGroup(d *snapshot.Dec) features {
	nk := d.Len(17, a.cfg.Lexicons+1)
	keys := make([]Key, 0, nk+1)
	for range nk {
		lex := d.Uvarint()
		k := Key{Lexicon: int(min(lex, maxLexicons+1)), Digest: d.Bytes16()}
		if d.Err() == nil && (lex > uint64(a.cfg.Lexicons) || len(keys) > 0 && k.Lexicon <= keys[len(keys)-1].Lexicon) {
			d.Fail("key of lexicon %d out of order or range", lex)
		}
		keys = append(keys, k)
	}
	return features{keys: keys}
}

// DecodeSections reads what EncodeSections wrote, checking that it is
// canonical, and gives the engine each group with its members and each
// document without terms.
func (a *algorithm) DecodeSections(secs [][]byte, group func(*snapshot.Dec, *features, []string), empty func(*snapshot.Dec, string)) error {
	d := snapshot.NewDec(secs[0])
	// A content takes at least 16 bytes and two counts.
	n := d.Len(18, 0)
	prevContent := ""
	contents := make(map[Digest]bool, n)
	for range n {
		content := d.Bytes16()
		if d.Err() == nil && contents[content] {
			d.Fail("one content twice")
		}
		contents[content] = true
		packed := ""
		if a.own {
			packed = idftab.Pack(d.Strings(1, false, "terms"))
		}
		// A key list takes two counts and one ID.
		ng := d.Len(4, 0)
		if d.Err() == nil && (ng == 0 || ng > 1 && !a.exact) {
			d.Fail("%d key lists for one content", ng)
		}
		prev := ""
		for j := range ng {
			f := a.DecodeGroup(d)
			f.keys = a.withExact(f.keys, content, true)
			f.content, f.packed = content, packed
			ids := d.IDs(1)
			if d.Err() != nil {
				return d.Err()
			}
			if j == 0 && ids[0] <= prevContent || j > 0 && ids[0] <= prev {
				d.Fail("groups out of order")
				return d.Err()
			}
			if j == 0 {
				prevContent = ids[0]
			}
			prev = ids[0]
			if group(d, &f, ids); d.Err() != nil {
				return d.Err()
			}
		}
	}
	if err := d.Done(); err != nil {
		return err
	}
	return engine.DecodeBare(secs[1], empty)
}
