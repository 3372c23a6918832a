// Package detectortest is the conformance suite every neardup detector runs,
// in the manner of testing/fstest: one call checks the contract of package
// detector against a fresh detector per check.
//
// A user who writes a detector of their own can run it too:
//
//	func TestConformance(t *testing.T) {
//		detectortest.Run(t, func() detector.Detector {
//			d, err := mypkg.New(mypkg.Config{})
//			if err != nil {
//				panic(err)
//			}
//			return d
//		}, detectortest.Options{Symmetric: true})
//	}
//
// The package depends on the standard library and package detector only.
package detectortest

import (
	"cmp"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/seed-9ef9c1df/neardup/detector"
)

// Options describe the detector under test.
type Options struct {
	// Symmetric says the detector reports near-duplicates (a relation that
	// holds both ways). When false the detector must report containment
	// asymmetrically: a long article that contains a short one is reported
	// as its container, and not the reverse.
	Symmetric bool
	// NoRemove skips the Remove checks for a detector that does not
	// implement detector.Remover. Every neardup detector implements it.
	NoRemove bool
	// MaxTextBytes is the detector's size limit, if not
	// detector.DefaultMaxTextBytes; a negative value skips the check that a
	// larger text is rejected.
	MaxTextBytes int
}

// Run runs every check of the suite as a subtest of t, each on a new
// detector from newDetector. Throughout, every result of Add, Containers
// and Query must be ordered by detector.SortMatches, name no ID twice and
// be non-nil (an empty result encodes to JSON as [], not null). The
// subtests, in order:
//
//   - ExactDuplicate: an exact copy of each article is reported by Add and
//     by Containers, both ways, with a positive score, and nothing else is.
//   - Unrelated: unrelated articles, in English and Turkish, report nothing.
//   - NeverSelf: neither Add nor Containers ever reports the document itself,
//     even among copies and repetitions of it.
//   - Symmetric (Options.Symmetric): every relation Containers reports holds
//     both ways. Asymmetric (otherwise): a long article that quotes a short
//     one in full contains it and not the reverse, whichever is added first.
//   - LaterContainers: Containers includes documents added after the one
//     asked about.
//   - Deterministic: two detectors fed the same documents in the same order
//     give identical answers, scores included.
//   - Errors: an empty ID fails with ErrEmptyID; a live ID with
//     ErrDuplicateID, and the rejected text is not indexed; an unknown ID
//     with ErrUnknownID in Containers and Remove; a text one byte over the
//     size limit with ErrTooLarge, and it is not registered.
//   - Close: Close is idempotent and returns nil; later Add, Containers and
//     Remove fail with ErrClosed.
//   - EdgeInputs: empty, blank, punctuation-only, binary, invalid UTF-8,
//     highly repetitive, one-word and 3 MiB texts (or just under the size
//     limit, if smaller) are accepted; the ones
//     with no terms match nothing; none is reported as related to an
//     article.
//   - Remove (unless Options.NoRemove): a removed document is reported no
//     more, its relations are gone both ways, its ID is free again and a
//     second Remove fails with ErrUnknownID.
//   - Concurrent: 8 goroutines Add copies of every article, read
//     Containers and (with Remove) add and remove a temporary copy; then
//     each copy's containers are exactly the other goroutines' copies.
//   - ConcurrentClose: 8 goroutines run Add, Containers and Remove while
//     two more call Close: nothing panics, every error wraps ErrClosed, and
//     every call that starts after Close has returned fails with ErrClosed.
//   - SameID: repeatedly, 6 goroutines Add the same new ID at once, each
//     with a different article: exactly one succeeds, the others fail with
//     ErrDuplicateID, an exact copy of the winner's text added afterwards
//     finds it (and it finds the copy), and a copy of a loser's text does
//     not.
//
// Then the checks of the optional interfaces, each skipped when the
// detector does not implement its interface:
//
//   - Snapshot (detector.Persister): a detector restored from a snapshot
//     (ReadFrom into a fresh detector of the same Config) answers
//     Containers and Len as the original did, and both keep giving
//     identical answers through further Adds and Removes, a removed ID
//     added again included. WriteTo and ReadFrom return the bytes written
//     and read.
//   - SnapshotReencode: two snapshots of an unchanged detector are
//     identical, and the snapshot of a restored detector is byte for byte
//     the one it read.
//   - SnapshotCorrupt: every truncation of a small snapshot (two copies of
//     one article), and single-byte changes of it at its first 48 and last
//     24 bytes and 64 positions between, make ReadFrom fail with an error
//     wrapping ErrSnapshot; the detector stays empty (Len 0 if it has a
//     Len method, the snapshot's IDs unknown) and can still Add, without
//     finding the snapshot's documents.
//   - SnapshotNonEmpty: ReadFrom into a detector that holds a document
//     fails with ErrSnapshot and leaves it as it was; after Close, WriteTo
//     and ReadFrom fail with ErrClosed.
//   - Query (detector.Querier): over a stream with duplicates, containment
//     and (with Remove) a removal, Query(d) and Query of d's text with an
//     empty ID return exactly what the following Add(d) returns, and a
//     detector fed the same stream without Queries gives the same answers
//     (Query changes nothing). A live document's own ID is not reported;
//     a text over the size limit fails with ErrTooLarge; Query after Close
//     with ErrClosed.
//   - QueryConcurrent: 4 goroutines Query copies of the articles while 4
//     Add them: no call fails and no Add, Query or Containers ever reports
//     a queried ID; Len (if any) counts the added documents only.
//   - Copies (detector.CopyLister): exact copies are listed both ways, in
//     ascending order, without the document itself; a removed copy
//     disappears and one added later appears; an unknown ID fails with
//     ErrUnknownID, Copies after Close with ErrClosed.
//   - Rank (detector.Ranker): at every text of a stream with duplicates,
//     containment and (with Remove) removals, Nearest with k of 1, 3 and
//     more than the live documents returns ordered results of live IDs, at
//     most k and no fewer than a wider k finds up to k; with the wider k it
//     includes every document Query reports, with Query's score, and the
//     stored documents of the very text at the best score. A text without
//     words finds nothing; a detector fed the same stream without Nearest
//     answers alike (Nearest stores nothing). k ≤ 0 fails with
//     ErrInvalidConfig, a text over the size limit with ErrTooLarge,
//     Nearest after Close with ErrClosed.
//   - RankConcurrent: 4 goroutines call Nearest while 4 Add copies of the
//     articles: no call fails, results stay ordered and capped, and Len
//     (if any) counts the added documents.
//
// The suite does not check result caps (detector.DefaultMaxResults): it
// never makes more than 12 copies of a text.
//
// Run the suite under the race detector (go test -race) so that the
// concurrent checks can report data races.
func Run(t *testing.T, newDetector func() detector.Detector, opts Options) {
	s := suite{newDetector: newDetector, opts: opts}
	t.Run("ExactDuplicate", s.exactDuplicate)
	t.Run("Unrelated", s.unrelated)
	t.Run("NeverSelf", s.neverSelf)
	if opts.Symmetric {
		t.Run("Symmetric", s.symmetric)
	} else {
		t.Run("Asymmetric", s.asymmetric)
	}
	t.Run("LaterContainers", s.laterContainers)
	t.Run("Deterministic", s.deterministic)
	t.Run("Errors", s.errors)
	t.Run("Close", s.close)
	t.Run("EdgeInputs", s.edgeInputs)
	t.Run("Remove", s.remove)
	t.Run("Concurrent", s.concurrent)
	t.Run("ConcurrentClose", s.concurrentClose)
	t.Run("SameID", s.sameID)
	t.Run("Snapshot", s.snapshot)
	t.Run("SnapshotReencode", s.snapshotReencode)
	t.Run("SnapshotCorrupt", s.snapshotCorrupt)
	t.Run("SnapshotNonEmpty", s.snapshotNonEmpty)
	t.Run("Query", s.query)
	t.Run("QueryConcurrent", s.queryConcurrent)
	t.Run("Copies", s.copies)
	t.Run("Rank", s.rank)
	t.Run("RankConcurrent", s.rankConcurrent)
}

type suite struct {
	newDetector func() detector.Detector
	opts        Options
}

func (s suite) fresh(t *testing.T) detector.Detector {
	t.Helper()
	d := s.newDetector()
	if d == nil {
		t.Fatal("newDetector returned nil")
	}
	t.Cleanup(func() { _ = d.Close() })
	return d
}

// remover returns d's Remove, or nil if the suite is not to use it.
func (s suite) remover(d detector.Detector) detector.Remover {
	if r, ok := d.(detector.Remover); ok && !s.opts.NoRemove {
		return r
	}
	return nil
}

func add(t *testing.T, d detector.Detector, id, text string) []detector.Match {
	t.Helper()
	ms, err := d.Add(detector.Doc{ID: id, Text: text})
	if err != nil {
		t.Fatalf("Add(%q): %v", id, err)
	}
	checkOrder(t, "Add("+id+")", ms)
	return ms
}

// remove removes id through r, failing t on an error.
func remove(t *testing.T, r detector.Remover, id string) {
	t.Helper()
	if err := r.Remove(id); err != nil {
		t.Fatalf("Remove(%q): %v", id, err)
	}
}

func containers(t *testing.T, d detector.Detector, id string) []detector.Match {
	t.Helper()
	ms, err := d.Containers(id)
	if err != nil {
		t.Fatalf("Containers(%q): %v", id, err)
	}
	checkOrder(t, "Containers("+id+")", ms)
	return ms
}

// checkOrder fails t unless ms is non-nil (an empty result encodes to JSON
// as [], not null), ordered by detector.SortMatches and has no repeated ID.
func checkOrder(t *testing.T, call string, ms []detector.Match) {
	t.Helper()
	if ms == nil {
		t.Errorf("%s returned a nil slice; an empty result must be an empty, non-nil slice, which encodes to JSON as []", call)
	}
	if !ordered(ms) {
		t.Errorf("%s = %v is not ordered by descending score, then ID", call, ms)
	}
	seen := map[string]bool{}
	for _, m := range ms {
		if seen[m.ID] {
			t.Errorf("%s = %v reports %q twice", call, ms, m.ID)
		}
		seen[m.ID] = true
	}
}

func ids(ms []detector.Match) []string {
	out := make([]string, 0, len(ms))
	for _, m := range ms {
		out = append(out, m.ID)
	}
	slices.Sort(out)
	return out
}

func has(ms []detector.Match, id string) bool {
	return slices.ContainsFunc(ms, func(m detector.Match) bool { return m.ID == id })
}

// wantIDs fails t unless the IDs of ms are want.
func wantIDs(t *testing.T, call string, ms []detector.Match, want ...string) {
	t.Helper()
	slices.Sort(want)
	if got := ids(ms); !slices.Equal(got, want) {
		t.Errorf("%s = %v, want the IDs %v", call, ms, want)
	}
}

// wantErr fails t unless err wraps target.
func wantErr(t *testing.T, call string, err, target error) {
	t.Helper()
	if !errors.Is(err, target) {
		t.Errorf("%s: error %v, want one wrapping %q", call, err, target)
	}
}

func (s suite) exactDuplicate(t *testing.T) {
	for k, text := range articles {
		d := s.fresh(t)
		a, b := fmt.Sprintf("a%d", k), fmt.Sprintf("b%d", k)
		wantIDs(t, fmt.Sprintf("Add(%q) into an empty detector", a), add(t, d, a, text))
		got := add(t, d, b, text)
		wantIDs(t, fmt.Sprintf("Add(%q), an exact duplicate of %q,", b, a), got, a)
		for _, m := range got {
			if !(m.Score > 0) {
				t.Errorf("Add(%q) = %v: score of an exact duplicate is not positive", b, got)
			}
		}
		wantIDs(t, fmt.Sprintf("Containers(%q)", a), containers(t, d, a), b)
		wantIDs(t, fmt.Sprintf("Containers(%q)", b), containers(t, d, b), a)
	}
}

func (s suite) unrelated(t *testing.T) {
	d := s.fresh(t)
	for k, text := range articles {
		id := fmt.Sprintf("u%d", k)
		wantIDs(t, fmt.Sprintf("Add(%q) of an unrelated article", id), add(t, d, id, text))
	}
	wantIDs(t, "Add(ext) of unrelated text", add(t, d, "ext", extension))
	for k := range articles {
		id := fmt.Sprintf("u%d", k)
		wantIDs(t, fmt.Sprintf("Containers(%q) among unrelated articles", id), containers(t, d, id))
	}
}

func (s suite) neverSelf(t *testing.T) {
	d := s.fresh(t)
	long := articles[0] + "\n\n" + extension
	for i, text := range []string{articles[0], articles[0], long, articles[1], strings.Repeat(articles[1]+"\n\n", 3)} {
		id := fmt.Sprintf("s%d", i)
		if ms := add(t, d, id, text); has(ms, id) {
			t.Errorf("Add(%q) = %v reports the document itself", id, ms)
		}
	}
	for i := range 5 {
		id := fmt.Sprintf("s%d", i)
		if ms := containers(t, d, id); has(ms, id) {
			t.Errorf("Containers(%q) = %v reports the document itself", id, ms)
		}
	}
}

// containment builds the long article: the storm report with new material
// before and after it.
func containment() (short, long string) {
	half := len(extension) / 2
	cut := strings.IndexByte(extension[half:], '\n') + half
	return articles[0], extension[:cut] + "\n\n" + articles[0] + "\n\n" + extension[cut+1:]
}

func (s suite) asymmetric(t *testing.T) {
	short, long := containment()
	t.Run("ShortFirst", func(t *testing.T) {
		d := s.fresh(t)
		add(t, d, "short", short)
		if got := add(t, d, "long", long); has(got, "short") {
			t.Errorf("Add(long) = %v: the short article does not contain the long one", got)
		}
		wantIDs(t, "Containers(short), where long ⊇ short,", containers(t, d, "short"), "long")
		wantIDs(t, "Containers(long)", containers(t, d, "long"))
	})
	t.Run("LongFirst", func(t *testing.T) {
		d := s.fresh(t)
		add(t, d, "long", long)
		wantIDs(t, "Add(short), where long ⊇ short,", add(t, d, "short", short), "long")
		wantIDs(t, "Containers(long)", containers(t, d, "long"))
	})
}

// symmetric checks that every reported relation holds both ways.
func (s suite) symmetric(t *testing.T) {
	d := s.fresh(t)
	_, long := containment()
	docs := []string{articles[0], long, articles[1], articles[0], articles[2], articles[1]}
	for i, text := range docs {
		add(t, d, fmt.Sprintf("y%d", i), text)
	}
	for i := range docs {
		a := fmt.Sprintf("y%d", i)
		for _, m := range containers(t, d, a) {
			if back := containers(t, d, m.ID); !has(back, a) {
				t.Errorf("Containers(%q) has %q but Containers(%q) = %v lacks %q", a, m.ID, m.ID, back, a)
			}
		}
	}
}

func (s suite) laterContainers(t *testing.T) {
	d := s.fresh(t)
	add(t, d, "first", articles[2])
	add(t, d, "other", articles[3])
	add(t, d, "second", articles[2])
	wantIDs(t, "Containers(first) after a later duplicate", containers(t, d, "first"), "second")
	if !s.opts.Symmetric {
		short, long := containment()
		add(t, d, "short", short)
		add(t, d, "long", long)
		wantIDs(t, "Containers(short) after a later container", containers(t, d, "short"), "long")
	}
}

// script is a fixed sequence of documents mixing duplicates, containment and
// unrelated texts.
func script() []detector.Doc {
	short, long := containment()
	texts := []string{articles[0], articles[1], long, articles[2], articles[1], short, articles[3], articles[4], articles[4], articles[5], long, articles[2]}
	docs := make([]detector.Doc, len(texts))
	for i, text := range texts {
		docs[i] = detector.Doc{ID: fmt.Sprintf("doc%02d", i), Text: text}
	}
	return docs
}

func (s suite) deterministic(t *testing.T) {
	run := func() [][]detector.Match {
		d := s.fresh(t)
		var out [][]detector.Match
		for _, doc := range script() {
			out = append(out, add(t, d, doc.ID, doc.Text))
		}
		for _, doc := range script() {
			out = append(out, containers(t, d, doc.ID))
		}
		return out
	}
	first, second := run(), run()
	for i := range first {
		if !slices.Equal(first[i], second[i]) {
			t.Errorf("two runs over the same documents differ at call %d: %v, then %v", i, first[i], second[i])
		}
	}
}

func (s suite) errors(t *testing.T) {
	d := s.fresh(t)
	_, err := d.Add(detector.Doc{ID: "", Text: articles[0]})
	wantErr(t, "Add with an empty ID", err, detector.ErrEmptyID)
	add(t, d, "x", articles[0])
	_, err = d.Add(detector.Doc{ID: "x", Text: articles[1]})
	wantErr(t, "Add with a live ID", err, detector.ErrDuplicateID)
	// The rejected document must not have been indexed.
	wantIDs(t, "Add(y) after a rejected Add of the same text", add(t, d, "y", articles[1]))
	_, err = d.Containers("nope")
	wantErr(t, "Containers of an unknown ID", err, detector.ErrUnknownID)
	if r := s.remover(d); r != nil {
		wantErr(t, "Remove of an unknown ID", r.Remove("nope"), detector.ErrUnknownID)
	}
	if s.opts.MaxTextBytes >= 0 {
		limit := cmp.Or(s.opts.MaxTextBytes, detector.DefaultMaxTextBytes)
		_, err = d.Add(detector.Doc{ID: "huge", Text: strings.Repeat("a", limit+1)})
		wantErr(t, fmt.Sprintf("Add of %d bytes", limit+1), err, detector.ErrTooLarge)
		_, err = d.Containers("huge")
		wantErr(t, "Containers of a document rejected as too large", err, detector.ErrUnknownID)
	}
}

func (s suite) close(t *testing.T) {
	d := s.fresh(t)
	add(t, d, "x", articles[0])
	if err := d.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if err := d.Close(); err != nil {
		t.Errorf("a second Close: %v", err)
	}
	_, err := d.Add(detector.Doc{ID: "y", Text: articles[1]})
	wantErr(t, "Add after Close", err, detector.ErrClosed)
	_, err = d.Containers("x")
	wantErr(t, "Containers after Close", err, detector.ErrClosed)
	if r := s.remover(d); r != nil {
		wantErr(t, "Remove after Close", r.Remove("x"), detector.ErrClosed)
	}
}

// noise returns about n bytes of text from the invented vocabulary.
func noise(n int, seed uint64) string {
	r := rand.New(rand.NewPCG(seed, 1))
	var b strings.Builder
	b.Grow(n + 64)
	for b.Len() < n {
		words := 6 + r.IntN(14)
		for i := range words {
			if i > 0 {
				b.WriteByte(' ')
			}
			w := noiseWords[r.IntN(len(noiseWords))]
			if i == 0 {
				w = strings.ToUpper(w[:1]) + w[1:]
			}
			b.WriteString(w)
		}
		b.WriteString(". ")
		if r.IntN(8) == 0 {
			b.WriteString("\n\n")
		}
	}
	return b.String()
}

func (s suite) edgeInputs(t *testing.T) {
	d := s.fresh(t)
	invalid := strings.ReplaceAll(articles[1], " the ", " \xff\xfe ")
	edge := []struct{ id, text string }{
		{"empty", ""},
		{"empty2", ""},
		{"space", " \t\n\r\n  \u00a0 "},
		{"space2", "\n\n\n"},
		{"punct", "... ,,, !!! ??? --- ***"},
		{"bytes", "\xff\xfe\xfd\x00\x01\xc3"},
		{"invalid", invalid},
		{"repeated", strings.Repeat("buffalo ", 10000)},
		{"repeated2", strings.Repeat("buffalo ", 10000)},
		{"huge", noise(s.hugeSize(), 7)},
		{"oneword", "Ankara"},
	}
	for _, e := range edge {
		add(t, d, e.id, e.text)
	}
	// Documents without indexable terms match nothing.
	for _, id := range []string{"empty", "empty2", "space", "space2", "punct"} {
		wantIDs(t, fmt.Sprintf("Containers(%q) of a document with no terms", id), containers(t, d, id))
	}
	// A real article is not related to any of them.
	wantIDs(t, "Add(article) after the edge inputs", add(t, d, "article", articles[2]))
	if got := add(t, d, "article2", articles[1]); has(got, "huge") {
		t.Errorf("Add(article2) = %v: the large noise document is reported as related to an article", got)
	}
	for _, e := range edge {
		containers(t, d, e.id) // must not fail
	}
}

func (s suite) remove(t *testing.T) {
	if s.opts.NoRemove {
		t.Skip("Options.NoRemove")
	}
	d := s.fresh(t)
	r, ok := d.(detector.Remover)
	if !ok {
		t.Fatalf("%T does not implement detector.Remover (set Options.NoRemove to skip)", d)
	}
	add(t, d, "a", articles[3])
	add(t, d, "b", articles[3])
	add(t, d, "c", articles[3])
	remove(t, r, "b")
	wantIDs(t, "Containers(a) after Remove(b)", containers(t, d, "a"), "c")
	wantIDs(t, "Containers(c) after Remove(b)", containers(t, d, "c"), "a")
	_, err := d.Containers("b")
	wantErr(t, "Containers of a removed ID", err, detector.ErrUnknownID)
	wantErr(t, "a second Remove(b)", r.Remove("b"), detector.ErrUnknownID)
	// The removed document is forgotten in both directions; its ID is free.
	wantIDs(t, "Add(b) again", add(t, d, "b", articles[3]), "a", "c")
	remove(t, r, "a")
	remove(t, r, "b")
	remove(t, r, "c")
	wantIDs(t, "Add(d) after every copy was removed", add(t, d, "d", articles[3]))
	if !s.opts.Symmetric {
		short, long := containment()
		add(t, d, "short", short)
		add(t, d, "long", long)
		remove(t, r, "long")
		wantIDs(t, "Containers(short) after Remove(long)", containers(t, d, "short"))
		wantIDs(t, "Add(short2) after Remove(long)", add(t, d, "short2", short), "short")
	}
}

// hugeSize is the size of the edge inputs' large document: 3 MiB, or a
// sentence under the detector's size limit when that is smaller (noise
// overshoots its size by less than a sentence).
func (s suite) hugeSize() int {
	limit := s.opts.MaxTextBytes
	if limit <= 0 {
		limit = detector.DefaultMaxTextBytes
	}
	return max(min(3<<20, limit-512), 1)
}
