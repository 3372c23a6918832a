package testkit

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/dataset"
	"github.com/seed-9ef9c1df/neardup/internal/snapshot"
)

// Snapshotter is a detector that persists, answers Queries and lists its
// exact copies: what the snapshot and Query checks of this package drive.
type Snapshotter interface {
	Detector
	detector.Persister
	detector.Querier
	detector.CopyLister
}

// Op is one step of a stream: Add the document ID with Text, or Remove
// ID.
type Op struct {
	ID, Text string
	Remove   bool
}

// Encode returns the snapshot of d and requires WriteTo to count its
// bytes right.
func Encode(t testing.TB, d detector.Persister) []byte {
	t.Helper()
	var b bytes.Buffer
	n, err := d.WriteTo(&b)
	if err != nil {
		t.Fatalf("WriteTo: %v", err)
	}
	if n != int64(b.Len()) {
		t.Fatalf("WriteTo returned %d for %d bytes", n, b.Len())
	}
	return b.Bytes()
}

// Load reads snap into d, requires ReadFrom to succeed and count every
// byte, and returns d.
func Load[D detector.Persister](t testing.TB, d D, snap []byte) D {
	t.Helper()
	n, err := d.ReadFrom(bytes.NewReader(snap))
	if err != nil {
		t.Fatalf("ReadFrom: %v", err)
	}
	if n != int64(len(snap)) {
		t.Fatalf("ReadFrom returned %d for %d bytes", n, len(snap))
	}
	return d
}

// Apply runs ops on d and returns each Add's matches (nil for a Remove).
func Apply(t testing.TB, d Detector, ops []Op) [][]detector.Match {
	t.Helper()
	out := make([][]detector.Match, len(ops))
	for i, o := range ops {
		if o.Remove {
			if err := d.Remove(o.ID); err != nil {
				t.Fatalf("Remove(%s): %v", o.ID, err)
			}
			continue
		}
		ms, err := d.Add(detector.Doc{ID: o.ID, Text: o.Text})
		if err != nil {
			t.Fatalf("Add(%s): %v", o.ID, err)
		}
		out[i] = ms
	}
	return out
}

// equal fails t unless got equals want.
func equal(t testing.TB, want, got any, format string, args ...any) {
	t.Helper()
	if !reflect.DeepEqual(want, got) {
		t.Fatalf("%s:\nwant %v\n got %v", fmt.Sprintf(format, args...), want, got)
	}
}

// SameLookups requires a and b to count alike and to answer Containers,
// Copies and a Query of its text (under no ID) alike for every document
// of ops that is live at the end of ops; same, when not nil, adds the
// checks of one package for each of them.
func SameLookups[D Snapshotter](t testing.TB, a, b D, ops []Op, same func(a, b D, id, text string)) {
	t.Helper()
	equal(t, a.Len(), b.Len(), "Len")
	text := map[string]string{}
	for _, o := range ops {
		if o.Remove {
			delete(text, o.ID)
		} else {
			text[o.ID] = o.Text
		}
	}
	for id, tx := range text {
		sameAnswer(t, a, b, func(d D) ([]detector.Match, error) { return d.Containers(id) }, fmt.Sprintf("Containers(%s)", id))
		sameAnswer(t, a, b, func(d D) ([]string, error) { return d.Copies(id) }, fmt.Sprintf("Copies(%s)", id))
		sameAnswer(t, a, b, func(d D) ([]detector.Match, error) { return d.Query(detector.Doc{Text: tx}) }, fmt.Sprintf("Query of %s's text", id))
		if same != nil {
			same(a, b, id, tx)
		}
	}
}

// sameAnswer requires look to give a and b, the detector loaded from a's
// snapshot, equal answers; what names the lookup in failures.
func sameAnswer[D, R any](t testing.TB, a, b D, look func(D) (R, error), what string) {
	t.Helper()
	ra, err := look(a)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	rb, err := look(b)
	if err != nil {
		t.Fatalf("%s after the load: %v", what, err)
	}
	equal(t, ra, rb, "%s", what)
}

// RoundTrip snapshots a detector after the first two thirds of ops, loads
// the snapshot into a second one made by build, and requires the loaded
// snapshot to re-encode to the same bytes, both detectors to answer the
// rest of ops alike, to answer every lookup of SameLookups alike (with
// same) before and after it, and to write byte-identical snapshots at the
// end. It returns the two detectors and the first snapshot.
func RoundTrip[D Snapshotter](t *testing.T, build func() D, ops []Op, same func(a, b D, id, text string)) (a, b D, snap []byte) {
	t.Helper()
	cut := len(ops) * 2 / 3
	a = build()
	Apply(t, a, ops[:cut])
	snap = Encode(t, a)
	b = Load(t, build(), snap)
	if !bytes.Equal(snap, Encode(t, b)) {
		t.Fatal("re-encoding a loaded snapshot gives other bytes")
	}
	SameLookups(t, a, b, ops[:cut], same)
	equal(t, Apply(t, a, ops[cut:]), Apply(t, b, ops[cut:]), "answers after the load")
	SameLookups(t, a, b, ops, same)
	if !bytes.Equal(Encode(t, a), Encode(t, b)) {
		t.Fatal("the snapshots at the end differ")
	}
	return a, b, snap
}

// Damage reads every truncation of snap, snap with a byte after it, and
// every change of one byte of it (xor 0x01, 0x80 and 0xff with
// NEARDUP_LONG; without it, one of the three in turn) into d: each must
// fail with [detector.ErrSnapshot] and leave d empty (Len 0, and whatever
// empty checks besides, when not nil). Then the intact snap must load
// into d, which Damage returns.
func Damage[D Snapshotter](t *testing.T, d D, snap []byte, empty func(what string)) D {
	t.Helper()
	check := func(bad []byte, what string) {
		t.Helper()
		_, err := d.ReadFrom(bytes.NewReader(bad))
		if !errors.Is(err, detector.ErrSnapshot) {
			t.Fatalf("%s: ReadFrom = %v, want ErrSnapshot", what, err)
		}
		if n := d.Len(); n != 0 {
			t.Fatalf("%s: %d documents after a rejected snapshot", what, n)
		}
		if empty != nil {
			empty(what)
		}
	}
	for n := range len(snap) {
		check(snap[:n], fmt.Sprintf("truncated to %d bytes", n))
	}
	check(append(bytes.Clone(snap), 0), "a byte after the trailer")
	masks := []byte{0x01, 0x80, 0xff}
	for i := range snap {
		for j, x := range masks {
			if !dataset.LongEnabled() && j != i%len(masks) {
				continue // the default run flips each byte one way, in turn
			}
			bad := bytes.Clone(snap)
			bad[i] ^= x
			check(bad, fmt.Sprintf("byte %d ^ %#x", i, x))
		}
	}
	return Load(t, d, snap)
}

// Golden compares snap with the checked-in snapshot at path, which update
// rewrites first, and returns the stored bytes: a change of the encoding
// of the same documents must be deliberate (a new layout version).
func Golden(t *testing.T, path string, snap []byte, update bool) []byte {
	t.Helper()
	if update {
		if err := os.WriteFile(path, snap, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s (%d bytes)", path, len(snap))
	}
	stored, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(stored, snap) {
		t.Fatalf("the encoding of the same documents has changed (%d bytes, %s holds %d): a new layout needs a new KindVersion", len(snap), path, len(stored))
	}
	return stored
}

// ConcurrentSnapshot writes ten snapshots of d while two goroutines add
// texts (IDs "g0-i", "g1-i") and remove every third: each snapshot must
// load into fresh() and re-encode to the same bytes (whole documents
// only); loaded, when not nil, checks the loaded detector further.
func ConcurrentSnapshot[D Snapshotter](t *testing.T, d D, texts []string, fresh func() D, loaded func(e D)) {
	t.Helper()
	var wg sync.WaitGroup
	for g := range 2 {
		wg.Go(func() {
			for i, text := range texts {
				id := fmt.Sprintf("g%d-%d", g, i)
				if _, err := d.Add(detector.Doc{ID: id, Text: text}); err != nil {
					t.Error(err)
					return
				}
				if i%3 == 0 {
					if err := d.Remove(id); err != nil {
						t.Error(err)
						return
					}
				}
			}
		})
	}
	defer wg.Wait()
	for range 10 {
		snap := Encode(t, d)
		e := Load(t, fresh(), snap)
		if !bytes.Equal(snap, Encode(t, e)) {
			t.Fatal("a snapshot taken during Adds does not re-encode to the same bytes")
		}
		if loaded != nil {
			loaded(e)
		}
	}
}

// QueryChangesNothing runs ops on plain and on probed, which answers
// Queries before every step: of the document added last under its own ID
// (which must equal its Containers when that ID is live and containers is
// set: a detector whose analysis changes with what it holds may answer
// otherwise), of probe(step),
// and of the next document under its ID and under none, both of which
// must equal the Add that follows. The Adds of both detectors must agree,
// and so must their lengths throughout and their snapshots at the end.
func QueryChangesNothing[D Snapshotter](t *testing.T, plain, probed D, ops []Op, probe func(step int) string, containers bool) {
	t.Helper()
	var last detector.Doc
	for step, o := range ops {
		query := func(doc detector.Doc) []detector.Match {
			t.Helper()
			ms, err := probed.Query(doc)
			if err != nil {
				t.Fatalf("step %d: Query: %v", step, err)
			}
			return ms
		}
		if last.ID != "" {
			q := query(last)
			if c, err := probed.Containers(last.ID); err == nil && containers {
				equal(t, c, q, "step %d: Query of a live document under its ID is its Containers", step)
			}
		}
		query(detector.Doc{Text: probe(step)})
		if o.Remove {
			Apply(t, plain, ops[step:step+1])
			Apply(t, probed, ops[step:step+1])
			continue
		}
		doc := detector.Doc{ID: o.ID, Text: o.Text}
		q := query(doc)
		anon := query(detector.Doc{Text: o.Text})
		a := Apply(t, probed, ops[step:step+1])[0]
		equal(t, a, q, "step %d: Query agrees with the Add after it", step)
		equal(t, a, anon, "step %d: Query with an empty ID agrees with the Add after it", step)
		equal(t, Apply(t, plain, ops[step:step+1])[0], a, "step %d: Queries changed a later Add", step)
		equal(t, plain.Len(), probed.Len(), "step %d: Len", step)
		last = doc
	}
	if !bytes.Equal(Encode(t, plain), Encode(t, probed)) {
		t.Fatal("the snapshots after the stream differ: Queries changed the state")
	}
}

// ConcurrentQueryAdd adds texts to d from two goroutines (IDs "g0-i",
// "g1-i") while two others Query the same texts under IDs "probe…" that
// no Add uses: no answer may ever report a probe. Then it adds the same
// documents to seq one by one and requires the same Len, and, when
// containers is set (the answers do not depend on the order of the Adds),
// the same Containers of every document.
func ConcurrentQueryAdd[D Snapshotter](t *testing.T, d, seq D, texts []string, containers bool) {
	t.Helper()
	probe := func(ms []detector.Match) {
		for _, m := range ms {
			if strings.HasPrefix(m.ID, "probe") {
				t.Errorf("a Query's document %s was reported", m.ID)
			}
		}
	}
	var wg sync.WaitGroup
	for g := range 4 { // two goroutines add, two query
		call, prefix := d.Add, "g"
		if g >= 2 {
			call, prefix = d.Query, "probe"
		}
		wg.Go(func() {
			for i, text := range texts {
				ms, err := call(detector.Doc{ID: fmt.Sprintf("%s%d-%d", prefix, g%2, i), Text: text})
				if err != nil {
					t.Error(err)
					return
				}
				probe(ms)
			}
		})
	}
	wg.Wait()
	if t.Failed() {
		t.FailNow()
	}
	for g := range 2 {
		for i, text := range texts {
			if _, err := seq.Add(detector.Doc{ID: fmt.Sprintf("g%d-%d", g, i), Text: text}); err != nil {
				t.Fatal(err)
			}
		}
	}
	equal(t, seq.Len(), d.Len(), "Len after the concurrent Adds")
	if !containers {
		return
	}
	for g := range 2 {
		for i := range texts {
			sameContainers(t, d, seq, fmt.Sprintf("g%d-%d", g, i))
		}
	}
}

// Mismatch requires d, made with a Config whose field differs from the
// one snap was written with, to refuse snap with [detector.ErrSnapshot]
// and an error that names "Config."+field, and to stay empty.
func Mismatch(t *testing.T, d Snapshotter, snap []byte, field string) {
	t.Helper()
	_, err := d.ReadFrom(bytes.NewReader(snap))
	if !errors.Is(err, detector.ErrSnapshot) {
		t.Fatalf("%s: ReadFrom = %v, want ErrSnapshot", field, err)
	}
	if !strings.Contains(err.Error(), "Config."+field) {
		t.Errorf("%s: the error does not name the field: %v", field, err)
	}
	if n := d.Len(); n != 0 {
		t.Errorf("%s: %d documents after a refused snapshot", field, n)
	}
}

// NotEmpty requires d, which holds documents, to refuse snap with
// [detector.ErrSnapshot] and to keep what it holds.
func NotEmpty(t *testing.T, d Snapshotter, snap []byte) {
	t.Helper()
	n := d.Len()
	if n == 0 {
		t.Fatal("NotEmpty needs a detector that holds documents")
	}
	_, err := d.ReadFrom(bytes.NewReader(snap))
	if !errors.Is(err, detector.ErrSnapshot) {
		t.Fatalf("ReadFrom into a detector that is not empty = %v, want ErrSnapshot", err)
	}
	equal(t, n, d.Len(), "Len after a refused load")
}

// Closed closes d and requires ReadFrom of snap, WriteTo, a Query of text
// and Copies of id to fail with [detector.ErrClosed].
func Closed(t *testing.T, d Snapshotter, snap []byte, text, id string) {
	t.Helper()
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := d.ReadFrom(bytes.NewReader(snap)); !errors.Is(err, detector.ErrClosed) {
		t.Errorf("ReadFrom after Close = %v, want ErrClosed", err)
	}
	if _, err := d.WriteTo(&bytes.Buffer{}); !errors.Is(err, detector.ErrClosed) {
		t.Errorf("WriteTo after Close = %v, want ErrClosed", err)
	}
	if _, err := d.Query(detector.Doc{Text: text}); !errors.Is(err, detector.ErrClosed) {
		t.Errorf("Query after Close = %v, want ErrClosed", err)
	}
	if _, err := d.Copies(id); !errors.Is(err, detector.ErrClosed) {
		t.Errorf("Copies after Close = %v, want ErrClosed", err)
	}
}

// Read reads in into d, which is empty, for a fuzz test of ReadFrom: an
// input d refuses must fail with [detector.ErrSnapshot] and leave d empty
// (Len 0, and whatever empty checks besides, when not nil); one it
// accepts must re-encode to the same bytes, but for the call limits of
// the header's Config (MaxResults, MaxTextBytes), which bound calls, not
// state: a snapshot loads into a detector whose limits differ, and that
// detector writes its own. It returns ReadFrom's error, so that the
// caller goes on to use an accepted detector.
func Read[D Snapshotter](t testing.TB, d D, in []byte, empty func(d D)) error {
	t.Helper()
	_, err := d.ReadFrom(bytes.NewReader(in))
	if err != nil {
		if !errors.Is(err, detector.ErrSnapshot) {
			t.Fatalf("ReadFrom = %v, want ErrSnapshot", err)
		}
		if n := d.Len(); n != 0 {
			t.Fatalf("%d documents after a rejected snapshot", n)
		}
		if empty != nil {
			empty(d)
		}
		return err
	}
	if out := Encode(t, d); !bytes.Equal(in, out) && !sameButLimits(in, out) {
		t.Fatalf("an accepted snapshot does not re-encode to the same bytes:\n in %q\nout %q", in, out)
	}
	return nil
}

// sameButLimits reports whether snapshots a and b differ only in the
// call limits of their header's Config, [snapshot.CallLimits] (and so in
// the header's and the trailer's checksums).
func sameButLimits(a, b []byte) bool {
	ca, ra, ok := splitHeader(a)
	if !ok {
		return false
	}
	cb, rb, ok := splitHeader(b)
	if !ok || len(ra) != len(rb) || len(ra) < 8 || !bytes.Equal(ra[:len(ra)-8], rb[:len(rb)-8]) {
		return false
	}
	var ma, mb map[string]any
	if json.Unmarshal(ca, &ma) != nil || json.Unmarshal(cb, &mb) != nil {
		return false
	}
	for _, k := range snapshot.CallLimits {
		delete(ma, k)
		delete(mb, k)
	}
	return reflect.DeepEqual(ma, mb)
}

// splitHeader returns the Config of snapshot b's header and what follows
// the header (the kind, versions and tables must be those of the other
// snapshot, whose rest is compared: they are checksummed with it only in
// the trailer, so they are compared here through the prefix).
func splitHeader(b []byte) (cfg, rest []byte, ok bool) {
	i := len(snapshot.Magic)
	str := func() ([]byte, bool) {
		n, k := binary.Uvarint(b[min(i, len(b)):])
		if k <= 0 || uint64(len(b)-i-k) < n {
			return nil, false
		}
		s := b[i+k : i+k+int(n)]
		i += k + int(n)
		return s, true
	}
	uv := func() (uint64, bool) {
		n, k := binary.Uvarint(b[min(i, len(b)):])
		i += max(k, 0)
		return n, k > 0
	}
	if len(b) < i || string(b[:i]) != snapshot.Magic {
		return nil, nil, false
	}
	if _, ok := uv(); !ok { // format version
		return nil, nil, false
	}
	if _, ok := str(); !ok { // kind
		return nil, nil, false
	}
	if _, ok := uv(); !ok { // kind version
		return nil, nil, false
	}
	cfgStart := i
	cfg, ok = str()
	if !ok {
		return nil, nil, false
	}
	afterCfg := i
	tables, ok := uv()
	if !ok {
		return nil, nil, false
	}
	for range tables {
		if _, ok := str(); !ok {
			return nil, nil, false
		}
		i += 8
	}
	i += 8 // the header's checksum
	if i > len(b) {
		return nil, nil, false
	}
	// What is compared: everything but the Config and the checksums.
	rest = append(append(append([]byte{}, b[:cfgStart]...), b[afterCfg:i-8]...), b[i:]...)
	return cfg, rest, true
}

// Frame returns the payloads framed as a snapshot with header h, in
// sections named names, whose trailer counts docs documents: what a fuzz
// test feeds ReadFrom to reach the decoder past the checksums.
func Frame(t testing.TB, h snapshot.Header, names []string, payloads [][]byte, docs int) []byte {
	t.Helper()
	var b bytes.Buffer
	w := snapshot.NewWriter(&b, h)
	for i, p := range payloads {
		w.Section(names[i], p)
	}
	if _, err := w.Finish(uint64(docs)); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}
