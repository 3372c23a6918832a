package detectortest

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/seed-9ef9c1df/neardup/detector"
)

// ordered reports whether ms is ordered by detector.SortMatches.
func ordered(ms []detector.Match) bool {
	sorted := slices.Clone(ms)
	detector.SortMatches(sorted)
	return slices.Equal(sorted, ms)
}

func ranker(t *testing.T, d detector.Detector) detector.Ranker {
	t.Helper()
	r, ok := d.(detector.Ranker)
	if !ok {
		t.Skipf("%T does not implement detector.Ranker", d)
	}
	return r
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
	r := ranker(t, a)
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
		limit := s.opts.MaxTextBytes
		if limit == 0 {
			limit = detector.DefaultMaxTextBytes
		}
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
	r := ranker(t, d)
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
