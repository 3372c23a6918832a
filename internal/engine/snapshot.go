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
// features and the IDs only, not on arrival order, so none is stored. An
// Algorithm that is a [GroupCodec] writes the "groups" section itself.

// GroupCodec is an Algorithm that writes the "groups" section of its
// snapshots itself, for a layout the shared one does not fit (groups
// nested in a level of their own, say); the engine then calls neither
// EncodeGroup nor DecodeGroup. EncodeGroups appends the section for the
// live groups, given in ascending order of their smallest member ID.
// DecodeGroups reads what EncodeGroups wrote and calls add with each
// group's features and member IDs, failing d (Dec.Fail) on anything
// EncodeGroups would not have written, the order of the groups included:
// add fails d only for a group without a key, two groups of one key and
// an ID listed twice, and does nothing once d has failed.
type GroupCodec[F any] interface {
	EncodeGroups(e *snapshot.Enc, groups []GroupData[F])
	DecodeGroups(d *snapshot.Dec, add func(f *F, ids []string))
}

// GroupData is one live group as [GroupCodec.EncodeGroups] gets it: its
// features and its members' IDs in ascending order.
type GroupData[F any] struct {
	F   *F
	IDs []string
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
	groups, bare, n, err := e.encode()
	if err != nil {
		return 0, err
	}
	sw := snapshot.NewWriter(w, e.header())
	sw.Section("groups", groups)
	sw.Section(e.spec.NoGroup, bare)
	return sw.Finish(uint64(n))
}

func (e *Engine[F, K]) encode() (groups, bare []byte, n int, err error) {
	e.mu.RLock()
	defer e.mu.RUnlock()
	st := e.st
	if st.docs.Closed() {
		return nil, nil, 0, fmt.Errorf("%s: WriteTo: %w", e.spec.Name, detector.ErrClosed)
	}
	live, ids := st.groupOrder()
	var enc snapshot.Enc
	if c, ok := e.alg.(GroupCodec[F]); ok {
		gd := make([]GroupData[F], len(live))
		for i, g := range live {
			gd[i] = GroupData[F]{F: st.groups.Features(g), IDs: st.gs.IDs(g, st.groups.list[g].first, NoDoc)}
		}
		c.EncodeGroups(&enc, gd)
	} else {
		enc.Int(len(live))
		for _, g := range live {
			e.alg.EncodeGroup(&enc, st.groups.Features(g))
			enc.Strings(st.gs.IDs(g, st.groups.list[g].first, NoDoc))
		}
	}
	groups = enc.B
	enc = snapshot.Enc{}
	enc.Strings(ids)
	return groups, enc.B, st.docs.Len(), nil
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
	return snapshot.Load(e.spec.Name, r, e.header(), []string{"groups", e.spec.NoGroup}, e.loadable,
		func(secs [][]byte) (int, func() error, error) {
			st, err := e.decode(secs[0], secs[1])
			if err != nil {
				return 0, nil, err
			}
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
				return st.docs.Len(), func() error { return e.inTurn(install) }, nil
			}
			return st.docs.Len(), install, nil
		})
}

func (e *Engine[F, K]) loadable() error {
	e.mu.RLock()
	defer e.mu.RUnlock()
	return e.st.docs.Loadable()
}

// decode builds a fresh state from the payloads of the two sections,
// checking that they are canonical: what it accepts, encode writes back
// byte for byte.
func (e *Engine[F, K]) decode(groups, bare []byte) (*state[F, K], error) {
	st := e.newState()
	add := func(dec *snapshot.Dec, id string) uint32 {
		idx, err := st.docs.Add(detector.Doc{ID: id})
		if err != nil {
			dec.Fail("document %q twice", id)
		}
		return idx
	}

	dec := snapshot.NewDec(groups)
	join := func(f *F, ids []string) {
		if dec.Err() != nil {
			return
		}
		k, ok := e.alg.CopyKey(f)
		if !ok {
			dec.Fail("group without a key")
			return
		}
		if _, dup := st.find(k, f); dup {
			dec.Fail("two groups with one signature")
			return
		}
		for _, id := range ids {
			idx := add(dec, id)
			if dec.Err() != nil {
				return
			}
			if st.counter != nil {
				st.setHandle(idx, st.counter.Recount(f))
			}
			st.insert(e.alg, idx, f)
		}
	}
	if c, ok := e.alg.(GroupCodec[F]); ok {
		c.DecodeGroups(dec, join)
	} else {
		n := dec.Len(e.spec.MinGroupBytes, 0)
		prev := ""
		for i := range n {
			f := e.alg.DecodeGroup(dec)
			ids := dec.IDs(1)
			if dec.Err() != nil {
				return nil, dec.Err()
			}
			if i > 0 && ids[0] <= prev {
				dec.Fail("groups out of order")
				return nil, dec.Err()
			}
			prev = ids[0]
			join(&f, ids)
			if dec.Err() != nil {
				return nil, dec.Err()
			}
		}
	}
	if err := dec.Done(); err != nil {
		return nil, err
	}

	dec = snapshot.NewDec(bare)
	for _, id := range dec.IDs(0) {
		idx := add(dec, id)
		if dec.Err() != nil {
			return nil, dec.Err()
		}
		if int(idx) >= len(st.refs) {
			st.refs = append(st.refs, make([]uint32, int(idx)+1-len(st.refs))...)
		}
		st.refs[idx] = NoGroup
		if st.counter != nil {
			st.setHandle(idx, st.counter.Recount(nil))
		}
	}
	if err := dec.Done(); err != nil {
		return nil, err
	}
	return st, nil
}

// Sections returns the payloads of the two sections and the number of
// live documents, as WriteTo frames them: for the tests and fuzzers of the
// detectors.
func (e *Engine[F, K]) Sections() (groups, bare []byte, n int, err error) { return e.encode() }

// DecodeSections decodes the payloads of the two sections as ReadFrom
// does, without installing them, and returns the number of documents they
// hold; its error wraps detector.ErrSnapshot.
func (e *Engine[F, K]) DecodeSections(groups, bare []byte) (int, error) {
	st, err := e.decode(groups, bare)
	if err != nil {
		return 0, err
	}
	return st.docs.Len(), nil
}
