package engine

import (
	"fmt"
	"io"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/snapshot"
)

// The shared snapshot layout (docs/snapshot.md in the repository has the
// framing): the header names Spec.Name and Spec.Version and holds
// Spec.Config and Spec.Tables; two sections follow:
//
//	"groups":     count, then per group of exact copies, in ascending order
//	              of its smallest member ID:
//	                the Algorithm's EncodeGroup
//	                members: count ≥ 1, str each in ascending order
//	Spec.NoGroup: count, then the IDs of the documents in no group, str
//	              each in ascending order
//
// The trailer counts the live documents. Answers depend on the groups'
// features and the IDs only, not on arrival order, so none is stored.
// An Algorithm that is a [Layout] frames its sections itself instead.

// Layout is an Algorithm that frames its groups in snapshot sections of
// its own instead of the shared two (EncodeGroup and DecodeGroup are then
// unused by the engine): for a layout written before the engine or one
// the shared layout does not fit (groups nested in a level of their own,
// say). The header, the trailer and the checks of the documents and
// groups stay the engine's. Encoding and decoding cost what the Layout's
// own code does, plus the engine's list of the live groups.
type Layout[F any] interface {
	// Sections returns the names of its sections, in order.
	Sections() []string
	// EncodeSections returns the payload of each section, given the live
	// groups in ascending order of their smallest member ID, the IDs of
	// the documents in no group, ascending, and the index's Counter (nil
	// without one). When the Counter is a [MemberRecounter], the groups
	// carry their members' handles in it (SnapshotGroup.Handles), for a
	// Layout that stores what the Counter keeps of each member.
	EncodeSections(groups []SnapshotGroup[F], bare []string, c Counter[F]) [][]byte
	// DecodeSections reads what EncodeSections wrote, calling group with
	// the features and the member IDs of each group and bare with each
	// document in no group, in any order; both fail d (Dec.Fail) on what
	// they refuse (a group without a key, two groups of one key, an ID
	// seen before), and DecodeSections then stops and returns the first
	// error, which wraps detector.ErrSnapshot. It fails on anything
	// EncodeSections would not have written, so that what it accepts
	// re-encodes byte for byte.
	DecodeSections(secs [][]byte, group func(d *snapshot.Dec, f *F, ids []string), bare func(d *snapshot.Dec, id string)) error
}

// SnapshotGroup is a live group as a [Layout] encodes it: its features
// and its member IDs, ascending; with a [MemberRecounter], Handles are the
// members' handles in it, in the order of IDs (nil otherwise).
type SnapshotGroup[F any] struct {
	F       *F
	IDs     []string
	Handles []int32
}

// sharedLayout is the engine's own [Layout], the shared one above, for
// an Algorithm that has none.
type sharedLayout[F any, K comparable] struct{ e *Engine[F, K] }

// sections returns the names of the snapshot's sections: a Sectioner's,
// or the Layout's.
func (e *Engine[F, K]) sections() []string {
	if s, ok := e.alg.(Sectioner); ok {
		return s.Sections()
	}
	return e.layout().Sections()
}

// layout returns the Algorithm's Layout, or the shared one.
func (e *Engine[F, K]) layout() Layout[F] {
	if l, ok := e.alg.(Layout[F]); ok {
		return l
	}
	return sharedLayout[F, K]{e}
}

func (s sharedLayout[F, K]) Sections() []string { return []string{"groups", s.e.spec.NoGroup} }

func (s sharedLayout[F, K]) EncodeSections(groups []SnapshotGroup[F], bare []string, _ Counter[F]) [][]byte {
	var enc snapshot.Enc
	enc.Int(len(groups))
	for _, g := range groups {
		s.e.alg.EncodeGroup(&enc, g.F)
		enc.Strings(g.IDs)
	}
	secs := [][]byte{enc.B}
	enc = snapshot.Enc{}
	enc.Strings(bare)
	return append(secs, enc.B)
}

func (s sharedLayout[F, K]) DecodeSections(secs [][]byte, group func(*snapshot.Dec, *F, []string), bare func(*snapshot.Dec, string)) error {
	if err := DecodeGroups(secs[0], s.e.spec.MinGroupBytes, s.e.alg.DecodeGroup, group); err != nil {
		return err
	}
	return DecodeBare(secs[1], bare)
}

// DecodeGroups reads a section of groups as the shared layout writes it:
// a count, then each group's features (decode, at least minBytes with its
// IDs) and member IDs, in ascending order of their first ID, calling group
// with each. It fails on groups out of order and on bytes after the last.
func DecodeGroups[F any](sec []byte, minBytes int, decode func(*snapshot.Dec) F, group func(*snapshot.Dec, *F, []string)) error {
	dec := snapshot.NewDec(sec)
	n := dec.Len(minBytes, 0)
	prev := ""
	for i := range n {
		f := decode(dec)
		ids := dec.IDs(1)
		if dec.Err() != nil {
			return dec.Err()
		}
		if i > 0 && ids[0] <= prev {
			dec.Fail("groups out of order")
			return dec.Err()
		}
		prev = ids[0]
		if group(dec, &f, ids); dec.Err() != nil {
			return dec.Err()
		}
	}
	return dec.Done()
}

// DecodeBare reads a section of the IDs of the documents in no group, as
// the shared layout writes it (ascending), calling bare with each: for a
// [Layout] that keeps that section.
func DecodeBare(sec []byte, bare func(d *snapshot.Dec, id string)) error {
	dec := snapshot.NewDec(sec)
	for _, id := range dec.IDs(0) {
		if bare(dec, id); dec.Err() != nil {
			return dec.Err()
		}
	}
	return dec.Done()
}

func (e *Engine[F, K]) header() snapshot.Header {
	tables := e.spec.Tables
	if e.spec.TablesNow != nil {
		tables = e.spec.TablesNow()
	}
	return snapshot.Header{Kind: e.spec.Name, KindVersion: e.spec.Version, Config: e.spec.Config, Tables: tables}
}

// WriteTo writes a snapshot of the live documents to w and returns the
// bytes written. The sections are encoded under the read lock, so
// concurrent Adds and Removes are either wholly in it or wholly not; w is
// written after the lock is released. It returns an error wrapping
// detector.ErrClosed after Close, or the error of w.
func (e *Engine[F, K]) WriteTo(w io.Writer) (int64, error) {
	secs, n, err := e.encode()
	if err != nil {
		return 0, err
	}
	sw := snapshot.NewWriter(w, e.header())
	for i, name := range e.sections() {
		sw.Section(name, secs[i])
	}
	return sw.Finish(uint64(n))
}

func (e *Engine[F, K]) encode() (secs [][]byte, n int, err error) {
	e.mu.RLock()
	defer e.mu.RUnlock()
	st := e.st
	if st.docs.Closed() {
		return nil, 0, fmt.Errorf("%s: WriteTo: %w", e.spec.Name, detector.ErrClosed)
	}
	if il, ok := st.ix.(IndexLayout[F]); ok {
		return il.EncodeSections(), st.docs.Len(), nil
	}
	live, ids := st.groupOrder()
	mr, _ := st.counter.(MemberRecounter[F])
	gs := make([]SnapshotGroup[F], len(live))
	for i, g := range live {
		gs[i] = SnapshotGroup[F]{F: st.groups.Features(g), IDs: st.gs.IDs(g, st.groups.list[g].first, NoDoc)}
		if mr != nil {
			idxs := Sorted(st.docs, st.gs.AppendMembers(nil, g, st.groups.list[g].first))
			gs[i].Handles = make([]int32, len(idxs))
			for j, idx := range idxs {
				gs[i].Handles[j] = st.handles[idx]
			}
		}
	}
	return e.layout().EncodeSections(gs, ids, st.counter), st.docs.Len(), nil
}

// ReadFrom loads a snapshot written by WriteTo into the Engine, which must
// be empty, and returns the bytes read. It reads and checks the whole
// snapshot and builds a fresh index before it installs it, so on any error
// the Engine stays empty. It returns an error wrapping detector.ErrClosed
// after Close, and one wrapping detector.ErrSnapshot for an Engine that is
// not empty and for input it cannot load (another kind or layout, another
// Config, a damaged or truncated stream, or sections that are not as
// WriteTo writes them).
func (e *Engine[F, K]) ReadFrom(r io.Reader) (int64, error) {
	return snapshot.Load(e.spec.Name, r, e.header(), e.sections(), e.loadable,
		func(secs [][]byte) (int, func() error, error) {
			st, err := e.decode(secs)
			if err != nil {
				return 0, nil, err
			}
			return st.docs.Len(), e.installer(st), nil
		})
}

// installer returns the step that installs the decoded state st, under
// the exclusive lock (in a turn of its own with a Counter), unless the
// Engine is no longer empty or closed.
func (e *Engine[F, K]) installer(st *state[F, K]) func() error {
	install := func() error {
		e.mu.Lock()
		defer e.mu.Unlock()
		if err := e.st.docs.Loadable(); err != nil {
			return err
		}
		e.st = st
		return nil
	}
	if e.counting {
		return func() error { return e.inTurn(install) }
	}
	return install
}

func (e *Engine[F, K]) loadable() error {
	e.mu.RLock()
	defer e.mu.RUnlock()
	return e.st.docs.Loadable()
}

// decode builds a fresh state from the payloads of the sections,
// checking that they are canonical: what it accepts, encode writes back
// byte for byte.
func (e *Engine[F, K]) decode(secs [][]byte) (*state[F, K], error) {
	st := e.newState()
	if il, ok := st.ix.(IndexLayout[F]); ok {
		if err := il.DecodeSections(secs, loader[F, K]{e.alg, st}); err != nil {
			return nil, err
		}
		return st, nil
	}
	add := func(dec *snapshot.Dec, id string) uint32 {
		idx, err := st.docs.Add(detector.Doc{ID: id})
		if err != nil {
			dec.Fail("document %q twice", id)
		}
		return idx
	}
	if err := e.layout().DecodeSections(secs, func(dec *snapshot.Dec, f *F, ids []string) {
		st.decodeGroup(e.alg, dec, f, ids, add)
	}, func(dec *snapshot.Dec, id string) {
		st.decodeBare(dec, id, add)
	}); err != nil {
		return nil, err
	}
	return st, nil
}

// decodeGroup registers a group of a snapshot, of features f and members
// ids, failing dec on a group without a key or one whose key another
// group has, and on an ID seen before.
func (st *state[F, K]) decodeGroup(alg Algorithm[F, K], dec *snapshot.Dec, f *F, ids []string, add func(*snapshot.Dec, string) uint32) {
	k, ok := alg.CopyKey(f)
	if !ok {
		dec.Fail("group without a key")
		return
	}
	if _, dup := st.find(k, f); dup {
		dec.Fail("two groups with one signature")
		return
	}
	mr, _ := st.counter.(MemberRecounter[F])
	for i, id := range ids {
		idx := add(dec, id)
		if dec.Err() != nil {
			return
		}
		switch {
		case mr != nil:
			st.setHandle(idx, mr.RecountMember(f, i))
		case st.counter != nil:
			st.setHandle(idx, st.counter.Recount(f))
		}
		st.insert(alg, idx, f)
	}
}

// decodeBare registers a document of a snapshot in no group, failing dec
// on an ID seen before.
func (st *state[F, K]) decodeBare(dec *snapshot.Dec, id string, add func(*snapshot.Dec, string) uint32) {
	idx := add(dec, id)
	if dec.Err() != nil {
		return
	}
	if int(idx) >= len(st.refs) {
		st.refs = append(st.refs, make([]uint32, int(idx)+1-len(st.refs))...)
	}
	st.refs[idx] = NoGroup
	if st.counter != nil {
		st.setHandle(idx, st.counter.Recount(nil))
	}
}

// Sections returns the payloads of the first two sections (the shared
// two, or a two-section [Layout]'s) and the number of live documents, as
// WriteTo frames them: for the tests and fuzzers of the detectors.
func (e *Engine[F, K]) Sections() (groups, bare []byte, n int, err error) {
	secs, n, err := e.encode()
	if err != nil {
		return nil, nil, 0, err
	}
	return secs[0], secs[1], n, nil
}

// DecodeSections decodes the payloads of a two-section layout as
// ReadFrom does, without installing them, and returns the number of
// documents they hold; its error wraps detector.ErrSnapshot.
func (e *Engine[F, K]) DecodeSections(groups, bare []byte) (int, error) {
	return e.DecodeSectionList([][]byte{groups, bare})
}

// SectionList returns the payloads of the snapshot's sections (a
// [Layout]'s or the shared two) and the number of live documents, as
// WriteTo frames them: for the tests and fuzzers of the detectors.
func (e *Engine[F, K]) SectionList() (secs [][]byte, n int, err error) { return e.encode() }

// DecodeSectionList decodes the payloads of the snapshot's sections as
// ReadFrom does, without installing them, and returns the number of
// documents they hold; its error wraps detector.ErrSnapshot.
func (e *Engine[F, K]) DecodeSectionList(secs [][]byte) (int, error) {
	st, err := e.decodeList(secs)
	if err != nil {
		return 0, err
	}
	return st.docs.Len(), nil
}

// decodeList is decode of a list of section payloads, which must be one
// per section of the layout.
func (e *Engine[F, K]) decodeList(secs [][]byte) (*state[F, K], error) {
	if len(secs) != len(e.sections()) {
		return nil, fmt.Errorf("%s: %d sections, want %d: %w", e.spec.Name, len(secs), len(e.sections()), detector.ErrSnapshot)
	}
	return e.decode(secs)
}
