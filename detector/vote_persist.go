package detector

import (
	"bytes"
	"fmt"
	"io"
	"maps"
	"slices"

	"github.com/seed-9ef9c1df/neardup/internal/snapshot"
)

// Len returns the number of live documents of the vote.
func (v *vote) Len() int {
	v.mu.RLock()
	defer v.mu.RUnlock()
	return len(v.live)
}

// holds reports whether id is a live document of the vote.
func (v *vote) holds(id string) bool {
	v.mu.RLock()
	defer v.mu.RUnlock()
	return v.live[id]
}

// ids returns the vote's live documents, in no order.
func (v *vote) ids() []string {
	v.mu.RLock()
	defer v.mu.RUnlock()
	return slices.Collect(maps.Keys(v.live))
}

// Query implements Querier when every member does: the tally of the
// members' Query answers.
func (v *vote) Query(d Doc) ([]Match, error) {
	results, err := ask(v, "query", fmt.Sprintf("Query(%q)", d.ID), func(q Querier) ([]Match, error) { return q.Query(d) })
	if err != nil {
		return nil, err
	}
	return slices.DeleteFunc(v.tally(results), func(m Match) bool { return m.ID == d.ID }), nil
}

// rankQuerier is what Nearest needs of every member.
type rankQuerier interface {
	Ranker
	Querier
}

// Nearest implements Ranker when every member is a Ranker and a Querier.
// A document at least the quorum of members report (Query) gets the
// vote's Query score, the mean of theirs; any other document at least the
// quorum of members rank gets the mean of their Nearest scores. The k
// best, by that score.
func (v *vote) Nearest(text string, k int) ([]Match, error) {
	ranked, err := ask(v, "rank", "Nearest", func(r rankQuerier) ([]Match, error) { return r.Nearest(text, k) })
	if err != nil {
		return nil, err
	}
	reported, err := ask(v, "rank", "Nearest", func(q rankQuerier) ([]Match, error) { return q.Query(Doc{Text: text}) })
	if err != nil {
		return nil, err
	}
	out := v.tally(reported)
	seen := map[string]bool{}
	for _, m := range out {
		seen[m.ID] = true
	}
	for _, m := range v.tally(ranked) {
		if !seen[m.ID] {
			out = append(out, m)
		}
	}
	SortMatches(out)
	return out[:min(k, len(out))], nil
}

// Copies implements CopyLister when every member does: the documents every
// member lists as a copy of id.
func (v *vote) Copies(id string) ([]string, error) {
	if err := v.check("Copies", id, true); err != nil {
		return nil, err
	}
	lists, err := ask(v, "list copies", fmt.Sprintf("Copies(%q)", id), func(c CopyLister) ([]string, error) { return c.Copies(id) })
	if err != nil {
		return nil, err
	}
	count := map[string]int{}
	for _, ids := range lists {
		for _, x := range ids {
			count[x]++
		}
	}
	out := []string{}
	v.mu.RLock()
	defer v.mu.RUnlock()
	for x, n := range count {
		if n == len(v.ds) && v.live[x] && x != id {
			out = append(out, x)
		}
	}
	slices.Sort(out)
	return out, nil
}

// Vote snapshot (kind "vote", version 1): the header's Config is {"K": k,
// "Members": n}; section "vote" holds the number of live documents and
// their IDs in ascending order; sections "member0", "member1", ... hold
// each member's own snapshot.
func (v *vote) header() snapshot.Header {
	return snapshot.Header{Kind: "vote", KindVersion: 1, Config: struct{ K, Members int }{v.k, len(v.ds)}}
}

// sections names the sections of the members' snapshots.
func (v *vote) sections() []memberSection {
	members := make([]memberSection, len(v.ds))
	for i := range members {
		members[i] = memberSection{fmt.Sprintf("member%d", i), fmt.Sprintf("member %d", i)}
	}
	return members
}

// WriteTo implements Persister when every member does. Adds and Removes
// wait while it captures the live IDs and the members' snapshots in
// memory, not while it writes them to w.
func (v *vote) WriteTo(w io.Writer) (int64, error) {
	ps, err := as[Persister](v.ds, "write a snapshot")
	if err != nil {
		return 0, err
	}
	ids, members, err := v.capture(ps)
	if err != nil {
		return 0, err
	}
	var e snapshot.Enc
	e.Strings(ids)
	return writeSnapshot(w, "Vote", v.header(), "vote", e.B, v.sections(), members, len(ids))
}

// capture returns the live IDs in ascending order and the members'
// snapshots, taken under v.write so that no Add or Remove falls between
// them.
func (v *vote) capture(ps []Persister) ([]string, [][]byte, error) {
	v.write.Lock()
	defer v.write.Unlock()
	v.mu.RLock()
	closed := v.closed
	ids := slices.Sorted(maps.Keys(v.live))
	v.mu.RUnlock()
	if closed {
		return nil, nil, fmt.Errorf("detector: Vote: WriteTo: %w", ErrClosed)
	}
	members := make([][]byte, len(ps))
	for i, p := range ps {
		var b bytes.Buffer
		if _, err := p.WriteTo(&b); err != nil {
			return nil, nil, fmt.Errorf("detector: Vote: WriteTo: member %d: %w", i, err)
		}
		members[i] = b.Bytes()
	}
	return ids, members, nil
}

// ReadFrom implements Persister when every member does: it loads a
// snapshot written by a vote with the same k over members of the same
// kinds and Configs, in the same order. The vote and its members must be
// empty. Each member must hold, once loaded, exactly the documents the
// vote section lists. Errors wrap [ErrSnapshot] (or ErrClosed). If member
// i rejects its section or holds other documents, it and the members
// before it, which loaded theirs, are emptied again by Remove; a member
// that cannot remove keeps them (the error then also wraps
// errors.ErrUnsupported), invisible through the vote, which stays empty.
func (v *vote) ReadFrom(r io.Reader) (int64, error) {
	if _, err := as[Persister](v.ds, "read a snapshot"); err != nil {
		return 0, err
	}
	v.write.Lock()
	defer v.write.Unlock()
	v.mu.RLock()
	closed, n := v.closed, len(v.live)
	v.mu.RUnlock()
	switch {
	case closed:
		return 0, fmt.Errorf("detector: Vote: ReadFrom: %w", ErrClosed)
	case n > 0:
		return 0, fmt.Errorf("detector: Vote: ReadFrom: the vote holds %d documents: %w", n, ErrSnapshot)
	}
	ids, read, err := loadSnapshot(r, "Vote", v.header(), "vote", decodeIDs, v.ds, v.sections(), true)
	if err != nil {
		return read, err
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	for _, id := range ids {
		v.live[id] = true
	}
	return read, nil
}

// decodeIDs reads the vote section: a count and that many distinct,
// non-empty IDs in ascending order.
func decodeIDs(payload []byte) ([]string, error) {
	dec := snapshot.NewDec(payload)
	ids := dec.IDs(0)
	return ids, dec.Done()
}
