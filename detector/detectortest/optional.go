package detectortest

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/seed-9ef9c1df/neardup/detector"
)

// The checks of the optional interfaces: each skips a detector that does
// not implement its interface.

// lener is implemented by detectors that count their live documents.
type lener interface{ Len() int }

// need returns d as the optional interface I, or skips the test if d
// does not implement it.
func need[I any](t *testing.T, d detector.Detector) I {
	t.Helper()
	i, ok := d.(I)
	if !ok {
		t.Skipf("%T does not implement %v", d, reflect.TypeFor[I]())
	}
	return i
}

// save returns a snapshot of d.
func save(t *testing.T, d detector.Detector) []byte {
	t.Helper()
	var b bytes.Buffer
	n, err := d.(detector.Persister).WriteTo(&b)
	if err != nil {
		t.Fatalf("WriteTo: %v", err)
	}
	if n != int64(b.Len()) {
		t.Errorf("WriteTo returned %d, wrote %d bytes", n, b.Len())
	}
	return b.Bytes()
}

// load reads snap into d.
func load(t *testing.T, d detector.Detector, snap []byte) {
	t.Helper()
	n, err := d.(detector.Persister).ReadFrom(bytes.NewReader(snap))
	if err != nil {
		t.Fatalf("ReadFrom of a snapshot WriteTo wrote: %v", err)
	}
	if n != int64(len(snap)) {
		t.Errorf("ReadFrom returned %d, the snapshot has %d bytes", n, len(snap))
	}
}

// history adds the first n documents of the script to d and, if the suite
// may remove, removes two of them. It returns the live IDs.
func (s suite) history(t *testing.T, d detector.Detector, n int) []string {
	t.Helper()
	docs := script()[:n]
	var live []string
	for _, doc := range docs {
		add(t, d, doc.ID, doc.Text)
		live = append(live, doc.ID)
	}
	if r := s.remover(d); r != nil {
		for _, id := range []string{docs[1].ID, docs[4].ID} {
			remove(t, r, id)
			live = slices.DeleteFunc(live, func(x string) bool { return x == id })
		}
	}
	return live
}

// sameAnswers fails t unless a and b report the same containers (scores
// included) for every ID in ids, and the same Len.
func sameAnswers(t *testing.T, when string, a, b detector.Detector, ids []string) {
	t.Helper()
	for _, id := range ids {
		x, y := containers(t, a, id), containers(t, b, id)
		if !slices.Equal(x, y) {
			t.Errorf("%s: Containers(%q) = %v on the original, %v on the restored copy", when, id, x, y)
		}
	}
	if la, ok := a.(lener); ok {
		if x, y := la.Len(), b.(lener).Len(); x != y {
			t.Errorf("%s: Len = %d on the original, %d on the restored copy", when, x, y)
		}
	}
}

// snapshot checks the round trip: a restored copy answers as the original,
// and keeps doing so through further Adds and Removes on both.
func (s suite) snapshot(t *testing.T) {
	a := s.fresh(t)
	need[detector.Persister](t, a)
	live := s.history(t, a, 8)
	snap := save(t, a)
	b := s.fresh(t)
	load(t, b, snap)
	sameAnswers(t, "after ReadFrom", a, b, live)
	for _, doc := range script()[8:] {
		x, y := add(t, a, doc.ID, doc.Text), add(t, b, doc.ID, doc.Text)
		if !slices.Equal(x, y) {
			t.Errorf("Add(%q) after the snapshot = %v on the original, %v on the restored copy", doc.ID, x, y)
		}
		live = append(live, doc.ID)
	}
	if s.remover(a) != nil {
		gone := live[0]
		for _, d := range []detector.Detector{a, b} {
			remove(t, s.remover(d), gone)
		}
		live = live[1:]
		again := script()[1] // removed before the snapshot: its ID is free in both
		x, y := add(t, a, again.ID, articles[3]), add(t, b, again.ID, articles[3])
		if !slices.Equal(x, y) {
			t.Errorf("Add(%q) of a removed ID = %v on the original, %v on the restored copy", again.ID, x, y)
		}
		live = append(live, again.ID)
	}
	sameAnswers(t, "after further Adds and Removes", a, b, live)
}

// snapshotReencode checks that the format is canonical.
func (s suite) snapshotReencode(t *testing.T) {
	a := s.fresh(t)
	need[detector.Persister](t, a)
	s.history(t, a, len(script()))
	snap := save(t, a)
	if again := save(t, a); !bytes.Equal(snap, again) {
		t.Errorf("two WriteTo calls on an unchanged detector differ (%d and %d bytes)", len(snap), len(again))
	}
	b := s.fresh(t)
	load(t, b, snap)
	if re := save(t, b); !bytes.Equal(snap, re) {
		t.Errorf("WriteTo of a restored detector differs from the snapshot it read (%d and %d bytes, first difference at byte %d)",
			len(re), len(snap), firstDiff(snap, re))
	}
}

func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// smallSnapshot returns a snapshot holding two copies of one article,
// "c0" and "c1".
func (s suite) smallSnapshot(t *testing.T) []byte {
	t.Helper()
	a := s.fresh(t)
	need[detector.Persister](t, a)
	add(t, a, "c0", articles[2])
	add(t, a, "c1", articles[2])
	return save(t, a)
}

// snapshotCorrupt feeds every truncation and a sample of single-byte
// changes of a small snapshot to ReadFrom.
func (s suite) snapshotCorrupt(t *testing.T) {
	snap := s.smallSnapshot(t)
	var d detector.Detector
	attempt := 0
	try := func(what string, bad []byte) {
		t.Helper()
		attempt++
		if d == nil {
			d = s.fresh(t)
		}
		_, err := d.(detector.Persister).ReadFrom(bytes.NewReader(bad))
		if !errors.Is(err, detector.ErrSnapshot) {
			t.Fatalf("ReadFrom of %s: error %v, want one wrapping %q", what, err, detector.ErrSnapshot)
		}
		if l, ok := d.(lener); ok && l.Len() != 0 {
			t.Fatalf("after ReadFrom of %s failed, Len = %d, want 0", what, l.Len())
		}
		for _, id := range []string{"c0", "c1"} {
			if _, err := d.Containers(id); !errors.Is(err, detector.ErrUnknownID) {
				t.Fatalf("after ReadFrom of %s failed, Containers(%q): error %v, want one wrapping %q", what, id, err, detector.ErrUnknownID)
			}
		}
		if attempt%16 != 1 {
			return
		}
		// The detector is empty and usable: an Add of the snapshot's text
		// finds nothing.
		if ms := add(t, d, "probe", articles[2]); len(ms) != 0 {
			t.Fatalf("after ReadFrom of %s failed, Add(probe) = %v finds documents of the snapshot", what, ms)
		}
		if r := s.remover(d); r != nil {
			remove(t, r, "probe")
		} else {
			d = nil
		}
	}
	for cut := range len(snap) {
		try(fmt.Sprintf("the snapshot cut to %d of %d bytes", cut, len(snap)), snap[:cut])
	}
	flips := []byte{0x01, 0x80, 0xff}
	for k, i := range samplePositions(len(snap)) {
		bad := bytes.Clone(snap)
		bad[i] ^= flips[k%len(flips)]
		try(fmt.Sprintf("the snapshot with byte %d of %d changed (^%#x)", i, len(snap), flips[k%len(flips)]), bad)
	}
}

// samplePositions returns the first 48 and last 24 byte positions of a
// stream of n bytes and 64 spread between them.
func samplePositions(n int) []int {
	var out []int
	for i := range n {
		if i < 48 || i >= n-24 || i%max(1, n/64) == 0 {
			out = append(out, i)
		}
	}
	return out
}

// snapshotNonEmpty checks that ReadFrom refuses a detector holding
// documents and leaves it as it was, and that both methods fail after
// Close.
func (s suite) snapshotNonEmpty(t *testing.T) {
	snap := s.smallSnapshot(t)
	d := s.fresh(t)
	p := need[detector.Persister](t, d)
	add(t, d, "mine", articles[2])
	_, err := p.ReadFrom(bytes.NewReader(snap))
	wantErr(t, "ReadFrom into a detector holding a document", err, detector.ErrSnapshot)
	wantIDs(t, "Add(other) after the refused ReadFrom", add(t, d, "other", articles[2]), "mine")
	_, err = d.Containers("c0")
	wantErr(t, "Containers(c0) after the refused ReadFrom", err, detector.ErrUnknownID)
	if l, ok := d.(lener); ok && l.Len() != 2 {
		t.Errorf("Len after the refused ReadFrom = %d, want 2", l.Len())
	}
	if err := d.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	_, err = p.WriteTo(&bytes.Buffer{})
	wantErr(t, "WriteTo after Close", err, detector.ErrClosed)
	_, err = p.ReadFrom(bytes.NewReader(snap))
	wantErr(t, "ReadFrom after Close", err, detector.ErrClosed)
}

// query checks that Query agrees with Add on a stream and changes nothing.
func (s suite) query(t *testing.T) {
	a, b := s.fresh(t), s.fresh(t)
	q := need[detector.Querier](t, a)
	docs := script()
	for i, doc := range docs {
		if i == 5 && s.remover(a) != nil {
			for _, d := range []detector.Detector{a, b} {
				remove(t, s.remover(d), docs[2].ID)
			}
		}
		got, err := q.Query(doc)
		if err != nil {
			t.Fatalf("Query(%q): %v", doc.ID, err)
		}
		checkOrder(t, "Query("+doc.ID+")", got)
		anon, err := q.Query(detector.Doc{Text: doc.Text})
		if err != nil {
			t.Fatalf("Query of %q's text with an empty ID: %v", doc.ID, err)
		}
		want := add(t, a, doc.ID, doc.Text)
		if !slices.Equal(got, want) {
			t.Errorf("Query(%q) = %v, then Add(%q) = %v", doc.ID, got, doc.ID, want)
		}
		if !slices.Equal(anon, want) {
			t.Errorf("Query of %q's text with an empty ID = %v, then Add(%q) = %v", doc.ID, anon, doc.ID, want)
		}
		if plain := add(t, b, doc.ID, doc.Text); !slices.Equal(plain, want) {
			t.Errorf("Add(%q) = %v after Queries, %v without", doc.ID, want, plain)
		}
	}
	var live []string
	for _, doc := range docs {
		if s.remover(a) == nil || doc.ID != docs[2].ID {
			live = append(live, doc.ID)
		}
	}
	sameAnswers(t, "with and without Queries", a, b, live)
	// A live document's own ID is not reported.
	self, err := q.Query(docs[0])
	if err != nil {
		t.Fatalf("Query(%q) of a live ID: %v", docs[0].ID, err)
	}
	if has(self, docs[0].ID) {
		t.Errorf("Query(%q) = %v reports the live document of the same ID", docs[0].ID, self)
	}
	if s.opts.MaxTextBytes >= 0 {
		limit := cmp.Or(s.opts.MaxTextBytes, detector.DefaultMaxTextBytes)
		_, err = q.Query(detector.Doc{ID: "huge", Text: strings.Repeat("a", limit+1)})
		wantErr(t, fmt.Sprintf("Query of %d bytes", limit+1), err, detector.ErrTooLarge)
	}
	if err := a.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	_, err = q.Query(docs[0])
	wantErr(t, "Query after Close", err, detector.ErrClosed)
}

// queryConcurrent runs Queries while other goroutines Add copies of the
// queried texts: no call fails, no Add, Query or Containers reports a
// queried document, and the detector holds exactly the added ones.
func (s suite) queryConcurrent(t *testing.T) {
	d := s.fresh(t)
	q := need[detector.Querier](t, d)
	const writers, queriers, rounds = 4, 4, 3
	var c collector
	var wg sync.WaitGroup
	done := make(chan struct{})
	probe := func(call string, ms []detector.Match) {
		for _, m := range ms {
			if !strings.HasPrefix(m.ID, "w") {
				c.errorf("%s = %v reports %q, which was only queried", call, ms, m.ID)
			}
		}
	}
	var adders sync.WaitGroup
	for g := range writers {
		adders.Go(func() {
			defer c.recover(fmt.Sprintf("writer %d", g))
			for r := range rounds {
				for k, text := range articles {
					id := fmt.Sprintf("w%d-%d-%d", g, r, k)
					ms, err := d.Add(detector.Doc{ID: id, Text: text})
					if err != nil {
						c.errorf("Add(%q): %v", id, err)
						return
					}
					probe(fmt.Sprintf("Add(%q)", id), ms)
				}
			}
		})
	}
	for g := range queriers {
		wg.Go(func() {
			defer c.recover(fmt.Sprintf("querier %d", g))
			for i := 0; ; i++ {
				select {
				case <-done:
					if i > 0 {
						return
					}
				default:
				}
				id := fmt.Sprintf("q%d-%d", g, i)
				ms, err := q.Query(detector.Doc{ID: id, Text: articles[(g+i)%len(articles)]})
				if err != nil {
					c.errorf("Query(%q): %v", id, err)
					return
				}
				probe(fmt.Sprintf("Query(%q)", id), ms)
			}
		})
	}
	adders.Wait()
	close(done)
	wg.Wait()
	c.report(t)
	for g := range writers {
		for r := range rounds {
			for k := range articles {
				id := fmt.Sprintf("w%d-%d-%d", g, r, k)
				ms := containers(t, d, id)
				for _, m := range ms {
					if !strings.HasPrefix(m.ID, "w") {
						t.Errorf("Containers(%q) = %v reports %q, which was only queried", id, ms, m.ID)
					}
				}
			}
		}
	}
	if l, ok := d.(lener); ok && l.Len() != writers*rounds*len(articles) {
		t.Errorf("Len after concurrent Adds and Queries = %d, want %d", l.Len(), writers*rounds*len(articles))
	}
}

// copies checks CopyLister on exact duplicates.
func (s suite) copies(t *testing.T) {
	d := s.fresh(t)
	cl := need[detector.CopyLister](t, d)
	list := func(id string, want ...string) {
		t.Helper()
		got, err := cl.Copies(id)
		if err != nil {
			t.Fatalf("Copies(%q): %v", id, err)
		}
		if !slices.IsSorted(got) {
			t.Errorf("Copies(%q) = %v is not in ascending order", id, got)
		}
		if !slices.Equal(got, want) && len(got)+len(want) > 0 {
			t.Errorf("Copies(%q) = %v, want %v", id, got, want)
		}
	}
	add(t, d, "a", articles[2])
	add(t, d, "other", articles[3])
	add(t, d, "b", articles[2])
	list("a", "b")
	list("b", "a")
	list("other")
	_, err := cl.Copies("nope")
	wantErr(t, "Copies of an unknown ID", err, detector.ErrUnknownID)
	if r := s.remover(d); r != nil {
		remove(t, r, "b")
		list("a")
		_, err := cl.Copies("b")
		wantErr(t, "Copies of a removed ID", err, detector.ErrUnknownID)
		add(t, d, "c", articles[2])
		list("a", "c")
		list("c", "a")
	}
	if err := d.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	_, err = cl.Copies("a")
	wantErr(t, "Copies after Close", err, detector.ErrClosed)
}

// ordered reports whether ms is ordered by detector.SortMatches.
func ordered(ms []detector.Match) bool {
	sorted := slices.Clone(ms)
	detector.SortMatches(sorted)
	return slices.Equal(sorted, ms)
}

// nearest returns d's Nearest(text, k), checked for order and cap.
func nearest(t *testing.T, r detector.Ranker, text string, k int) []detector.Match {
	t.Helper()
	ms, err := r.Nearest(text, k)
	if err != nil {
		t.Fatalf("Nearest(k=%d): %v", k, err)
	}
	call := fmt.Sprintf("Nearest(%.20q…, %d)", text, k)
	checkOrder(t, call, ms)
	if len(ms) > k {
		t.Errorf("%s returned %d matches, over k", call, len(ms))
	}
	return ms
}

// rank checks Nearest over the suite's script: at every text, with k of
// 1, 3 and more than the live documents, the results are ordered, capped
// at k and hold live IDs only; with the larger k they include every
// document Query reports, with Query's score, and the stored documents of
// the very text, at the best score; a text without words finds nothing.
// Nearest stores nothing: a twin fed the same stream without it answers
// alike. k ≤ 0 fails with ErrInvalidConfig, an oversize text with
// ErrTooLarge, a call after Close with ErrClosed.
func (s suite) rank(t *testing.T) {
	a, b := s.fresh(t), s.fresh(t)
	r := need[detector.Ranker](t, a)
	live := s.history(t, a, len(script()))
	s.history(t, b, len(script()))
	text := map[string]string{}
	for _, doc := range script() {
		text[doc.ID] = doc.Text
	}
	isLive := map[string]bool{}
	for _, id := range live {
		isLive[id] = true
	}
	all := len(script()) + 1
	for _, doc := range script() {
		wide := nearest(t, r, doc.Text, all)
		for _, k := range []int{1, 3} {
			if got := nearest(t, r, doc.Text, k); len(got) < min(k, len(wide)) {
				t.Errorf("Nearest(%s's text, %d) = %v, fewer than the %d of a wider k: %v", doc.ID, k, got, min(k, len(wide)), wide)
			}
		}
		score := map[string]float64{}
		for _, m := range wide {
			if !isLive[m.ID] {
				t.Errorf("Nearest(%s's text) reports %q, not a live document", doc.ID, m.ID)
			}
			score[m.ID] = m.Score
		}
		for _, id := range live {
			if text[id] != doc.Text {
				continue
			}
			if sc, ok := score[id]; !ok || len(wide) == 0 || sc != wide[0].Score {
				t.Errorf("Nearest(%s's text) = %v: the stored copy %q is not among the best", doc.ID, wide, id)
			}
		}
		if q, ok := a.(detector.Querier); ok {
			qs, err := q.Query(detector.Doc{Text: doc.Text})
			if err != nil {
				t.Fatalf("Query of %s's text: %v", doc.ID, err)
			}
			for _, m := range qs {
				if sc, ok := score[m.ID]; !ok || sc != m.Score {
					t.Errorf("Query of %s's text reports %v; Nearest = %v", doc.ID, m, wide)
				}
			}
		}
	}
	for _, blank := range []string{"", "   ", "!!! ??? ..."} {
		if got := nearest(t, r, blank, all); len(got) != 0 {
			t.Errorf("Nearest(%q) = %v, want nothing", blank, got)
		}
	}
	sameAnswers(t, "with and without Nearest", a, b, live)
	if l, ok := a.(lener); ok && l.Len() != len(live) {
		t.Errorf("Len = %d after Nearest calls, want %d", l.Len(), len(live))
	}
	for _, k := range []int{0, -1} {
		_, err := r.Nearest(articles[0], k)
		wantErr(t, fmt.Sprintf("Nearest(k=%d)", k), err, detector.ErrInvalidConfig)
	}
	if s.opts.MaxTextBytes >= 0 {
		limit := cmp.Or(s.opts.MaxTextBytes, detector.DefaultMaxTextBytes)
		_, err := r.Nearest(strings.Repeat("a", limit+1), 1)
		wantErr(t, fmt.Sprintf("Nearest of %d bytes", limit+1), err, detector.ErrTooLarge)
	}
	if err := a.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	_, err := r.Nearest(articles[0], 1)
	wantErr(t, "Nearest after Close", err, detector.ErrClosed)
}

// rankConcurrent runs Nearest while other goroutines Add copies of the
// articles: no call fails, every result is ordered and capped, and the
// detector holds exactly the added documents.
func (s suite) rankConcurrent(t *testing.T) {
	d := s.fresh(t)
	r := need[detector.Ranker](t, d)
	var c collector
	var wg sync.WaitGroup
	const rounds = 3
	for w := range 4 {
		wg.Go(func() {
			defer c.recover("Add")
			for i := range rounds {
				for j, text := range articles {
					if _, err := d.Add(detector.Doc{ID: fmt.Sprintf("w%d-%d-%d", w, i, j), Text: text}); err != nil {
						c.errorf("Add: %v", err)
					}
				}
			}
		})
		wg.Go(func() {
			defer c.recover("Nearest")
			for range rounds {
				for _, text := range articles {
					ms, err := r.Nearest(text, 5)
					if err != nil {
						c.errorf("Nearest: %v", err)
						continue
					}
					if len(ms) > 5 || !ordered(ms) {
						c.errorf("Nearest(k=5) = %v: unordered or over k", ms)
					}
				}
			}
		})
	}
	wg.Wait()
	c.report(t)
	if l, ok := d.(lener); ok && l.Len() != 4*rounds*len(articles) {
		t.Errorf("Len = %d, want %d", l.Len(), 4*rounds*len(articles))
	}
}
