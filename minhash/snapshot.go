package minhash

import (
	"cmp"
	"math"
	"slices"

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

// fingerprint identifies the counts of st: N, every term's and phrase's
// document frequency and the tokenising they were made with. It is
// independent of the order documents were counted in.
func (st *Stats) fingerprint() uint64 {
	st.mu.RLock()
	defer st.mu.RUnlock()
	cfg := st.sk.cfg
	// A sum over the keys: the same whatever order they were counted in.
	table := func(t *dfTable, salt uint64) uint64 {
		var zero int64
		var sum uint64
		for k, c := range t.all {
			if k == 0 {
				zero += c
			} else {
				sum += hashtab.Mix64(hashtab.Combine(k^salt, uint64(c)))
			}
		}
		return hashtab.Mix64(salt^uint64(zero)) + sum
	}
	h := hashtab.Combine(hashtab.Mix64(uint64(st.n)), uint64(cfg.Shingle))
	h = hashtab.Combine(h, hashtab.String64(cfg.Language, uint64(cfg.Content)))
	h = hashtab.Combine(h, table(&st.termDF, 0x7465726d)) // "term"
	return hashtab.Combine(h, table(&st.phrDF, 0x706872)) // "phr"
}

// Sections names the two sections of the layout.
func (a *algorithm) Sections() []string { return []string{"groups", "empty"} }

// EncodeSections writes the groups in chain order, with each member's
// terms and phrases read in the counted index c (none without one), and
// the documents without words.
func (a *algorithm) EncodeSections(groups []engine.SnapshotGroup[sketch], bare []string, c engine.Counter[sketch]) [][]byte {
	ci, _ := c.(*countedIndex)
	slices.SortFunc(groups, func(x, y engine.SnapshotGroup[sketch]) int { return cmp.Compare(x.F.seq, y.F.seq) })
	var e snapshot.Enc
	e.Int(len(groups))
	for _, g := range groups {
		a.EncodeGroup(&e, g.F)
		e.Int(len(g.IDs))
		var first countedKeys
		for i, id := range g.IDs {
			e.String(id)
			if ci == nil {
				continue
			}
			k := ci.keys(g.Handles[i]).sorted()
			if i > 0 {
				same := k.terms == first.terms && slices.Equal(k.keys, first.keys)
				e.Bool(same)
				if same {
					continue
				}
			} else {
				first = k
			}
			e.Int(k.terms)
			e.Int(len(k.keys) - k.terms)
			for _, x := range k.keys {
				e.U64(x)
			}
		}
	}
	groupsSec := e.B
	e = snapshot.Enc{}
	e.Strings(bare)
	return [][]byte{groupsSec, e.B}
}

// EncodeGroup writes what a snapshot stores of a group before its
// members: size, and in Weighted mode digest and signed, then the
// signature.
func (a *algorithm) EncodeGroup(e *snapshot.Enc, f *sketch) {
	e.Int(int(f.size))
	if a.cfg.Mode == Weighted {
		e.U64(f.digest)
		e.Bool(f.sig != nil)
	}
	for _, v := range f.sig {
		e.U32(v)
	}
}

// DecodeGroup reads what EncodeGroup wrote, the signature in a new slice.
func (a *algorithm) DecodeGroup(dec *snapshot.Dec) sketch {
	var f sketch
	f.size = int32(dec.Int(math.MaxInt32))
	if dec.Err() == nil && f.size < 1 {
		dec.Fail("group of size 0")
	}
	signed := true
	if a.cfg.Mode == Weighted {
		f.digest = dec.U64()
		signed = dec.Bool()
	}
	if signed {
		f.sig = make([]uint32, a.cfg.NumHashes)
		for i := range f.sig {
			f.sig[i] = dec.U32()
		}
	}
	return f
}

// DecodeSections reads what EncodeSections wrote,
// checking that it is canonical: member IDs ascending, a copy's terms and
// phrases written out only where they differ from the first member's.
func (a *algorithm) DecodeSections(secs [][]byte, group func(*snapshot.Dec, *sketch, []string), bare func(*snapshot.Dec, string)) error {
	dec := snapshot.NewDec(secs[0])
	// A group takes at least a size, a member count and one ID.
	for range dec.Len(3, 0) {
		f := a.DecodeGroup(dec)
		nm := dec.Len(2, 0)
		if dec.Err() == nil && nm < 1 {
			dec.Fail("group without members")
		}
		ids := make([]string, 0, nm)
		var keys []countedKeys
		for m := range nm {
			id := dec.String()
			if dec.Err() == nil && (id == "" || m > 0 && id <= ids[len(ids)-1]) {
				dec.Fail("member IDs empty or out of order")
			}
			if a.online {
				var k countedKeys
				if m > 0 && dec.Bool() {
					k = keys[0]
				} else {
					k = decKeys(dec)
					if m > 0 && dec.Err() == nil && k.terms == keys[0].terms && slices.Equal(k.keys, keys[0].keys) {
						dec.Fail("a copy's terms and phrases written out though they are the first member's")
					}
				}
				keys = append(keys, k)
			}
			if dec.Err() != nil {
				return dec.Err()
			}
			ids = append(ids, id)
		}
		if dec.Err() != nil {
			return dec.Err()
		}
		f.load = &keys
		if group(dec, &f, ids); dec.Err() != nil {
			return dec.Err()
		}
	}
	if err := dec.Done(); err != nil {
		return err
	}
	return engine.DecodeBare(secs[1], bare)
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
