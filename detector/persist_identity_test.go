package detector_test

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup"
	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/naive"
	"github.com/seed-9ef9c1df/neardup/internal/snapshot"
)

// resnap reads a snapshot's sections and writes them again with valid
// checksums after edit has changed them (by index) and the trailer's
// document count.
func resnap(t *testing.T, b []byte, h snapshot.Header, names []string, edit func(payloads [][]byte, docs *uint64)) []byte {
	t.Helper()
	payloads, docs, _, err := snapshot.ReadAll(bytes.NewReader(b), h, names...)
	require.NoError(t, err)
	edit(payloads, &docs)
	var out bytes.Buffer
	sw := snapshot.NewWriter(&out, h)
	for i, name := range names {
		sw.Section(name, payloads[i])
	}
	_, err = sw.Finish(docs)
	require.NoError(t, err)
	return out.Bytes()
}

// windowSection encodes a window section of ids, all at position 0.
func windowSection(ids ...string) []byte {
	var e snapshot.Enc
	e.Bool(true)
	e.Uvarint(0)
	e.Int(len(ids))
	for _, id := range ids {
		e.String(id)
		e.Uvarint(0)
	}
	return e.B
}

// idsSection encodes a count and ids, as a Vote's section lists them.
func idsSection(ids ...string) []byte {
	var e snapshot.Enc
	e.Int(len(ids))
	for _, id := range ids {
		e.String(id)
	}
	return e.B
}

// featuresSection encodes a Cascade's features section over texts.
func featuresSection(docs ...[2]string) []byte {
	var e snapshot.Enc
	e.Int(len(docs))
	for _, d := range docs {
		e.String(d[0])
		e.String(d[1])
	}
	return e.B
}

func snap(t *testing.T, d detector.Detector) []byte {
	t.Helper()
	var b bytes.Buffer
	_, err := d.(detector.Persister).WriteTo(&b)
	require.NoError(t, err)
	return b.Bytes()
}

// rejectedThenIntact loads bad into d, which must fail with ErrSnapshot
// and leave d and every one of members empty, then loads good, orig's
// snapshot, into the same d, which then answers as orig.
func rejectedThenIntact(t *testing.T, orig, d detector.Detector, members []interface{ Len() int }, bad, good []byte, why string) {
	t.Helper()
	_, err := d.(detector.Persister).ReadFrom(bytes.NewReader(bad))
	require.ErrorIs(t, err, detector.ErrSnapshot)
	assert.ErrorContains(t, err, why)
	assert.Zero(t, d.(interface{ Len() int }).Len())
	for i, m := range members {
		assert.Zero(t, m.Len(), "member %d after the rejected snapshot", i)
	}
	_, err = d.(detector.Persister).ReadFrom(bytes.NewReader(good))
	require.NoError(t, err, "the intact snapshot loads into the same value")
	assert.Equal(t, orig.(interface{ Len() int }).Len(), d.(interface{ Len() int }).Len())
	want, err := orig.Containers("copy")
	require.NoError(t, err)
	got, err := d.Containers("copy")
	require.NoError(t, err)
	assert.Equal(t, want, got)
}

// A Window snapshot whose window section lists other IDs than its member
// section holds is rejected, and leaves the window and its member empty.
func TestWindowReadFromChecksIdentities(t *testing.T) {
	h := snapshot.Header{Kind: "window", KindVersion: 1, Config: struct{ Size int }{3}}
	names := []string{"window", "member"}
	orig := window(t, naive.New(naive.Config{}), detector.WindowConfig{Size: 3})
	defer orig.Close()
	fill(t, orig) // holds other, long, copy
	good := snap(t, orig)
	for _, tc := range []struct {
		name, why string
		ids       []string
	}{
		{"one other ID", `the member: it does not hold "zzz"`, []string{"other", "long", "zzz"}},
		{"all other IDs", `the member: it does not hold "x"`, []string{"x", "y", "z"}},
		{"fewer", "the member: its snapshot holds 3 documents, the combinator's lists 2", []string{"other", "long"}},
		{"none", "holds 3 documents, the combinator's lists 0", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bad := resnap(t, good, h, names, func(p [][]byte, docs *uint64) {
				p[0], *docs = windowSection(tc.ids...), uint64(len(tc.ids))
			})
			member := naive.New(naive.Config{})
			w := window(t, member, detector.WindowConfig{Size: 3})
			defer w.Close()
			rejectedThenIntact(t, orig, w, []interface{ Len() int }{member}, bad, good, tc.why)
		})
	}
}

// The same for a Cascade's features section.
func TestCascadeReadFromChecksIdentities(t *testing.T) {
	h := snapshot.Header{Kind: "cascade", KindVersion: 1, Config: struct{ Features string }{"string"}}
	names := []string{"features", "propose"}
	orig := cascade(t, naive.New(naive.Config{Threshold: 0.2}))
	defer orig.Close()
	fill(t, orig) // holds copy, long, other, short
	good := snap(t, orig)
	for _, tc := range []struct {
		name, why string
		docs      [][2]string
	}{
		{"one other ID", `propose: it does not hold "zzz"`, [][2]string{{"copy", short}, {"long", long}, {"other", other}, {"zzz", short}}},
		{"fewer", "propose: its snapshot holds 4 documents, the combinator's lists 3", [][2]string{{"copy", short}, {"long", long}, {"other", other}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bad := resnap(t, good, h, names, func(p [][]byte, docs *uint64) {
				p[0], *docs = featuresSection(tc.docs...), uint64(len(tc.docs))
			})
			propose := naive.New(naive.Config{Threshold: 0.2})
			c := cascade(t, propose)
			defer c.Close()
			rejectedThenIntact(t, orig, c, []interface{ Len() int }{propose}, bad, good, tc.why)
		})
	}
}

// The same for a Vote, whose members are all emptied again: member 0 too,
// and the member whose section was the odd one.
func TestVoteReadFromChecksIdentities(t *testing.T) {
	h := snapshot.Header{Kind: "vote", KindVersion: 1, Config: struct{ K, Members int }{1, 2}}
	names := []string{"vote", "member0", "member1"}
	build := func() (detector.Detector, []interface{ Len() int }) {
		a, b := naive.New(naive.Config{}), naive.New(naive.Config{Shingle: 3})
		return vote(t, 1, a, b), []interface{ Len() int }{a, b}
	}
	orig, _ := build()
	defer orig.Close()
	fill(t, orig) // holds copy, long, other, short
	good := snap(t, orig)
	// elsewhere holds as many documents under other IDs.
	elsewhere, _ := build()
	defer elsewhere.Close()
	for _, id := range []string{"copy", "long", "other", "zzz"} {
		_, err := elsewhere.Add(detector.Doc{ID: id, Text: unique(id)})
		require.NoError(t, err)
	}
	alien := snap(t, elsewhere)
	section := func(b []byte, i int) []byte {
		p, _, _, err := snapshot.ReadAll(bytes.NewReader(b), h, names...)
		require.NoError(t, err)
		return p[i]
	}
	for _, tc := range []struct {
		name, why string
		edit      func(p [][]byte, docs *uint64)
	}{
		{"vote section lists one other ID", `member 0: it does not hold "zzz"`, func(p [][]byte, docs *uint64) {
			p[0] = idsSection("copy", "long", "other", "zzz")
		}},
		{"vote section lists fewer", "member 0: its snapshot holds 4 documents, the combinator's lists 2", func(p [][]byte, docs *uint64) {
			p[0], *docs = idsSection("copy", "long"), 2
		}},
		{"member 1 holds other IDs", `member 1: it does not hold "short"`, func(p [][]byte, docs *uint64) {
			p[2] = section(alien, 2)
		}},
		{"member 0 holds other IDs", `member 0: it does not hold "short"`, func(p [][]byte, docs *uint64) {
			p[1] = section(alien, 1)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bad := resnap(t, good, h, names, tc.edit)
			v, members := build()
			defer v.Close()
			rejectedThenIntact(t, orig, v, members, bad, good, tc.why)
		})
	}
}

// A Vote over combinators checks its members' identities through their
// own lists.
func TestNestedReadFromChecksIdentities(t *testing.T) {
	h := snapshot.Header{Kind: "vote", KindVersion: 1, Config: struct{ K, Members int }{2, 2}}
	names := []string{"vote", "member0", "member1"}
	build := func() (detector.Detector, []interface{ Len() int }) {
		a := window(t, naive.New(naive.Config{}), detector.WindowConfig{Size: 9})
		b := cascade(t, naive.New(naive.Config{Threshold: 0.2}))
		return vote(t, 2, a, b), []interface{ Len() int }{a, b.(interface{ Len() int })}
	}
	orig, _ := build()
	defer orig.Close()
	fill(t, orig)
	good := snap(t, orig)
	bad := resnap(t, good, h, names, func(p [][]byte, docs *uint64) {
		p[0] = idsSection("copy", "long", "other", "zzz")
	})
	v, members := build()
	defer v.Close()
	rejectedThenIntact(t, orig, v, members, bad, good, `member 0: it does not hold "zzz"`)
}

// The published detectors, as a Window's member: a window section that
// lists an ID their section does not hold is rejected, and the member is
// emptied again (its unlisted document found among its section's
// strings), so the intact snapshot loads into the same window.
func TestWindowReadFromChecksIdentitiesPublished(t *testing.T) {
	h := snapshot.Header{Kind: "window", KindVersion: 1, Config: struct{ Size int }{3}}
	names := []string{"window", "member"}
	for _, name := range neardup.Names() {
		t.Run(name, func(t *testing.T) {
			build := func() (detector.Window, interface{ Len() int }) {
				d, err := neardup.New(name, nil)
				require.NoError(t, err)
				return window(t, d, detector.WindowConfig{Size: 3}), d.(interface{ Len() int })
			}
			orig, _ := build()
			defer orig.Close()
			if _, ok := orig.(detector.Persister); !ok {
				t.Skipf("%s does not persist", name)
			}
			fill(t, orig) // holds other, long, copy
			good := snap(t, orig)
			bad := resnap(t, good, h, names, func(p [][]byte, docs *uint64) {
				p[0] = windowSection("other", "long", "zzz")
			})
			w, member := build()
			defer w.Close()
			rejectedThenIntact(t, orig, w, []interface{ Len() int }{member}, bad, good, `the member: it does not hold "zzz"`)
		})
	}
}
