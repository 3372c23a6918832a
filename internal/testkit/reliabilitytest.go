// The reliability checks detectors with the same guarantees share:
// a concurrent stream equal to its sequential replay, Adds that analyse
// outside the lock, memory given back after hostile documents, and an
// online table under concurrent Adds and Removes. Detector packages call
// them with their constructors and test hooks, so that a check is written
// once. It uses plain testing (no testify), as detector/detectortest
// does.

package testkit

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/dataset"
	"github.com/seed-9ef9c1df/neardup/textproc"
)

// Detector is a detector that can forget a document and count its live
// ones: what the checks of this package drive.
type Detector interface {
	detector.Detector
	detector.Remover
	Len() int
}

// HostileText returns a text of n (at most 36^4) distinct tokens that no
// other text has (tag keeps the tokens of different texts apart) and that
// stay distinct under first-5 stemming: the worst case for a vocabulary,
// about 14 bytes per token.
func HostileText(tag string, n int) string {
	var b strings.Builder
	b.Grow(n * 14)
	for i := range n {
		w := strconv.FormatInt(int64(i), 36)
		b.WriteString("q")
		b.WriteString("0000"[len(w):])
		b.WriteString(w)
		b.WriteString(tag)
		b.WriteString("z ")
	}
	return b.String()
}

// Sequential describes a detector for [ConcurrentMatchesSequential].
type Sequential[D Detector] struct {
	// Build returns a fresh detector (called twice per check).
	Build func() (D, error)
	// Record sets d's test hook that is called, under its lock, as a
	// document is indexed.
	Record func(d D, commit func(id string))
	// Same requires that concurrent and sequential hold the same per
	// document state for id (a signature, a fingerprint, ...).
	Same func(t *testing.T, concurrent, sequential D, id string)
}

// ConcurrentMatchesSequential adds docs from 4 goroutines, records the
// order in which the Adds were indexed, and requires every document's
// state (Same) and every Containers answer to equal those of a detector
// that added the same documents one by one in that order.
func ConcurrentMatchesSequential[D Detector](t *testing.T, docs []detector.Doc, s Sequential[D]) {
	t.Helper()
	d, err := s.Build()
	if err != nil {
		t.Fatal(err)
	}
	var order []string // appended under d's lock
	s.Record(d, func(id string) { order = append(order, id) })
	byID := map[string]detector.Doc{}
	for _, doc := range docs {
		byID[doc.ID] = doc
	}
	inParallel(4, len(docs), func(i int) bool {
		if _, err := d.Add(docs[i]); err != nil {
			t.Errorf("Add(%q): %v", docs[i].ID, err)
		}
		return true
	})
	if len(order) != len(docs) {
		t.Fatalf("%d documents indexed, want %d", len(order), len(docs))
	}
	seq, err := s.Build()
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range order {
		if _, err := seq.Add(byID[id]); err != nil {
			t.Fatal(err)
		}
	}
	for _, doc := range docs {
		s.Same(t, d, seq, doc.ID)
		sameContainers(t, d, seq, doc.ID)
	}
}

// sameContainers requires d and seq, the detector that added the same
// documents one by one, to answer Containers(id) alike.
func sameContainers(t testing.TB, d, seq detector.Detector, id string) {
	t.Helper()
	a, err := d.Containers(id)
	if err != nil {
		t.Fatal(err)
	}
	b, err := seq.Containers(id)
	if err != nil {
		t.Fatal(err)
	}
	equal(t, b, a, "Containers(%s) of the concurrent detector and the sequential one", id)
}

// inParallel calls do(i) for each i in [0, n) from g goroutines, each
// taking the next i, until the indexes run out; a goroutine stops early
// when do returns false.
func inParallel(g, n int, do func(i int) bool) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for range g {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= n || !do(i) {
					return
				}
			}
		}()
	}
	wg.Wait()
}

// AnalysesOutsideLock holds an Add of d (a fresh detector) at *hook, the
// detector's test hook run just after the Add's analysis, and requires
// that Containers, Len and another Add complete meanwhile: the text is
// analysed without the detector's lock.
func AnalysesOutsideLock(t *testing.T, d Detector, hook *func()) {
	t.Helper()
	holdSecondAdd(t, d, hook, 3, "Containers and Add waited for another Add's analysis", func(docs []detector.Doc) error {
		_, err := d.Containers(docs[0].ID)
		if err == nil {
			_, err = d.Add(docs[2])
		}
		d.Len()
		return err
	})
}

// holdSecondAdd adds the first of n synthetic documents to d, then runs
// the Add of the second with *hook (the detector's test hook, run at the
// point of Add under test) blocking its first call, and requires
// meanwhile, given the documents, to complete within 10 seconds without
// error; msg is the failure message when it does not. The held Add must
// then succeed and d hold n documents; *hook is reset.
func holdSecondAdd(t *testing.T, d Detector, hook *func(), n int, msg string, meanwhile func(docs []detector.Doc) error) {
	t.Helper()
	docs := dataset.SynthDocs(n, dataset.SynthConfig{Seed: 1})
	if _, err := d.Add(docs[0]); err != nil {
		t.Fatal(err)
	}
	entered, release := make(chan struct{}), make(chan struct{})
	var first atomic.Bool
	*hook = func() {
		if first.CompareAndSwap(false, true) {
			close(entered)
			<-release
		}
	}
	defer func() { *hook = nil }()
	done := make(chan error)
	go func() {
		_, err := d.Add(docs[1])
		done <- err
	}()
	<-entered
	otherDone := make(chan error)
	go func() { otherDone <- meanwhile(docs) }()
	select {
	case err := <-otherDone:
		if err != nil {
			close(release)
			<-done
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal(msg)
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if got := d.Len(); got != n {
		t.Errorf("Len %d, want %d", got, n)
	}
}

// ReadersDoNotWaitForTurn holds an Add of d (a fresh detector with its own
// table) at *hook, the detector's test hook run while the Add has counted
// its document (its turn), and requires that Containers, Len and idf (the
// detector's IDF method) complete meanwhile.
func ReadersDoNotWaitForTurn(t *testing.T, d Detector, hook *func(), idf func() *textproc.IDF) {
	t.Helper()
	holdSecondAdd(t, d, hook, 2, "Containers waited for an Add's turn", func(docs []detector.Doc) error {
		_, err := d.Containers(docs[0].ID)
		d.Len()
		idf()
		return err
	})
}

// HostileMemoryReturned adds three documents of 150k distinct tokens to d
// (holding 200 synthetic documents) and removes them: the live heap
// returns to within 6 MB of where it was.
func HostileMemoryReturned(t *testing.T, d Detector) {
	t.Helper()
	for _, doc := range dataset.SynthDocs(200, dataset.SynthConfig{Seed: 9}) {
		if _, err := d.Add(doc); err != nil {
			t.Fatal(err)
		}
	}
	before := LiveHeap()
	for i := range 3 {
		id := "hostile" + strconv.Itoa(i)
		if _, err := d.Add(detector.Doc{ID: id, Text: HostileText(strconv.Itoa(i), 150_000)}); err != nil {
			t.Fatal(err)
		}
		if err := d.Remove(id); err != nil {
			t.Fatal(err)
		}
	}
	after := LiveHeap()
	if int64(after)-int64(before) >= int64(6<<20) {
		t.Errorf("live heap %d → %d bytes", before, after)
	}
}

// LiveIDF checks that the online table of d (a fresh detector with its
// own table, English analysis) counts the live documents: a removed
// document's terms leave it.
func LiveIDF(t *testing.T, d Detector, idf func() *textproc.IDF) {
	t.Helper()
	for i, text := range []string{"alpha beta gamma", "alpha delta", "epsilon zeta"} {
		if _, err := d.Add(detector.Doc{ID: strconv.Itoa(i), Text: text}); err != nil {
			t.Fatal(err)
		}
	}
	wantDF := func(when string, n, alpha int64) {
		t.Helper()
		if got := idf().N(); got != n {
			t.Errorf("%s: N %d, want %d", when, got, n)
		}
		if got := idf().DF("alpha"); got != alpha {
			t.Errorf("%s: DF(alpha) %d, want %d", when, got, alpha)
		}
	}
	wantDF("after 3 Adds", 3, 2)
	if err := d.Remove("0"); err != nil {
		t.Fatal(err)
	}
	wantDF("after a Remove", 2, 1)
	if got := idf().DF("gamma"); got != 0 {
		t.Errorf("DF(gamma) %d after its document was removed: the removed document's own term leaves the table", got)
	}
}

// ConcurrentAddRemoveIDF adds and removes n synthetic documents from 4
// goroutines at once (an Add looks its terms up in the online table
// before its turn while Removes take terms out of it) and requires the
// table to count the live documents exactly: N, Len and the table's
// fingerprint those of a Detector that added only them, one by one.
func ConcurrentAddRemoveIDF[D Detector](t *testing.T, n int, build func() (D, error), idf func(D) *textproc.IDF) {
	t.Helper()
	docs := dataset.SynthDocs(n, dataset.SynthConfig{Seed: 8})
	d, err := build()
	if err != nil {
		t.Fatal(err)
	}
	live := make([]bool, n) // by document; goroutine g owns the documents i ≡ g mod 4
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			r := rand.New(rand.NewPCG(uint64(g), 3))
			for range 3 * n / 4 {
				i := g + 4*r.IntN(n/4)
				if live[i] {
					if err := d.Remove(docs[i].ID); err != nil {
						t.Errorf("Remove(%s): %v", docs[i].ID, err)
					}
				} else if _, err := d.Add(docs[i]); err != nil {
					t.Errorf("Add(%s): %v", docs[i].ID, err)
				}
				live[i] = !live[i]
			}
		})
	}
	wg.Wait()
	seq, err := build()
	if err != nil {
		t.Fatal(err)
	}
	for i, doc := range docs {
		if live[i] {
			if _, err := seq.Add(doc); err != nil {
				t.Fatal(err)
			}
		}
	}
	if seq.Len() != d.Len() {
		t.Errorf("Len %d, want %d", d.Len(), seq.Len())
	}
	if got, want := idf(d).N(), idf(seq).N(); got != want {
		t.Errorf("table N %d, want %d", got, want)
	}
	if idf(d).Fingerprint() != idf(seq).Fingerprint() {
		t.Error("the table does not count the live documents: its fingerprint differs from the sequential table's")
	}
}
