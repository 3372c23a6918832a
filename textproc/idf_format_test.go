package textproc

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/zeebo/xxh3"
	"golang.org/x/text/language"
)

// realTable returns the binary form of a small table built by the Turkish
// pipeline from real sentences: what a user stores.
func realTable(t testing.TB) []byte {
	t.Helper()
	a, err := NewAnalyzer(FullConfig(language.Turkish))
	require.NoError(t, err)
	texts := []string{
		"Başbakan Ankara'da 1.500 kişinin katıldığı toplantıda konuştu.",
		"Dr. Ayşe Kaya, İSTANBUL'DAN gelen heyeti karşıladı!",
		"Merkez Bankası faiz oranlarını değiştirmedi; piyasalar yükselişle açıldı.",
		"İzmir'de yağmur etkili oldu, Ankara'da kar bekleniyor.",
		"Bakan, ihracatın yüzde 12 arttığını açıkladı.",
	}
	b, err := BuildIDF(a, texts, true).MarshalBinary()
	require.NoError(t, err)
	return b
}

// TestIDFRejectsEveryCorruption changes every byte of a real table to
// every other value, and cuts it at every length: each must be rejected
// with an error wrapping ErrFormat, and leave the table untouched.
func TestIDFRejectsEveryCorruption(t *testing.T) {
	b := realTable(t)
	var want IDF
	require.NoError(t, want.UnmarshalBinary(b))
	target := NewIDF(false)
	require.NoError(t, target.AddDocument([]string{"untouched"}))
	accepted := 0
	c := bytes.Clone(b)
	for i := range b {
		for v := range 256 {
			if byte(v) == b[i] {
				continue
			}
			c[i] = byte(v)
			if err := target.UnmarshalBinary(c); err == nil {
				accepted++
				t.Errorf("byte %d set to %#x: accepted", i, v)
			} else if !errors.Is(err, ErrFormat) {
				t.Errorf("byte %d set to %#x: error %v does not wrap ErrFormat", i, v, err)
			}
		}
		c[i] = b[i]
	}
	for n := range len(b) {
		err := target.UnmarshalBinary(b[:n])
		if assert.Error(t, err, "truncated at %d", n) {
			assert.ErrorIs(t, err, ErrFormat, "truncated at %d", n)
		}
	}
	assert.Zero(t, accepted, "of %d corrupted tables", len(b)*255)
	assert.EqualValues(t, 1, target.N(), "a rejected input leaves the table unchanged")
	assert.EqualValues(t, 1, target.DF("untouched"))
}

// TestIDFRandomCorruption corrupts a real table at random (1 to 4 bytes
// overwritten) 4,000 times: none may decode.
func TestIDFRandomCorruption(t *testing.T) {
	b := realTable(t)
	r := rand.New(rand.NewPCG(1, 2))
	accepted := 0
	for range 4000 {
		c := bytes.Clone(b)
		for range 1 + r.IntN(4) {
			c[r.IntN(len(c))] = byte(r.UintN(256))
		}
		if bytes.Equal(c, b) {
			continue
		}
		if new(IDF).UnmarshalBinary(c) == nil {
			accepted++
		}
	}
	assert.Zero(t, accepted, "corrupted tables accepted")
}

// v1 returns the version 1 form of a version 2 table: the same bytes
// without the checksum, under version byte 1.
func v1(b []byte) []byte {
	out := bytes.Clone(b[:len(b)-idfSumLen])
	out[len(idfMagic)] = idfVersion1
	return out
}

// v2 returns the version 2 form of the body of a table (what follows the
// magic and version byte): the version 2 header, the body, the checksum.
func v2(body []byte) []byte {
	b := append([]byte(idfMagic+"\x02"), body...)
	return binary.LittleEndian.AppendUint64(b, xxh3.Hash(b))
}

func TestIDFMarshalFormat(t *testing.T) {
	idf := NewIDF(true)
	require.NoError(t, idf.AddDocument([]string{"b", "a"}))
	idf.Freeze()
	b, err := idf.MarshalBinary()
	require.NoError(t, err)
	// magic, version 2, flags 3 (frozen, smoothed), N 1, 2 terms, "a" 1, "b" 1, checksum.
	body := []byte{3, 1, 2, 1, 'a', 1, 1, 'b', 1}
	assert.Equal(t, v2(body), b)
	pre := []byte("prefix")
	ab, err := idf.AppendBinary(pre)
	require.NoError(t, err)
	assert.Equal(t, append([]byte("prefix"), b...), ab, "AppendBinary appends the same bytes")
}

// TestIDFReadsVersion1 checks that a table stored in version 1 (before the
// checksum) still loads, gives the same weights, and is written back as
// version 2.
func TestIDFReadsVersion1(t *testing.T) {
	b := realTable(t)
	var want, got IDF
	require.NoError(t, want.UnmarshalBinary(b))
	require.NoError(t, got.UnmarshalBinary(v1(b)))
	for _, w := range []string{"ankar", "istan", "başba", "yağmu", "absent"} {
		assert.Equal(t, want.Weight(w), got.Weight(w), w)
		assert.Equal(t, want.DF(w), got.DF(w), w)
	}
	again, err := got.MarshalBinary()
	require.NoError(t, err)
	assert.Equal(t, b, again, "a version 1 table is written back as version 2")
}

// TestIDFRejectsNonCanonical builds tables that are well formed but not
// what AppendBinary writes, each with a valid checksum: all are rejected.
func TestIDFRejectsNonCanonical(t *testing.T) {
	for _, c := range []struct {
		name string
		body []byte
	}{
		{"over-long varint N", []byte{0, 0x81, 0, 1, 1, 'a', 1}},
		{"over-long varint term count", []byte{0, 1, 0x81, 0, 1, 'a', 1}},
		{"over-long varint term length", []byte{0, 1, 1, 0x81, 0, 'a', 1}},
		{"over-long varint df", []byte{0, 1, 1, 1, 'a', 0x81, 0}},
		{"unsorted terms", []byte{0, 2, 2, 1, 'b', 1, 1, 'a', 1}},
		{"duplicate terms", []byte{0, 2, 2, 1, 'a', 1, 1, 'a', 1}},
		{"df 0", []byte{0, 2, 1, 1, 'a', 0}},
		{"df above N", []byte{0, 1, 1, 1, 'a', 2}},
		{"unknown flag", []byte{4, 1, 1, 1, 'a', 1}},
		{"trailing byte", []byte{0, 1, 1, 1, 'a', 1, 0}},
		{"term count beyond the data", []byte{0, 1, 9, 1, 'a', 1}},
		{"term beyond the data", []byte{0, 1, 1, 9, 'a', 1}},
		{"N above MaxInt64", []byte{0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 1, 0}},
		{"missing flags", []byte{}},
	} {
		for _, data := range [][]byte{v2(c.body), append([]byte(idfMagic+"\x01"), c.body...)} {
			err := new(IDF).UnmarshalBinary(data)
			if assert.Error(t, err, "%s (version %d)", c.name, data[len(idfMagic)]) {
				assert.ErrorIs(t, err, ErrFormat, c.name)
			}
		}
	}
	ok := v2([]byte{0, 1, 1, 1, 'a', 1})
	require.NoError(t, new(IDF).UnmarshalBinary(ok), "the canonical form of the same table")
	for _, data := range [][]byte{nil, []byte("NDIDF"), []byte("NDIDF\x03\x00\x00\x00"), []byte("XDIDF\x02\x00\x00\x00")} {
		assert.ErrorIs(t, new(IDF).UnmarshalBinary(data), ErrFormat, "%q", data)
	}
}

// FuzzIDFUnmarshal: decoding never panics; an accepted input re-encodes
// byte for byte (a version 1 input as its version 2 form); decoding what
// was encoded gives the same table (a fixed point).
func FuzzIDFUnmarshal(f *testing.F) {
	b := realTable(f)
	f.Add(b)
	f.Add(v1(b))
	empty, _ := new(IDF).MarshalBinary()
	f.Add(empty)
	f.Add(v1(empty))
	f.Add(v2([]byte{0, 2, 2, 0, 1, 1, 'a', 2}))
	f.Fuzz(func(t *testing.T, data []byte) {
		var x IDF
		if err := x.UnmarshalBinary(data); err != nil {
			if !errors.Is(err, ErrFormat) {
				t.Fatalf("error %v does not wrap ErrFormat", err)
			}
			return
		}
		out, err := x.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		want := data
		if data[len(idfMagic)] == idfVersion1 {
			want = v2(data[len(idfMagic)+1:])
		}
		if !bytes.Equal(out, want) {
			t.Fatalf("accepted input %q re-encodes as %q", data, out)
		}
		var y IDF
		if err := y.UnmarshalBinary(out); err != nil {
			t.Fatalf("own output rejected: %v", err)
		}
		again, _ := y.MarshalBinary()
		if !bytes.Equal(again, out) || y.N() != x.N() || y.Frozen() != x.Frozen() {
			t.Fatalf("decode∘encode is not a fixed point")
		}
	})
}

// A frozen table is read-only: UnmarshalBinary refuses to replace it, so
// those that cached its weights (a Signer) cannot go stale.
func TestUnmarshalKeepsFrozenTable(t *testing.T) {
	other := NewIDF(false)
	require.NoError(t, other.AddDocument([]string{"alpha", "beta"}))
	b, err := other.MarshalBinary()
	require.NoError(t, err)
	frozen := NewIDF(false)
	require.NoError(t, frozen.AddDocument([]string{"gamma"}))
	frozen.Freeze()
	before, err := frozen.MarshalBinary()
	require.NoError(t, err)
	assert.ErrorIs(t, frozen.UnmarshalBinary(b), ErrFrozen)
	after, err := frozen.MarshalBinary()
	require.NoError(t, err)
	assert.Equal(t, before, after, "the frozen table is unchanged")
}
