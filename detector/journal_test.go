package detector_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/naive"
)

// log is a detector that records the operations applied to it.
type log struct{ ops []string }

func (l *log) Add(d detector.Doc) ([]detector.Match, error) {
	l.ops = append(l.ops, "A "+d.ID+" "+d.Text)
	return nil, nil
}
func (l *log) Containers(string) ([]detector.Match, error) { return nil, nil }
func (l *log) Remove(id string) error                      { l.ops = append(l.ops, "R "+id); return nil }
func (l *log) Close() error                                { return nil }
func (l *log) AddAt(d detector.Doc, pos int64) ([]detector.Match, error) {
	l.ops = append(l.ops, fmt.Sprintf("P %d %s %s", pos, d.ID, d.Text))
	return nil, nil
}
func (l *log) ExpireBefore(pos int64) (int, error) {
	l.ops = append(l.ops, fmt.Sprintf("X %d", pos))
	return 0, nil
}

// addOnly cannot remove.
type addOnly struct{ log }

func (a *addOnly) Remove() {}

func journalOf(t *testing.T, ops []string) ([]byte, []int) {
	t.Helper()
	var buf bytes.Buffer
	j := detector.NewJournal(&buf)
	ends := []int{0}
	for _, op := range ops {
		require.NoError(t, writeOp(j, op))
		ends = append(ends, buf.Len())
	}
	return buf.Bytes(), ends
}

// writeOp journals one operation written as log writes it.
func writeOp(j *detector.Journal, op string) error {
	var id string
	var pos int64
	switch op[0] {
	case 'P':
		if _, err := fmt.Sscanf(op[2:], "%d %s", &pos, &id); err != nil {
			return err
		}
		return j.AddAt(detector.Doc{ID: id, Text: op[len(fmt.Sprintf("P %d %s ", pos, id)):]}, pos)
	case 'X':
		if _, err := fmt.Sscanf(op[2:], "%d", &pos); err != nil {
			return err
		}
		return j.ExpireBefore(pos)
	}
	if _, err := fmt.Sscanf(op[2:], "%s", &id); err != nil {
		return err
	}
	if op[0] == 'A' {
		return j.Add(detector.Doc{ID: id, Text: op[2+len(id)+1:]})
	}
	return j.Remove(id)
}

var ops = []string{
	"A a1 The council approved the budget on Monday.",
	"A b2 Spending on schools rises by four percent. ✓ ünicode",
	"R a1",
	"A a1 " + string(bytes.Repeat([]byte("long text "), 100)),
	"A c3 ",
	"P -300 p4 at a negative position",
	"X -299",
	"P 1234567890123 p5 ",
}

func TestJournalRoundTrip(t *testing.T) {
	data, _ := journalOf(t, ops)
	var l log
	st, err := detector.Replay(bytes.NewReader(data), &l, 0)
	require.NoError(t, err)
	assert.Equal(t, ops, l.ops)
	assert.Equal(t, detector.Replayed{Adds: 6, Removes: 1, Expires: 1, Offset: int64(len(data))}, st)
}

// A Window rebuilt from the journal of its AddAt and ExpireBefore calls
// holds the same documents and evicts the same ones.
func TestJournalRebuildsAWindow(t *testing.T) {
	var buf bytes.Buffer
	j := detector.NewJournal(&buf)
	var ev1, ev2 evictions
	orig := window(t, naive.New(naive.Config{}), detector.WindowConfig{Size: 3, OnEvict: ev1.hook})
	for i, id := range []string{"a", "b", "c", "d", "e"} {
		d := detector.Doc{ID: id, Text: unique(id)}
		_, err := orig.AddAt(d, int64(10*i))
		require.NoError(t, err)
		require.NoError(t, j.AddAt(d, int64(10*i)))
	}
	_, err := orig.ExpireBefore(30)
	require.NoError(t, err)
	require.NoError(t, j.ExpireBefore(30))
	rebuilt := window(t, naive.New(naive.Config{}), detector.WindowConfig{Size: 3, OnEvict: ev2.hook})
	st, err := detector.Replay(bytes.NewReader(buf.Bytes()), rebuilt, 0)
	require.NoError(t, err)
	assert.Equal(t, detector.Replayed{Adds: 5, Expires: 1, Offset: int64(buf.Len())}, st)
	assert.Equal(t, ev1.take(), ev2.take())
	assert.Equal(t, orig.Len(), rebuilt.Len())
	_, err = rebuilt.AddAt(detector.Doc{ID: "f", Text: unique("f")}, 39)
	assert.ErrorIs(t, err, detector.ErrOutOfOrder, "the latest position is 40 in both")
	// A detector that is not a window cannot replay them.
	_, err = detector.Replay(bytes.NewReader(buf.Bytes()), naive.New(naive.Config{}), 0)
	assert.ErrorIs(t, err, errors.ErrUnsupported)
}

// TestJournalRebuildsADetector: a detector rebuilt from the journal of
// another answers like it.
func TestJournalRebuildsADetector(t *testing.T) {
	var buf bytes.Buffer
	j := detector.NewJournal(&buf)
	orig := naive.New(naive.Config{})
	story := "the city council approved the new budget on monday after a long debate about schools and buses"
	docs := []detector.Doc{{ID: "s", Text: story}, {ID: "r", Text: "briefing " + story + " and sport"}, {ID: "x", Text: "unrelated words about weather and rain today"}}
	for _, d := range docs {
		_, err := orig.Add(d)
		require.NoError(t, err)
		require.NoError(t, j.Add(d))
	}
	require.NoError(t, orig.Remove("x"))
	require.NoError(t, j.Remove("x"))
	rebuilt := naive.New(naive.Config{})
	_, err := detector.Replay(&buf, rebuilt, 0)
	require.NoError(t, err)
	for _, id := range []string{"s", "r"} {
		want, err := orig.Containers(id)
		require.NoError(t, err)
		got, err := rebuilt.Containers(id)
		require.NoError(t, err)
		assert.Equal(t, want, got, id)
	}
	_, err = rebuilt.Containers("x")
	assert.ErrorIs(t, err, detector.ErrUnknownID)
}

// formats returns the journal of ops in each format: 1 (NewJournal) and 2
// (NewJournalAt), with the end of each record.
func formats(t *testing.T) []struct {
	name string
	data []byte
	ends []int
} {
	v1, ends1 := journalOf(t, ops)
	v2, ends2 := journalAt(t, 0x5eed, ops)
	return []struct {
		name string
		data []byte
		ends []int
	}{{"format 1", v1, ends1}, {"format 2", v2, ends2}}
}

// TestJournalTornTail cuts the journal at every length: the whole records
// before the cut are applied, the rest is reported torn, and nothing is an
// error.
func TestJournalTornTail(t *testing.T) {
	for _, f := range formats(t) {
		data, ends := f.data, f.ends
		for cut := range len(data) + 1 {
			var l log
			st, err := detector.Replay(bytes.NewReader(data[:cut]), &l, 0)
			require.NoError(t, err, "%s: cut at %d", f.name, cut)
			whole := 0
			for whole+1 < len(ends) && ends[whole+1] <= cut {
				whole++
			}
			assert.Equal(t, ops[:whole], append([]string{}, l.ops...), "%s: cut at %d", f.name, cut)
			assert.Equal(t, int64(ends[whole]), st.Offset)
			assert.Equal(t, int64(cut-ends[whole]), st.Torn)
		}
	}
}

// TestJournalNeverMisreads changes every byte of a journal: what Replay
// applies is always a prefix of the true operations, and a damaged record
// before the last is an ErrJournal error.
func TestJournalNeverMisreads(t *testing.T) {
	for _, f := range formats(t) {
		data, ends := f.data, f.ends
		for i := range data {
			for _, x := range []byte{0x01, 0x80, 0xff} {
				bad := bytes.Clone(data)
				bad[i] ^= x
				var l log
				st, err := detector.Replay(bytes.NewReader(bad), &l, 0)
				require.LessOrEqual(t, len(l.ops), len(ops))
				require.Equal(t, ops[:len(l.ops)], append([]string{}, l.ops...), "%s: byte %d ^ %#x: an applied record differs from the written one", f.name, i, x)
				if i < ends[len(ends)-2] {
					require.ErrorIs(t, err, detector.ErrJournal, "%s: byte %d ^ %#x in an inner record (read %+v)", f.name, i, x, st)
				}
			}
		}
	}
}

func TestJournalRejects(t *testing.T) {
	rec := func(b ...byte) []byte { return b }
	for _, c := range []struct {
		name string
		data []byte
	}{
		{"bad mark", rec(0x00, 'A')},
		{"bad kind", rec(0xA7, 'Z', 1, 'a')},
		{"non-canonical length", rec(0xA7, 'R', 0x81, 0x00, 'a', 0, 0, 0, 0, 0, 0, 0, 0)},
		{"length over 64 bits", rec(0xA7, 'R', 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f)},
		{"huge text", binary.AppendUvarint(rec(0xA7, 'A', 1, 'a'), 1<<40)},
		{"empty ID", rec(0xA7, 'R', 0, 0, 0, 0, 0, 0, 0, 0, 0)},
	} {
		var l log
		_, err := detector.Replay(bytes.NewReader(c.data), &l, 1<<20)
		assert.ErrorIs(t, err, detector.ErrJournal, c.name)
		assert.Empty(t, l.ops, c.name)
	}
}

func TestJournalErrors(t *testing.T) {
	j := detector.NewJournal(failWriter{})
	assert.ErrorIs(t, j.Add(detector.Doc{Text: "x"}), detector.ErrEmptyID)
	assert.ErrorIs(t, j.Remove(string(make([]byte, 2<<20))), detector.ErrTooLarge)
	assert.ErrorContains(t, j.Add(detector.Doc{ID: "a"}), "disk full")

	data, _ := journalOf(t, ops)
	_, err := detector.Replay(bytes.NewReader(data), &addOnly{}, 0)
	assert.ErrorIs(t, err, errors.ErrUnsupported, "a remove record for a detector that cannot remove")

	d := naive.New(naive.Config{})
	data, _ = journalOf(t, []string{"A a x", "A a y"})
	st, err := detector.Replay(bytes.NewReader(data), d, 0)
	assert.ErrorIs(t, err, detector.ErrDuplicateID, "the detector's own error")
	assert.Equal(t, 1, st.Adds)
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func FuzzReplay(f *testing.F) {
	data, _ := journalOf(&testing.T{}, ops)
	f.Add(data)
	f.Add(data[:len(data)/2])
	f.Add([]byte{0xA7, 'A', 0x81, 0x00})
	if v1, err := os.ReadFile(filepath.Join("testdata", "journal.v1")); err == nil {
		f.Add(v1)
	}
	f.Add(bytes.Join(segments(&testing.T{}, 99, ops[:3], ops[3:]), nil))
	v2, _ := journalAt(&testing.T{}, 99, ops)
	f.Add(v2)
	f.Fuzz(func(t *testing.T, b []byte) {
		var l log
		st, err := detector.Replay(bytes.NewReader(b), &l, 1<<16)
		if err == nil && st.Offset+st.Torn != int64(len(b)) {
			t.Fatalf("read %d+%d of %d bytes without an error", st.Offset, st.Torn, len(b))
		}
		// Whole records re-encode to the same bytes: those of format 1,
		// or of one segment of format 2 (the next segment's header would
		// need the offset where it starts).
		var buf bytes.Buffer
		headers := detector.JournalHeaders(b[:st.Offset])
		j := detector.NewJournal(&buf)
		if len(b) > 1 && b[1] == 'J' {
			j = detector.NewJournalAt(&buf, st.Snapshot, 0)
		} else if headers > 0 {
			return // format 1 records, then a segment of format 2
		}
		for _, op := range l.ops {
			_ = writeOp(j, op)
		}
		if err == nil && headers <= 1 && !bytes.Equal(buf.Bytes(), b[:st.Offset]) {
			t.Fatalf("records do not re-encode to the bytes read")
		}
	})
}

// errReader fails after the bytes it holds.
type errReader struct{ b []byte }

func (r *errReader) Read(p []byte) (int, error) {
	if len(r.b) == 0 {
		return 0, errors.New("network down")
	}
	n := copy(p, r.b)
	r.b = r.b[n:]
	return n, nil
}

func TestJournalReadErrorIsNotTorn(t *testing.T) {
	data, ends := journalOf(t, ops)
	var l log
	_, err := detector.Replay(&errReader{b: data[:ends[1]+3]}, &l, 0)
	assert.ErrorContains(t, err, "network down", "a read error inside a record is reported, not taken for a torn tail")
	assert.Len(t, l.ops, 1)
}
