package snapshot

import (
	"bytes"
	"errors"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type cfg struct {
	Threshold float64
	Bands     int
	Language  string
}

var header = Header{Kind: "test", KindVersion: 3, Config: cfg{0.5, 20, "tr"}, Tables: map[string]uint64{"IDF": 42, "Reference": 7}}

func write(t testing.TB) []byte {
	var buf bytes.Buffer
	w := NewWriter(&buf, header)
	var e Enc
	e.Int(3)
	e.String("ünicode")
	e.F64(0.25)
	e.U64(math.MaxUint64)
	e.U32(9)
	e.Bool(true)
	w.Section("docs", e.B)
	w.Section("empty", nil)
	n, err := w.Finish(3)
	if err != nil {
		t.Fatal(err)
	}
	if n != int64(buf.Len()) {
		t.Fatalf("Finish reports %d bytes, wrote %d", n, buf.Len())
	}
	return buf.Bytes()
}

// read reads what write wrote, returning the first error.
func read(data []byte, h Header) error {
	r, err := NewReader(bytes.NewReader(data), h)
	if err != nil {
		return err
	}
	p, err := r.Section("docs")
	if err != nil {
		return err
	}
	d := NewDec(p)
	if d.Int(0) != 3 || d.String() != "ünicode" || d.F64() != 0.25 || d.U64() != math.MaxUint64 || d.U32() != 9 || !d.Bool() {
		return errors.New("payload differs")
	}
	if err := d.Done(); err != nil {
		return err
	}
	if _, err := r.Section("empty"); err != nil {
		return err
	}
	docs, n, err := r.Finish()
	if err != nil {
		return err
	}
	if docs != 3 || n != int64(len(data)) {
		return errors.New("trailer differs")
	}
	return nil
}

func TestRoundTrip(t *testing.T) {
	data := write(t)
	require.NoError(t, read(data, header))
	assert.Equal(t, data, write(t), "deterministic")
}

func TestEveryTruncationAndByteChange(t *testing.T) {
	data := write(t)
	for cut := range len(data) {
		require.ErrorIs(t, read(data[:cut], header), ErrSnapshot, "cut at %d", cut)
	}
	for i := range data {
		for _, x := range []byte{0x01, 0x80, 0xff} {
			bad := bytes.Clone(data)
			bad[i] ^= x
			require.ErrorIs(t, read(bad, header), ErrSnapshot, "byte %d ^ %#x", i, x)
		}
	}
	require.ErrorIs(t, read(append(bytes.Clone(data), 0), header), ErrSnapshot, "a byte after the trailer")
}

func TestHeaderMismatchesNameWhatDiffers(t *testing.T) {
	data := write(t)
	for _, c := range []struct {
		change func(*Header)
		want   string
	}{
		{func(h *Header) { h.Kind = "other" }, `a "test" snapshot, not "other"`},
		{func(h *Header) { h.KindVersion = 4 }, "layout version 3"},
		{func(h *Header) { h.Config = cfg{0.5, 21, "tr"} }, "Config.Bands is 20 in the snapshot and 21 in the detector"},
		{func(h *Header) { h.Config = cfg{0.5, 20, "en"} }, `Config.Language is "tr" in the snapshot and "en"`},
		{func(h *Header) { h.Tables = map[string]uint64{"IDF": 43, "Reference": 7} }, "another IDF table"},
		{func(h *Header) { h.Tables = map[string]uint64{"IDF": 42} }, "a Reference table the detector does not have"},
		{func(h *Header) { h.Tables = map[string]uint64{"IDF": 42, "Reference": 7, "Stats": 1} }, "without the Stats table"},
	} {
		h := header
		c.change(&h)
		err := read(data, h)
		require.ErrorIs(t, err, ErrSnapshot)
		assert.ErrorContains(t, err, c.want)
	}
	_, err := NewReader(bytes.NewReader([]byte("PK\x03\x04 a zip file")), header)
	assert.ErrorContains(t, err, "not a neardup snapshot")
}

// Integers above 2^53 (a seed) are compared exactly, not as float64.
func TestConfigSeedsCompareExactly(t *testing.T) {
	type seeded struct{ Seed uint64 }
	h := Header{Kind: "test", KindVersion: 1, Config: seeded{1 << 60}}
	var buf bytes.Buffer
	_, err := NewWriter(&buf, h).Finish(0)
	require.NoError(t, err)
	_, err = NewReader(bytes.NewReader(buf.Bytes()), h)
	require.NoError(t, err)
	h.Config = seeded{1<<60 + 1}
	_, err = NewReader(bytes.NewReader(buf.Bytes()), h)
	require.ErrorIs(t, err, ErrSnapshot)
	assert.ErrorContains(t, err, "Config.Seed is 1152921504606846976 in the snapshot and 1152921504606846977")
}

func TestSectionOrder(t *testing.T) {
	data := write(t)
	r, err := NewReader(bytes.NewReader(data), header)
	require.NoError(t, err)
	_, err = r.Section("empty")
	assert.ErrorContains(t, err, `expected section "empty", found "docs"`)
}

func TestWriterErrorsStick(t *testing.T) {
	w := NewWriter(failing{}, header)
	w.Section("x", []byte{1})
	_, err := w.Finish(0)
	assert.ErrorContains(t, err, "disk full")
	w = NewWriter(&bytes.Buffer{}, Header{Config: func() {}})
	_, err = w.Finish(0)
	assert.ErrorContains(t, err, "encoding the Config")
}

type failing struct{}

func (failing) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestDec(t *testing.T) {
	for _, c := range []struct {
		name string
		b    []byte
		read func(*Dec)
	}{
		{"non-canonical", []byte{0x81, 0x00}, func(d *Dec) { d.Uvarint() }},
		{"overflow", bytes.Repeat([]byte{0xff}, 11), func(d *Dec) { d.Uvarint() }},
		{"truncated varint", []byte{0x80}, func(d *Dec) { d.Uvarint() }},
		{"count beyond the payload", []byte{100, 1, 2}, func(d *Dec) { d.Len(1, 0) }},
		{"count over the limit", []byte{100}, func(d *Dec) { d.Len(0, 10) }},
		{"NaN", Enc{}.withF64(math.NaN()), func(d *Dec) { d.F64() }},
		{"Inf", Enc{}.withF64(math.Inf(-1)), func(d *Dec) { d.F64() }},
		{"bool", []byte{2}, func(d *Dec) { d.Bool() }},
		{"string too long", []byte{5, 'a'}, func(d *Dec) { _ = d.String() }},
		{"leftover", []byte{1, 2}, func(d *Dec) { d.Uvarint() }},
	} {
		d := NewDec(c.b)
		c.read(d)
		assert.ErrorIs(t, d.Done(), ErrSnapshot, c.name)
	}
	d := NewDec([]byte{1})
	d.Fail("bad value %d", 7)
	assert.ErrorContains(t, d.Done(), "bad value 7")
	assert.Zero(t, d.Uvarint(), "sticky")
}

func (e Enc) withF64(x float64) []byte { e.F64(x); return e.B }

func FuzzReader(f *testing.F) {
	data := write(f)
	f.Add(data)
	f.Add(data[:len(data)/2])
	f.Fuzz(func(t *testing.T, b []byte) {
		if err := read(b, header); err != nil && !errors.Is(err, ErrSnapshot) {
			t.Fatalf("an error that does not wrap ErrSnapshot: %v", err)
		}
	})
}

// TestCallLimitsMayDiffer checks that a snapshot loads into a detector
// whose MaxResults and MaxTextBytes differ, and only those.
func TestCallLimitsMayDiffer(t *testing.T) {
	type limited struct {
		Bands        int
		MaxResults   int
		MaxTextBytes int
	}
	h := Header{Kind: "test", Config: limited{20, 100, 4 << 20}}
	var buf bytes.Buffer
	w := NewWriter(&buf, h)
	_, err := w.Finish(0)
	require.NoError(t, err)
	load := func(c limited) error {
		r, err := NewReader(bytes.NewReader(buf.Bytes()), Header{Kind: "test", Config: c})
		if err != nil {
			return err
		}
		_, _, err = r.Finish()
		return err
	}
	require.NoError(t, load(limited{20, 100, 4 << 20}))
	require.NoError(t, load(limited{20, 5, 1 << 10}), "limits bound calls, not the stored state")
	err = load(limited{21, 100, 4 << 20})
	require.ErrorIs(t, err, ErrSnapshot)
	assert.ErrorContains(t, err, "Config.Bands is 20 in the snapshot and 21")
}

func TestStringsAndBytes16(t *testing.T) {
	var e Enc
	e.Bytes16([16]byte{1, 2, 3, 15: 9})
	e.Strings([]string{"a", "b"})
	e.Strings([]string{"y", "x"})
	d := NewDec(e.B)
	assert.Equal(t, [16]byte{1, 2, 3, 15: 9}, d.Bytes16())
	assert.Equal(t, []string{"a", "b"}, d.IDs(1))
	assert.Equal(t, []string{"y", "x"}, d.Strings(2, false, "terms"))
	require.NoError(t, d.Done())

	for _, c := range []struct {
		name string
		ss   []string
		read func(*Dec) []string
		want string
	}{
		{"too few", []string{"a"}, func(d *Dec) []string { return d.IDs(2) }, "1 IDs, want at least 2"},
		{"out of order", []string{"b", "a"}, func(d *Dec) []string { return d.IDs(0) }, "IDs out of order"},
		{"repeated ID", []string{"a", "a"}, func(d *Dec) []string { return d.IDs(0) }, "IDs out of order"},
		{"empty", []string{"", "abc"}, func(d *Dec) []string { return d.IDs(0) }, "an empty string in the IDs"},
		{"repeated term", []string{"x", "x"}, func(d *Dec) []string { return d.Strings(0, false, "terms") }, `"x" twice in the terms`},
	} {
		var e Enc
		e.Strings(c.ss)
		d := NewDec(e.B)
		assert.Nil(t, c.read(d), c.name)
		require.ErrorIs(t, d.Err(), ErrSnapshot, c.name)
		assert.ErrorContains(t, d.Err(), c.want, c.name)
	}
	d = NewDec([]byte{1, 2})
	d.Bytes16()
	require.ErrorIs(t, d.Err(), ErrSnapshot, "truncated digest")
}

func TestReadAll(t *testing.T) {
	data := write(t)
	payloads, docs, n, err := ReadAll(bytes.NewReader(data), header, "docs", "empty")
	require.NoError(t, err)
	assert.Len(t, payloads, 2)
	assert.Empty(t, payloads[1])
	assert.EqualValues(t, 3, docs)
	assert.EqualValues(t, len(data), n)
	_, _, _, err = ReadAll(bytes.NewReader(data), header, "docs", "other")
	require.ErrorIs(t, err, ErrSnapshot, "a section of another name")
	_, _, _, err = ReadAll(bytes.NewReader(data), header, "docs")
	require.ErrorIs(t, err, ErrSnapshot, "a section left unread")
}

func TestLoad(t *testing.T) {
	data := write(t)
	names := []string{"docs", "empty"}
	ok := func() error { return nil }
	decoded := func(docs int, installErr error) func([][]byte) (int, func() error, error) {
		return func(p [][]byte) (int, func() error, error) {
			require.Len(t, p, 2)
			return docs, func() error { return installErr }, nil
		}
	}
	n, err := Load("x", bytes.NewReader(data), header, names, ok, decoded(3, nil))
	require.NoError(t, err)
	assert.EqualValues(t, len(data), n)

	_, err = Load("x", bytes.NewReader(data), header, names, ok, decoded(2, nil))
	require.ErrorIs(t, err, ErrSnapshot)
	assert.ErrorContains(t, err, "x: ReadFrom: snapshot: trailer counts 3 documents, the sections hold 2")

	refused := errors.New("closed")
	_, err = Load("x", bytes.NewReader(data), header, names, func() error { return refused }, nil)
	assert.Same(t, refused, err, "check's error as it is, before anything is read")
	_, err = Load("x", bytes.NewReader(data), header, names, ok, decoded(3, refused))
	assert.Same(t, refused, err, "install's error as it is")
	_, err = Load("x", bytes.NewReader(data[:10]), header, names, ok, decoded(3, nil))
	require.ErrorIs(t, err, ErrSnapshot)
	assert.ErrorContains(t, err, "x: ReadFrom:")
}
