package detectortest_test

import (
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/detector/detectortest"
	"github.com/seed-9ef9c1df/neardup/internal/naive"
	"github.com/seed-9ef9c1df/neardup/textproc"
)

// The reference detector passes the suite in both modes.
func TestNaiveContainment(t *testing.T) {
	detectortest.Run(t, func() detector.Detector { return naive.New(naive.Config{}) }, detectortest.Options{})
}

func TestNaiveJaccard(t *testing.T) {
	detectortest.Run(t, func() detector.Detector {
		return naive.New(naive.Config{Symmetric: true, Threshold: 0.6})
	}, detectortest.Options{Symmetric: true})
}

// broken wraps the reference detector and breaks one rule of the contract.
type broken struct {
	*naive.Detector
	rule   string
	mu     sync.Mutex
	seen   map[string][]detector.Match
	feats  map[string]bool
	closed bool
	texts  map[string]string // live texts, for Copies
	last   detector.Doc      // the latest document added
	adds   int
	probes int
}

// live keeps the matches whose features "lose-winner" still holds.
func (b *broken) live(ms []detector.Match) []detector.Match {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []detector.Match
	for _, m := range ms {
		if b.feats[m.ID] {
			out = append(out, m)
		}
	}
	return out
}

func (b *broken) Add(d detector.Doc) ([]detector.Match, error) {
	ms, err := b.add(d)
	if err == nil {
		b.mu.Lock()
		if b.texts == nil {
			b.texts = map[string]string{}
		}
		b.texts[d.ID] = d.Text
		b.last = d
		b.adds++
		b.mu.Unlock()
	}
	return ms, err
}

func (b *broken) add(d detector.Doc) ([]detector.Match, error) {
	switch b.rule {
	case "lose-winner":
		// A combinator that stores a document's features before its inner
		// detector accepts the ID, and deletes them if that fails: a losing
		// Add of the same ID deletes the features of the winner when the
		// two reach the inner detector in the other order.
		b.mu.Lock()
		if b.feats == nil {
			b.feats = map[string]bool{}
		}
		exists := b.feats[d.ID]
		b.feats[d.ID] = true
		b.mu.Unlock()
		an, _ := textproc.NewAnalyzer(textproc.Config{})
		naive.Shingles(an, d.Text, 4) // analysis before the inner lock, as real detectors do
		ms, err := b.Detector.Add(d)
		if err != nil {
			if !exists {
				b.mu.Lock()
				delete(b.feats, d.ID)
				b.mu.Unlock()
			}
			return nil, err
		}
		return b.live(ms), nil
	case "close-race":
		// Checks the closed state, then works without holding a lock: a
		// Close in between makes the inner call fail with an error that
		// no longer says "closed".
		b.mu.Lock()
		closed := b.closed
		b.mu.Unlock()
		if closed {
			return nil, fmt.Errorf("broken: Add(%q): %w", d.ID, detector.ErrClosed)
		}
		an, _ := textproc.NewAnalyzer(textproc.Config{})
		naive.Shingles(an, d.Text, 4) // analysis outside the lock
		ms, err := b.Detector.Add(d)
		if errors.Is(err, detector.ErrClosed) {
			return nil, fmt.Errorf("broken: Add(%q): index released", d.ID)
		}
		return ms, err
	case "empty-id":
		if d.ID == "" {
			return nil, nil
		}
	case "panic-empty":
		if strings.TrimSpace(d.Text) == "" {
			panic("empty text")
		}
	case "close":
		b.mu.Lock()
		closed := b.closed
		b.mu.Unlock()
		if closed {
			return nil, nil
		}
	}
	ms, err := b.Detector.Add(d)
	switch b.rule {
	case "miss-duplicates":
		return nil, err
	case "jitter":
		for i := range ms {
			ms[i].Score += rand.Float64() * 1e-3
		}
		detector.SortMatches(ms)
	case "unsorted":
		for i, j := 0, len(ms)-1; i < j; i, j = i+1, j-1 {
			ms[i], ms[j] = ms[j], ms[i]
		}
	case "no-later":
		b.mu.Lock()
		if b.seen == nil {
			b.seen = map[string][]detector.Match{}
		}
		b.seen[d.ID] = ms
		b.mu.Unlock()
	}
	return ms, err
}

func (b *broken) Containers(id string) ([]detector.Match, error) {
	ms, err := b.Detector.Containers(id)
	if err != nil {
		return ms, err
	}
	switch b.rule {
	case "lose-winner":
		ms = b.live(ms)
	case "self":
		ms = append(ms, detector.Match{ID: id, Score: 0})
	case "both-ways":
		// Report the documents id contains as its containers too.
		for _, other := range []string{"short", "long"} {
			if other != id {
				if _, err := b.Detector.Containers(other); err == nil {
					ms = append(ms, detector.Match{ID: other, Score: 0.01})
				}
			}
		}
		detector.SortMatches(ms)
	case "no-later":
		b.mu.Lock()
		ms = b.seen[id]
		b.mu.Unlock()
	case "everything":
		ms = append(ms, detector.Match{ID: "u0", Score: 0})
	}
	return ms, nil
}

func (b *broken) Remove(id string) error {
	if b.rule == "no-forget" {
		_, err := b.Detector.Containers(id)
		return err
	}
	err := b.Detector.Remove(id)
	if err == nil && b.rule != "copies-stale" {
		b.mu.Lock()
		delete(b.texts, id)
		b.mu.Unlock()
	}
	return err
}

// Copies lists the documents of identical text; "copies-stale" forgets
// none.
func (b *broken) Copies(id string) ([]string, error) {
	if _, err := b.Detector.Containers(id); err != nil {
		return nil, err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []string
	for other, text := range b.texts {
		if other != id && text == b.texts[id] {
			out = append(out, other)
		}
	}
	slices.Sort(out)
	return out, nil
}

func (b *broken) WriteTo(w io.Writer) (int64, error) {
	switch b.rule {
	case "snapshot-lossy":
		// The latest document is left out of the snapshot.
		b.mu.Lock()
		last := b.last
		b.mu.Unlock()
		if last.ID != "" && b.Detector.Remove(last.ID) == nil {
			defer b.Detector.Add(last)
		}
	case "reencode-drift":
		// A count of Adds that ReadFrom does not restore.
		b.mu.Lock()
		n := b.adds
		b.mu.Unlock()
		if _, err := w.Write([]byte{byte(n)}); err != nil {
			return 0, err
		}
		m, err := b.Detector.WriteTo(w)
		return m + 1, err
	}
	return b.Detector.WriteTo(w)
}

func (b *broken) ReadFrom(r io.Reader) (int64, error) {
	switch b.rule {
	case "reencode-drift":
		var one [1]byte
		if _, err := io.ReadFull(r, one[:]); err != nil {
			return 0, fmt.Errorf("broken: %v: %w", err, detector.ErrSnapshot)
		}
		n, err := b.Detector.ReadFrom(r)
		return n + 1, err
	case "corrupt-dirty":
		// A failed load leaves a document behind.
		n, err := b.Detector.ReadFrom(r)
		if err != nil {
			_, _ = b.Detector.Add(detector.Doc{ID: "partial", Text: "a partly loaded document"})
		}
		return n, err
	case "corrupt-accepted":
		n, _ := b.Detector.ReadFrom(r)
		return n, nil
	case "nonempty-accepted":
		if b.Detector.Len() > 0 {
			n, _ := io.Copy(io.Discard, r)
			return n, nil
		}
	}
	return b.Detector.ReadFrom(r)
}

func (b *broken) Query(d detector.Doc) ([]detector.Match, error) {
	switch b.rule {
	case "query-stores":
		if d.ID == "" {
			b.mu.Lock()
			b.probes++
			d.ID = fmt.Sprintf("probe%d", b.probes)
			b.mu.Unlock()
		}
		return b.Detector.Add(d)
	case "query-leak":
		// Add then Remove: others can see the probe meanwhile.
		b.mu.Lock()
		b.probes++
		d.ID = fmt.Sprintf("probe%d", b.probes)
		b.mu.Unlock()
		ms, err := b.Detector.Add(d)
		if err != nil {
			return nil, err
		}
		runtime.Gosched()
		return ms, b.Detector.Remove(d.ID)
	}
	return b.Detector.Query(d)
}

func (b *broken) Nearest(text string, k int) ([]detector.Match, error) {
	switch b.rule {
	case "nearest-k0":
		k = max(k, 1)
	case "nearest-over-k":
		k = 100
	case "nearest-stores":
		b.mu.Lock()
		b.probes++
		id := fmt.Sprintf("probe%d", b.probes)
		b.mu.Unlock()
		if _, err := b.Detector.Add(detector.Doc{ID: id, Text: text}); err != nil {
			return nil, err
		}
	case "nearest-busy":
		// Gives up when an Add commits meanwhile, as an optimistic reader
		// without a retry would.
		b.mu.Lock()
		before := b.adds
		b.mu.Unlock()
		ms, err := b.Detector.Nearest(text, k)
		time.Sleep(time.Millisecond)
		b.mu.Lock()
		defer b.mu.Unlock()
		if b.adds != before {
			return nil, errors.New("an Add ran meanwhile")
		}
		return ms, err
	}
	ms, err := b.Detector.Nearest(text, k)
	switch b.rule {
	case "nearest-score":
		for i := range ms {
			ms[i].Score *= 0.9
		}
	case "nearest-unsorted":
		slices.Reverse(ms)
	}
	return ms, err
}

func (b *broken) Close() error {
	if b.rule == "close-race" {
		b.mu.Lock()
		b.closed = true
		b.mu.Unlock()
	}
	if b.rule == "close" {
		b.mu.Lock()
		b.closed = true
		b.mu.Unlock()
		return nil
	}
	return b.Detector.Close()
}

// racy is the reference detector's logic with the lock removed.
type racy struct {
	docs map[string]string
	ref  *naive.Detector
}

func (r *racy) Add(d detector.Doc) ([]detector.Match, error) {
	r.docs[d.ID] = d.Text
	return r.ref.Add(d)
}
func (r *racy) Containers(id string) ([]detector.Match, error) {
	_ = r.docs[id]
	return r.ref.Containers(id)
}
func (r *racy) Close() error           { return r.ref.Close() }
func (r *racy) Remove(id string) error { delete(r.docs, id); return r.ref.Remove(id) }

// Each broken rule and the subtest that must catch it.
var brokenRules = map[string]string{
	"miss-duplicates": "ExactDuplicate",
	"everything":      "Unrelated",
	"self":            "NeverSelf",
	"both-ways":       "Asymmetric",
	"no-later":        "LaterContainers",
	"jitter":          "Deterministic",
	"unsorted":        "Deterministic",
	"empty-id":        "Errors",
	"close":           "Close",
	"panic-empty":     "EdgeInputs",
	"no-forget":       "Remove",
	"lose-winner":     "SameID",
	"close-race":      "ConcurrentClose",

	"snapshot-lossy":    "Snapshot",
	"reencode-drift":    "SnapshotReencode",
	"corrupt-dirty":     "SnapshotCorrupt",
	"corrupt-accepted":  "SnapshotCorrupt",
	"nonempty-accepted": "SnapshotNonEmpty",
	"query-stores":      "Query",
	"query-leak":        "QueryConcurrent",
	"copies-stale":      "Copies",
	"nearest-k0":        "Rank",
	"nearest-over-k":    "Rank",
	"nearest-stores":    "Rank",
	"nearest-score":     "Rank",
	"nearest-unsorted":  "Rank",
	"nearest-busy":      "RankConcurrent",
}

// The broken wrapper with no rule broken passes every check, Copies
// included, so each rule's failure is its own.
func TestUnbrokenPasses(t *testing.T) {
	detectortest.Run(t, func() detector.Detector {
		return &broken{Detector: naive.New(naive.Config{})}
	}, detectortest.Options{})
}

// TestBrokenHelper runs the suite on one broken detector; it does something
// only when TestSuiteCatchesBrokenDetectors starts it in a subprocess.
func TestBrokenHelper(t *testing.T) {
	rule := os.Getenv("NEARDUP_BROKEN_RULE")
	if rule == "" {
		t.Skip("run by TestSuiteCatchesBrokenDetectors")
	}
	detectortest.Run(t, func() detector.Detector {
		if rule == "racy" {
			return &racy{docs: map[string]string{}, ref: naive.New(naive.Config{})}
		}
		return &broken{Detector: naive.New(naive.Config{}), rule: rule}
	}, detectortest.Options{})
}

func TestSuiteCatchesBrokenDetectors(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a subprocess per rule")
	}
	rules := brokenRules
	if raceEnabled {
		rules = map[string]string{"racy": "Concurrent"}
		for k, v := range brokenRules {
			rules[k] = v
		}
	}
	for rule, subtest := range rules {
		t.Run(rule, func(t *testing.T) {
			t.Parallel()
			// Only the subtest the rule must fail runs: the others check
			// nothing this test reads, and each costs a suite's share.
			cmd := exec.Command(os.Args[0], "-test.run=^TestBrokenHelper$/^"+subtest+"$", "-test.v")
			cmd.Env = append(os.Environ(), "NEARDUP_BROKEN_RULE="+rule)
			out, err := cmd.CombinedOutput()
			assert.Error(t, err, "the suite passed a detector that breaks rule %q", rule)
			if rule == "racy" {
				// The race detector reports the race inside the Concurrent
				// subtest; the runtime may then kill the process ("fatal
				// error: concurrent map writes") before the FAIL line.
				race := strings.Index(string(out), "WARNING: DATA RACE")
				if assert.GreaterOrEqual(t, race, 0, "no data race reported") {
					run := strings.LastIndex(string(out[:race]), "=== RUN   ")
					assert.True(t, strings.HasPrefix(string(out[run:]), "=== RUN   TestBrokenHelper/"+subtest),
						"the race must be reported in subtest %s", subtest)
				}
				return
			}
			want := fmt.Sprintf("--- FAIL: TestBrokenHelper/%s", subtest)
			assert.Contains(t, string(out), want, "rule %q must fail subtest %s", rule, subtest)
		})
	}
}
