package detector

import (
	"bytes"
	"cmp"
	"encoding"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/seed-9ef9c1df/neardup/internal/snapshot"
)

// codec encodes a Cascade's features for its snapshot.
type codec[F any] struct {
	marshal   func(F) ([]byte, error)
	unmarshal func([]byte) (F, error)
}

// codecOf returns the codec of F: strings as they are, types that
// implement encoding.BinaryMarshaler (and whose pointer implements
// encoding.BinaryUnmarshaler) through those; nil for any other type.
func codecOf[F any]() *codec[F] {
	var zero F
	if _, ok := any(zero).(string); ok {
		return &codec[F]{
			marshal:   func(f F) ([]byte, error) { return []byte(any(f).(string)), nil },
			unmarshal: func(b []byte) (F, error) { return any(string(b)).(F), nil },
		}
	}
	_, m := any(zero).(encoding.BinaryMarshaler)
	_, u := any(&zero).(encoding.BinaryUnmarshaler)
	if !m || !u {
		return nil
	}
	return &codec[F]{
		marshal: func(f F) ([]byte, error) { return any(f).(encoding.BinaryMarshaler).MarshalBinary() },
		unmarshal: func(b []byte) (F, error) {
			var f F
			err := any(&f).(encoding.BinaryUnmarshaler).UnmarshalBinary(b)
			return f, err
		},
	}
}

// Len returns the number of live documents of the cascade.
func (c *cascade[F]) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.live
}

// holds reports whether id is a live document of the cascade.
func (c *cascade[F]) holds(id string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.docs[id].live()
}

// ids returns the cascade's live documents, in no order.
func (c *cascade[F]) ids() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]string, 0, c.live)
	for id, e := range c.docs {
		if e.live() {
			out = append(out, id)
		}
	}
	return out
}

// Query implements Querier when propose does.
func (c *cascade[F]) Query(d Doc) ([]Match, error) {
	cands, err := forward("Cascade", "query", fmt.Sprintf("Query(%q)", d.ID), c.propose, c.isClosed,
		func(q Querier) ([]Match, error) { return q.Query(d) })
	if err != nil {
		return nil, err
	}
	return c.verified(cands, d.Text, d.ID, false), nil
}

// Nearest implements Ranker when propose does: the documents propose
// ranks nearest to text, each scored by verify (those it scores above 0,
// whether it accepts them or not), the k best.
func (c *cascade[F]) Nearest(text string, k int) ([]Match, error) {
	cands, err := forward("Cascade", "rank", "Nearest", c.propose, c.isClosed,
		func(r Ranker) ([]Match, error) { return r.Nearest(text, k) })
	if err != nil {
		return nil, err
	}
	out := c.verified(cands, text, "", true)
	return out[:min(k, len(out))], nil
}

// isClosed reports whether Close has been called.
func (c *cascade[F]) isClosed() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.closed
}

// verified scores the candidates propose returned for text by verify,
// skipping skip, and returns them sorted: those verify accepts, or with
// all those it scores above 0.
func (c *cascade[F]) verified(cands []Match, text, skip string, all bool) []Match {
	if len(cands) == 0 {
		return []Match{}
	}
	f := c.features(text)
	out := make([]Match, 0, len(cands))
	for _, m := range cands {
		if m.ID == skip {
			continue
		}
		c.mu.Lock()
		e := c.docs[m.ID]
		c.mu.Unlock()
		if e == nil {
			continue
		}
		<-e.ready
		c.mu.Lock()
		skip := c.closed || !e.live() || c.docs[m.ID] != e
		container := e.f
		c.mu.Unlock()
		if skip {
			continue
		}
		if s, ok := c.verify(container, f); (ok || all && s > 0) && finite(s) {
			out = append(out, Match{ID: m.ID, Score: s})
		}
	}
	SortMatches(out)
	return out
}

// Copies is never exposed by Cascade's view (see Cascade).
func (c *cascade[F]) Copies(string) ([]string, error) {
	return nil, fmt.Errorf("detector: Cascade: cannot list copies: features may differ between documents the proposer reads as identical: %w", errors.ErrUnsupported)
}

// Cascade snapshot (kind "cascade", version 1): the header's Config is
// {"Features": "<Go type of F>"}; section "features" holds the number of
// documents and, in ascending ID order, each ID and its encoded features;
// section "propose" holds propose's own snapshot.
func (c *cascade[F]) header() snapshot.Header {
	var zero F
	return snapshot.Header{Kind: "cascade", KindVersion: 1, Config: struct{ Features string }{fmt.Sprintf("%T", zero)}}
}

// cascadeMembers names the section of propose's snapshot.
var cascadeMembers = []memberSection{{"propose", "propose"}}

// WriteTo implements Persister when propose does and F can be encoded.
// Adds and Removes wait while it captures the live documents' features
// and propose's snapshot in memory, not while it encodes them and writes
// to w.
func (c *cascade[F]) WriteTo(w io.Writer) (int64, error) {
	p, ok := c.propose.(Persister)
	if !ok || c.codec == nil {
		return 0, errUnsupported("Cascade", "write a snapshot", c.propose)
	}
	docs, propose, err := c.capture(p)
	if err != nil {
		return 0, err
	}
	var e snapshot.Enc
	e.Int(len(docs))
	for _, d := range docs {
		b, err := c.codec.marshal(d.f)
		if err != nil {
			return 0, fmt.Errorf("detector: Cascade: WriteTo: features of %q: %w", d.id, err)
		}
		e.String(d.id)
		e.String(string(b))
	}
	return writeSnapshot(w, "Cascade", c.header(), "features", e.B, cascadeMembers, [][]byte{propose}, len(docs))
}

// idFeatures is a live document of a cascade and its features.
type idFeatures[F any] struct {
	id string
	f  F
}

// capture returns the live documents in ascending ID order and propose's
// snapshot, taken under c.persist so that no Add or Remove falls between
// them.
func (c *cascade[F]) capture(p Persister) ([]idFeatures[F], []byte, error) {
	c.persist.Lock()
	defer c.persist.Unlock()
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return nil, nil, c.errClosed("WriteTo", "")
	}
	docs := make([]idFeatures[F], 0, len(c.docs))
	for id, e := range c.docs {
		if e.live() {
			docs = append(docs, idFeatures[F]{id, e.f})
		}
	}
	c.mu.Unlock()
	slices.SortFunc(docs, func(a, b idFeatures[F]) int { return cmp.Compare(a.id, b.id) })
	var b bytes.Buffer
	if _, err := p.WriteTo(&b); err != nil {
		return nil, nil, fmt.Errorf("detector: Cascade: WriteTo: %w", err)
	}
	return docs, b.Bytes(), nil
}

// ReadFrom implements Persister when propose does and F can be encoded:
// it loads a snapshot of a cascade whose propose has the same kind and
// Config. The cascade and propose must be empty. Propose must hold, once
// loaded, exactly the documents the features section lists. Errors wrap
// [ErrSnapshot] (or ErrClosed), and the cascade is then left empty, and
// propose too if it can remove (the error otherwise also wraps
// errors.ErrUnsupported).
func (c *cascade[F]) ReadFrom(r io.Reader) (int64, error) {
	if _, ok := c.propose.(Persister); !ok || c.codec == nil {
		return 0, errUnsupported("Cascade", "read a snapshot", c.propose)
	}
	c.persist.Lock()
	defer c.persist.Unlock()
	c.mu.Lock()
	closed, n := c.closed, len(c.docs)
	c.mu.Unlock()
	switch {
	case closed:
		return 0, c.errClosed("ReadFrom", "")
	case n > 0:
		return 0, fmt.Errorf("detector: Cascade: ReadFrom: the cascade holds %d documents: %w", n, ErrSnapshot)
	}
	var fs []F
	decode := func(payload []byte) ([]string, error) {
		dec := snapshot.NewDec(payload)
		count := dec.Len(2, 0)
		ids := make([]string, 0, count)
		fs = make([]F, 0, count)
		for i := 0; i < count && dec.Err() == nil; i++ {
			id, b := dec.String(), dec.String()
			if dec.Err() != nil {
				break
			}
			if id == "" || i > 0 && id <= ids[i-1] {
				dec.Fail("document %d: ID %q empty or out of order", i, id)
			}
			f, err := c.codec.unmarshal([]byte(b))
			if err != nil {
				dec.Fail("features of %q: %v", id, err)
			}
			ids, fs = append(ids, id), append(fs, f)
		}
		return ids, dec.Done()
	}
	ids, read, err := loadSnapshot(r, "Cascade", c.header(), "features", decode, []Detector{c.propose}, cascadeMembers, false)
	if err != nil {
		return read, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, id := range ids {
		c.serial++
		e := &entry[F]{serial: c.serial, ready: make(chan struct{}), ok: true, f: fs[i]}
		close(e.ready)
		c.docs[id], c.serials[e.serial] = e, e
	}
	c.live = len(ids)
	return read, nil
}
