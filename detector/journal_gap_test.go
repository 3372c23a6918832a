package detector_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/zeebo/xxh3"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/naive"
	"github.com/seed-9ef9c1df/neardup/minhash"
)

// segments journals the operations of each part as one segment of the
// journal of snapshot snap, each in a file of its own, as a service that
// starts a new file now and then writes them.
func segments(t testing.TB, snap detector.SnapshotID, parts ...[]string) [][]byte {
	t.Helper()
	var out [][]byte
	n := int64(0)
	for _, part := range parts {
		var buf bytes.Buffer
		j := detector.NewJournalAt(&buf, snap, n)
		for _, op := range part {
			require.NoError(t, writeOp(j, op))
		}
		n = j.Records()
		out = append(out, buf.Bytes())
	}
	return out
}

// TestJournalGaps replays journals that do not continue the state they
// are replayed onto: each is refused with ErrJournalGap, naming the gap,
// after applying only the records before it.
func TestJournalGaps(t *testing.T) {
	const snap = detector.SnapshotID(0x5eed)
	segs := segments(t, snap, ops[:2], ops[2:5], ops[5:])
	whole, ends := journalAt(t, snap, ops)
	plain, _ := journalAt(t, 0, ops)
	for _, c := range []struct {
		name    string
		journal []byte
		after   detector.SnapshotID
		applied int
		msg     string
	}{
		{"a file that lost its start", whole[ends[2]:], snap, 0, "the journal starts with record 2 without its segment header: records 0 to 1 are missing"},
		{"a file that lost its header", whole[20:], snap, 0, "the journal starts with record 0 without its segment header, which names the snapshot it continues"},
		{"first segment lost", cat(segs[1], segs[2]), snap, 0, "starts at record 2: records 0 to 1 are missing"},
		{"middle segment lost", cat(segs[0], segs[2]), snap, 2, "starts at record 5: records 2 to 4 are missing"},
		{"a segment twice", cat(segs[0], segs[1], segs[1]), snap, 5, "starts at record 2: record 2 was applied already (5 records are)"},
		{"another snapshot", cat(segs...), snap + 1, 0, "the journal continues snapshot 0000000000005eed, the detector holds snapshot 0000000000005eee"},
		{"a snapshot for a fresh detector", cat(segs...), 0, 0, "the journal continues snapshot 0000000000005eed, the detector holds no snapshot"},
		{"no snapshot for a loaded one", plain, snap, 0, "the journal continues no snapshot, the detector holds snapshot 0000000000005eed"},
		{"segments of two snapshots", cat(segs[0], segments(t, snap+1, ops[:2], ops[2:5])[1]), snap, 2, "continues snapshot 0000000000005eee, the segments before it snapshot 0000000000005eed"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var l log
			st, err := detector.ReplayContext(context.Background(), bytes.NewReader(c.journal), &l, c.after)
			require.ErrorIs(t, err, detector.ErrJournalGap)
			assert.NotErrorIs(t, err, detector.ErrJournal, "the journal is intact")
			assert.ErrorContains(t, err, c.msg)
			assert.Equal(t, ops[:c.applied], append([]string{}, l.ops...))
			assert.Equal(t, int64(c.applied), st.Records())
		})
	}
	// Whole, the segments replay; Replay, which does not know the
	// snapshot, still finds a lost segment.
	var l log
	st, err := detector.ReplayContext(context.Background(), bytes.NewReader(cat(segs...)), &l, snap)
	require.NoError(t, err)
	assert.Equal(t, ops, l.ops)
	assert.Equal(t, detector.Replayed{Adds: 6, Removes: 1, Expires: 1, Offset: int64(len(cat(segs...))), Snapshot: snap}, st)
	st, err = detector.Replay(bytes.NewReader(cat(segs[0], segs[2])), &log{}, 0)
	assert.ErrorIs(t, err, detector.ErrJournalGap)
	assert.Equal(t, 2, st.Adds)
	st, err = detector.Replay(bytes.NewReader(cat(segs...)), &log{}, 0)
	require.NoError(t, err)
	assert.Equal(t, snap, st.Snapshot)
}

// TestJournalFailedWrite: a record whose Write failed keeps its number,
// so the journal that goes on has a hole that Replay reports.
func TestJournalFailedWrite(t *testing.T) {
	var buf bytes.Buffer
	w := &flakyWriter{w: &buf, fail: 2}
	j := detector.NewJournalAt(w, 7, 0)
	for i, op := range ops[:4] {
		err := writeOp(j, op)
		if i == 1 {
			require.ErrorContains(t, err, "disk full")
		} else {
			require.NoError(t, err)
		}
	}
	assert.Equal(t, int64(4), j.Records())
	var l log
	st, err := detector.ReplayContext(context.Background(), &buf, &l, 7)
	require.ErrorIs(t, err, detector.ErrJournalGap)
	assert.ErrorContains(t, err, "is number 2: record 1 is missing")
	assert.Equal(t, 1, st.Adds)
}

// flakyWriter fails its fail-th Write.
type flakyWriter struct {
	w    *bytes.Buffer
	n    int
	fail int
}

func (f *flakyWriter) Write(b []byte) (int, error) {
	f.n++
	if f.n == f.fail {
		return 0, fmt.Errorf("disk full")
	}
	return f.w.Write(b)
}

// journalAt journals ops for snapshot snap, returning the bytes and the
// end of each record.
func journalAt(t testing.TB, snap detector.SnapshotID, ops []string) ([]byte, []int) {
	t.Helper()
	var buf bytes.Buffer
	j := detector.NewJournalAt(&buf, snap, 0)
	ends := []int{0}
	for _, op := range ops {
		require.NoError(t, writeOp(j, op))
		ends = append(ends, buf.Len())
	}
	return buf.Bytes(), ends
}

func cat(parts ...[]byte) []byte { return bytes.Join(parts, nil) }

// TestJournalRestart is a service's restart: a snapshot, a journal in two
// files, a new process that loads the snapshot and replays the journal,
// then goes on journalling; and the same restart with a file lost, or the
// journal of a later snapshot, refused.
func TestJournalRestart(t *testing.T) {
	docs := testDocs(30)
	d := naive.New(naive.Config{})
	for _, doc := range docs[:10] {
		_, err := d.Add(doc)
		require.NoError(t, err)
	}
	var snap bytes.Buffer
	id, n, err := detector.WriteSnapshot(d, &snap)
	require.NoError(t, err)
	assert.Equal(t, int64(snap.Len()), n)
	assert.NotZero(t, id)
	var files [2]bytes.Buffer
	j := detector.NewJournalAt(&files[0], id, 0)
	for i, doc := range docs[10:20] {
		if i == 5 { // the service starts a new file
			j = detector.NewJournalAt(&files[1], id, j.Records())
		}
		_, err := d.Add(doc)
		require.NoError(t, err)
		require.NoError(t, j.Add(doc))
	}
	// A later snapshot and its journal.
	var later bytes.Buffer
	laterID, _, err := detector.WriteSnapshot(d, &later)
	require.NoError(t, err)
	var laterJournal bytes.Buffer
	require.NoError(t, detector.NewJournalAt(&laterJournal, laterID, 0).Add(docs[20]))

	restart := func(journal []byte) (*naive.Detector, detector.Replayed, error) {
		r := naive.New(naive.Config{})
		got, _, err := detector.ReadSnapshot(context.Background(), r, bytes.NewReader(snap.Bytes()))
		require.NoError(t, err)
		require.Equal(t, id, got, "the ID of the snapshot read is the one written")
		st, err := detector.ReplayContext(context.Background(), bytes.NewReader(journal), r, got)
		return r, st, err
	}
	r, st, err := restart(cat(files[0].Bytes(), files[1].Bytes()))
	require.NoError(t, err)
	assert.Equal(t, 20, r.Len())
	sameAnswers(t, d, r, docs[:20])
	// It goes on with the journal where the replay ended.
	more := bytes.NewBuffer(cat(files[0].Bytes(), files[1].Bytes()))
	j = detector.NewJournalAt(more, st.Snapshot, st.Records())
	require.NoError(t, j.Add(docs[20]))
	r, _, err = restart(more.Bytes())
	require.NoError(t, err)
	assert.Equal(t, 21, r.Len())

	r, _, err = restart(files[1].Bytes())
	require.ErrorIs(t, err, detector.ErrJournalGap)
	assert.ErrorContains(t, err, "records 0 to 4 are missing")
	assert.Equal(t, 10, r.Len(), "nothing replayed")
	r, _, err = restart(laterJournal.Bytes())
	require.ErrorIs(t, err, detector.ErrJournalGap)
	assert.ErrorContains(t, err, fmt.Sprintf("the journal continues %v, the detector holds %v", laterID, id))
	assert.Equal(t, 10, r.Len(), "nothing replayed")
}

// sameAnswers requires two detectors to answer Containers alike.
func sameAnswers(t *testing.T, want, got detector.Detector, docs []detector.Doc) {
	t.Helper()
	for _, doc := range docs {
		a, err := want.Containers(doc.ID)
		require.NoError(t, err)
		b, err := got.Containers(doc.ID)
		require.NoError(t, err)
		assert.Equal(t, a, b, "Containers(%q)", doc.ID)
	}
}

// testDocs returns n documents, the odd ones containing the one before.
func testDocs(n int) []detector.Doc {
	docs := make([]detector.Doc, n)
	for i := range docs {
		text := fmt.Sprintf("story %d: the council of town %d approved budget %d after a debate on schools", i, i, i*7)
		if i%2 == 1 {
			text = "briefing: " + docs[i-1].Text + " and the weather"
		}
		docs[i] = detector.Doc{ID: fmt.Sprintf("d%02d", i), Text: text}
	}
	return docs
}

// TestJournalFormatV1 replays a journal written by the previous format
// (testdata/journal.v1, written before version 2): its records apply, it is
// taken to continue whatever snapshot the caller names, and a journal
// appended to after the upgrade replays whole.
func TestJournalFormatV1(t *testing.T) {
	v1, err := os.ReadFile(filepath.Join("testdata", "journal.v1"))
	require.NoError(t, err)
	var buf bytes.Buffer
	j := detector.NewJournal(&buf)
	for _, op := range ops {
		require.NoError(t, writeOp(j, op))
	}
	require.Equal(t, v1, buf.Bytes(), "the test's format 1 writer writes the golden file")

	var l log
	st, err := detector.Replay(bytes.NewReader(v1), &l, 0)
	require.NoError(t, err)
	assert.Equal(t, ops, l.ops)
	assert.Equal(t, detector.Replayed{Adds: 6, Removes: 1, Expires: 1, Offset: int64(len(v1))}, st)

	l = log{}
	st, err = detector.ReplayContext(context.Background(), bytes.NewReader(v1), &l, 42)
	require.NoError(t, err)
	assert.Equal(t, ops, l.ops)
	assert.Equal(t, detector.SnapshotID(42), st.Snapshot)

	// The upgraded service goes on with the same file.
	upgraded := bytes.NewBuffer(bytes.Clone(v1))
	j = detector.NewJournalAt(upgraded, st.Snapshot, st.Records())
	require.NoError(t, j.Remove("c3"))
	l = log{}
	st, err = detector.ReplayContext(context.Background(), bytes.NewReader(upgraded.Bytes()), &l, 42)
	require.NoError(t, err)
	assert.Equal(t, append(append([]string{}, ops...), "R c3"), l.ops)
	assert.Equal(t, int64(len(ops)+1), st.Records())
	_, err = detector.ReplayContext(context.Background(), bytes.NewReader(upgraded.Bytes()), &log{}, 43)
	assert.ErrorIs(t, err, detector.ErrJournalGap, "the new segment names its snapshot")
	// A format 1 record after a format 2 header is not read as one.
	_, err = detector.Replay(bytes.NewReader(cat(segments(t, 1, ops[:1])[0], v1)), &log{}, 0)
	assert.ErrorIs(t, err, detector.ErrJournal)
}

// TestJournalHeaderTorn: a header whose record was cut off is torn with
// it, and a header of an unknown version is refused.
func TestJournalHeaderTorn(t *testing.T) {
	seg := segments(t, 5, ops[:1])[0]
	// The header alone: 20 bytes (mark, op, version, snapshot, seq, sum).
	st, err := detector.Replay(bytes.NewReader(seg[:20]), &log{}, 0)
	require.NoError(t, err)
	assert.Equal(t, detector.Replayed{Torn: 20}, st)
	future := bytes.Clone(seg)
	future[2] = 3 // version 3, with its checksum
	binary.LittleEndian.PutUint64(future[12:20], xxh3.Hash(future[1:12]))
	_, err = detector.Replay(bytes.NewReader(future), &log{}, 0)
	assert.ErrorIs(t, err, detector.ErrJournal)
	assert.ErrorContains(t, err, "journal format version 3")
}

// TestReplayTextOverTheLimit: a restarted detector whose MaxTextBytes is
// lower than the one the journal was written under applies the journal's
// records anyway, directly and through a Window, while callers stay
// limited; a text over DefaultMaxTextBytes is no reason to call a journal
// corrupt.
func TestReplayTextOverTheLimit(t *testing.T) {
	long := detector.Doc{ID: "long", Text: strings.Repeat("the council approved the budget after a long debate ", 40)}
	short := detector.Doc{ID: "short", Text: "the council approved the budget after a long debate"}
	var buf bytes.Buffer
	j := detector.NewJournalAt(&buf, 0, 0)
	orig, err := minhash.New(minhash.Config{})
	require.NoError(t, err)
	for _, doc := range []detector.Doc{long, short} {
		_, err := orig.Add(doc)
		require.NoError(t, err)
		require.NoError(t, j.Add(doc))
	}
	restarted, err := minhash.New(minhash.Config{MaxTextBytes: 1000})
	require.NoError(t, err)
	_, err = detector.Replay(bytes.NewReader(buf.Bytes()), restarted, 1000)
	require.NoError(t, err)
	assert.Equal(t, 2, restarted.Len())
	sameAnswers(t, orig, restarted, []detector.Doc{long, short})
	_, err = restarted.Add(detector.Doc{ID: "again", Text: long.Text})
	assert.ErrorIs(t, err, detector.ErrTooLarge, "a caller's text is still limited")

	var wbuf bytes.Buffer
	j = detector.NewJournal(&wbuf)
	require.NoError(t, j.AddAt(long, 1))
	inner, err := minhash.New(minhash.Config{MaxTextBytes: 1000})
	require.NoError(t, err)
	w := window(t, inner, detector.WindowConfig{Size: 10})
	st, err := detector.Replay(bytes.NewReader(wbuf.Bytes()), w, 0)
	require.NoError(t, err)
	assert.Equal(t, 1, st.Adds)
	assert.Equal(t, 1, inner.Len())

	// 5 MiB, over DefaultMaxTextBytes: written by a detector with a higher
	// limit, an intact journal.
	huge := detector.Doc{ID: "huge", Text: strings.Repeat("x", 5<<20)}
	for _, newJournal := range []func(*bytes.Buffer) *detector.Journal{
		func(b *bytes.Buffer) *detector.Journal { return detector.NewJournal(b) },
		func(b *bytes.Buffer) *detector.Journal { return detector.NewJournalAt(b, 0, 0) },
	} {
		var hbuf bytes.Buffer
		require.NoError(t, newJournal(&hbuf).Add(huge))
		var l log
		st, err = detector.Replay(bytes.NewReader(hbuf.Bytes()), &l, 0)
		require.NoError(t, err)
		assert.Equal(t, detector.Replayed{Adds: 1, Offset: int64(hbuf.Len())}, st)
		require.Len(t, l.ops, 1)
		assert.Equal(t, "A huge "+huge.Text, l.ops[0])
		// Cut anywhere in the text, it is a torn tail, not an error.
		for _, cut := range []int{hbuf.Len() - 1, 3 << 20, 1 << 20, 100} {
			st, err = detector.Replay(bytes.NewReader(hbuf.Bytes()[:cut]), &log{}, 0)
			require.NoError(t, err, "cut at %d", cut)
			assert.Equal(t, int64(cut), st.Torn)
		}
	}
}
