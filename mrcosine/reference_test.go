package mrcosine

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/hashtab"
)

func trigrams(tc TextConfig, text string) []string {
	var out []string
	eachTrigram(tc, text, new([]byte), func(c uint64) { out = append(out, trigramString(c)) })
	return out
}

func TestTrigrams(t *testing.T) {
	for _, tc := range []struct {
		name string
		tc   TextConfig
		text string
		want []string
	}{
		{"Normalized", TextConfig{}, "  Hello,  W0rld!! ", []string{"hel", "ell", "llo", "lo ", "o w", " w0", "w0r", "0rl", "rld"}},
		{"LettersOnly", TextConfig{Normalization: LettersOnly}, "ab 12 cd", []string{"ab ", "b c", " cd"}},
		{"Raw", TextConfig{Normalization: Raw}, "A,b C", []string{"A,b", ",b ", "b C"}},
		{"Turkish", TextConfig{Language: "tr"}, "KADIN İz", []string{"kad", "adı", "dın", "ın ", "n i", " iz"}},
		{"English I", TextConfig{Language: "en"}, "KIT", []string{"kit"}},
		{"InvalidUTF8", TextConfig{}, "ab\xffcd", []string{"ab ", "b c", " cd"}},
		{"NFC", TextConfig{}, "cafe\u0301s", []string{"caf", "afé", "fés"}},
		{"Short", TextConfig{}, "ab", nil},
		{"Empty", TextConfig{}, "", nil},
		{"OnlyPunct", TextConfig{}, "... !!!", nil},
	} {
		assert.Equal(t, tc.want, trigrams(tc.tc, tc.text), tc.name)
	}
}

func TestPartBounds(t *testing.T) {
	b := partBounds(1000, 150)
	sizes := map[int]int{}
	for j := range 150 {
		sizes[b[j+1]-b[j]]++
		if j > 0 {
			assert.LessOrEqual(t, b[j+1]-b[j], b[j]-b[j-1], "longer parts first")
		}
	}
	assert.Equal(t, map[int]int{7: 100, 6: 50}, sizes, "near-equal contiguous parts, longer first: 100 parts of 7, 50 of 6")
	assert.Equal(t, 1000, b[150])
}

// TestSignatureByHand checks a signature computed by hand from the formula
// of Mohammadi and Khasteh 2020 §3.4 under the term-frequency reading.
func TestSignatureByHand(t *testing.T) {
	// "abcabc": abc×2, bca, cab → ‖tf_D‖ = √6.
	// Part 0 = {abc, xyz}: dot 2, ‖R0‖ = √2 → 2/√12.
	// Part 1 = {bca, abc}: dot 1+2 = 3, ‖R1‖ = √2 → 3/√12.
	ref, err := NewReference([]string{"abc", "xyz", "bca", "abc"}, 2, TextConfig{})
	require.NoError(t, err)
	sig := ref.Signature("abcabc")
	assert.InDeltaSlice(t, []float32{float32(2 / math.Sqrt(12)), float32(3 / math.Sqrt(12))}, sig, 1e-6)
	// Binary: D = {abc, bca, cab} → √3; part 0 dot 1 / √(3·2); part 1 dot 2 / √(3·2).
	bin, err := NewReference([]string{"abc", "xyz", "bca", "abc"}, 2, TextConfig{Binary: true})
	require.NoError(t, err)
	assert.InDeltaSlice(t, []float32{float32(1 / math.Sqrt(6)), float32(2 / math.Sqrt(6))}, bin.Signature("abcabc"), 1e-6)
	// Repeated genes count under term frequency: part {abc, abc} has ‖R‖ = 2.
	rep, err := NewReference([]string{"abc", "abc"}, 1, TextConfig{})
	require.NoError(t, err)
	assert.InDeltaSlice(t, []float32{float32(4 / (math.Sqrt(6) * 2))}, rep.Signature("abcabc"), 1e-6)
	assert.Equal(t, []float32{0, 0}, ref.Signature("no match here"), "no reference trigram → zero signature")
	assert.Equal(t, []float32{0, 0}, ref.Signature(""))
}

// TestSignatureMatchesProfiles compares the table-driven signature with the
// cosine of full profiles of each part, on real text.
func TestSignatureMatchesProfiles(t *testing.T) {
	ref := Default()
	texts := []string{
		"Oil prices rose sharply on Tuesday after the pipeline closed.",
		strings.Repeat("The quick brown fox jumps over the lazy dog. ", 20),
		"İSTANBUL'DA KADIN ve çocuklar için yeni bir park açıldı.",
	}
	genes := ref.Genes()
	var c counter
	for _, text := range texts {
		sig := ref.Signature(text)
		pd := makeProfile(ref.TextConfig(), text, &c)
		b := partBounds(len(genes), ref.Parts())
		for j := range ref.Parts() {
			// A part as a profile: its genes joined by a character that
			// breaks every junction trigram would be wrong (junctions), so
			// count genes directly.
			cnt := map[uint64]uint32{}
			for _, g := range genes[b[j]:b[j+1]] {
				code, _ := parseTrigram(g)
				cnt[code]++
			}
			var pr profile
			var ss float64
			for code, v := range cnt {
				pr.codes = append(pr.codes, code)
				ss += float64(v * v)
			}
			slices.Sort(pr.codes)
			for _, code := range pr.codes {
				pr.counts = append(pr.counts, cnt[code])
			}
			pr.norm = math.Sqrt(ss)
			assert.InDelta(t, pd.cosine(pr), float64(sig[j]), 1e-6, "part %d of %q", j, text[:10])
		}
	}
}

func TestNewReferenceInvalid(t *testing.T) {
	for _, tc := range []struct {
		genes []string
		parts int
		tc    TextConfig
		want  string
	}{
		{nil, 1, TextConfig{}, "at least one gene"},
		{[]string{"abc", "ab"}, 1, TextConfig{}, `gene 1 ("ab") must be exactly 3 characters`},
		{[]string{"abcd"}, 1, TextConfig{}, "must be exactly 3 characters"},
		{[]string{"abc"}, 2, TextConfig{}, "Parts (2) must be in [1, 1]"},
		{[]string{"abc"}, 0, TextConfig{}, "Parts (0) must be in [1, 1]"},
		{[]string{"abc"}, 1, TextConfig{Normalization: 3}, "Normalization (3)"},
		{[]string{"abc"}, 1, TextConfig{Language: "t r"}, "Language"},
	} {
		_, err := NewReference(tc.genes, tc.parts, tc.tc)
		if assert.ErrorIs(t, err, detector.ErrInvalidConfig, "%v", tc.genes) {
			assert.Contains(t, err.Error(), tc.want)
		}
	}
	// The Language error is the one every detector gives, wrapped once.
	_, err := NewReference([]string{"abc"}, 1, TextConfig{Language: "t r"})
	assert.EqualError(t, err, `mrcosine: Language ("t r") is not a BCP 47 tag: invalid config`)
}

func TestCosine(t *testing.T) {
	assert.InDelta(t, 1.0, Cosine([]float32{1, 2, 3}, []float32{2, 4, 6}), 1e-9)
	assert.InDelta(t, 0.0, Cosine([]float32{1, 0}, []float32{0, 1}), 1e-9)
	assert.Equal(t, 0.0, Cosine([]float32{0, 0}, []float32{1, 1}))
	assert.Panics(t, func() { Cosine([]float32{1}, []float32{1, 2}) })
	a, b := Default().Signature("grain exports fell"), Default().Signature("grain exports rose")
	assert.Zero(t, testing.AllocsPerRun(100, func() { Cosine(a, b) }))
}

func TestTrigramCosine(t *testing.T) {
	ref := Default()
	assert.InDelta(t, 1.0, ref.TrigramCosine("Same text here", "same TEXT, here!"), 1e-9)
	assert.Equal(t, 0.0, ref.TrigramCosine("aaaa", "bbbb"))
	assert.Equal(t, 0.0, ref.TrigramCosine("", "bbbb"))
}

func TestAppendSignatureAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("sync.Pool drops items at random under the race detector")
	}
	ref := Default()
	text := strings.Repeat("Wheat and corn exports from the port rose 12 pct in the week. ", 40)
	buf := make([]float32, 0, ref.Parts())
	ref.AppendSignature(buf, text)
	assert.Zero(t, testing.AllocsPerRun(50, func() { buf = ref.AppendSignature(buf[:0], text) }))
}

func TestMarshalRoundTrip(t *testing.T) {
	for _, tc := range []TextConfig{{}, {Normalization: Raw, Language: "tr", Binary: true}} {
		ref, err := NewReference([]string{"abc", "ığü", " x ", "😀ab", "abc"}, 2, tc)
		require.NoError(t, err)
		if tc.Binary {
			ref = ref.Centered([]string{"abc bca", "ığü x abc"})
			require.Len(t, ref.Center(), 2)
		}
		b, err := ref.MarshalBinary()
		require.NoError(t, err)
		var got Reference
		require.NoError(t, got.UnmarshalBinary(b))
		assert.Equal(t, ref.Genes(), got.Genes())
		assert.Equal(t, ref.Parts(), got.Parts())
		assert.Equal(t, tc, got.TextConfig())
		assert.Equal(t, ref.Center(), got.Center())
		assert.Equal(t, ref.Signature("abc ığü x"), got.Signature("abc ığü x"))
		b2, _ := got.MarshalBinary()
		assert.Equal(t, b, b2)
		// Every truncation and every single-byte change is rejected.
		for i := range b {
			assert.ErrorIs(t, new(Reference).UnmarshalBinary(b[:i]), ErrFormat, "truncated at %d", i)
			c := slices.Clone(b)
			c[i] ^= 0x40
			assert.ErrorIs(t, new(Reference).UnmarshalBinary(c), ErrFormat, "byte %d changed", i)
		}
	}
}

func TestDefault(t *testing.T) {
	ref := Default()
	assert.Len(t, ref.Genes(), DefaultGenes)
	assert.Equal(t, DefaultParts, ref.Parts())
	assert.Equal(t, TextConfig{}, ref.TextConfig())
	assert.Len(t, ref.Center(), DefaultParts, "the default reference has a center")
	b, err := ref.MarshalBinary()
	require.NoError(t, err)
	assert.Equal(t, defaultRef, b, "the embedded bytes are the canonical encoding")
}

func FuzzUnmarshalBinary(f *testing.F) {
	f.Add(defaultRef)
	f.Add([]byte("mrcR"))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		var r Reference
		if err := r.UnmarshalBinary(data); err != nil {
			return
		}
		b, err := r.MarshalBinary()
		require.NoError(t, err)
		assert.Equal(t, data, b)
		r.Signature("any text at all")
	})
}

func FuzzSignature(f *testing.F) {
	f.Add("Oil prices rose.", "Oil prices fell.")
	f.Add("", "\xff\xfe")
	f.Add("KADIN İSTANBUL'DA ıI", "kadın istanbul'da ıı")
	ref := Default()
	f.Fuzz(func(t *testing.T, a, b string) {
		sa, sb := ref.Signature(a), ref.Signature(b)
		for j, x := range naiveSignature(ref, a) {
			if math.Float32bits(x) != math.Float32bits(sa[j]) {
				t.Fatalf("Signature(%q) part %d is %v, one trigram at a time %v", a, j, sa[j], x)
			}
		}
		for _, x := range sa {
			if !(x >= 0 && x <= 1) {
				t.Fatalf("Signature(%q) has %v outside [0, 1]", a, x)
			}
		}
		if s := Cosine(sa, sb); !(s >= 0 && s <= 1) {
			t.Fatalf("Cosine = %v", s)
		}
		if c := ref.TrigramCosine(a, b); !(c >= 0 && c <= 1) {
			t.Fatalf("TrigramCosine = %v", c)
		}
	})
}

func TestCentered(t *testing.T) {
	ref, err := NewReference([]string{"abc", "xyz", "bca", "abc"}, 2, TextConfig{})
	require.NoError(t, err)
	assert.Nil(t, ref.Center())
	assert.Panics(t, func() { ref.AppendCentered(nil, []float32{1, 1}) })
	// Unit signatures: "abcabc" → (2, 3)/√13, "xyz" → (1, 0).
	c := ref.Centered([]string{"abcabc", "xyz", "no trigram of the reference"})
	want := []float32{float32((2/math.Sqrt(13) + 1) / 2), float32((3 / math.Sqrt(13)) / 2)}
	assert.InDeltaSlice(t, want, c.Center(), 1e-6)
	assert.Equal(t, ref.Genes(), c.Genes())
	sig := c.Signature("xyz")
	got := c.AppendCentered(nil, sig)
	assert.InDeltaSlice(t, []float32{1 - want[0], -want[1]}, got, 1e-6)
	assert.Equal(t, []float32{0, 0}, c.AppendCentered(nil, []float32{0, 0}))
	assert.Panics(t, func() { c.AppendCentered(nil, []float32{1}) })
	assert.Nil(t, ref.Centered(nil).Center(), "no text: no center")
}

// overlong returns the encoding of a small reference whose Parts varint is
// re-encoded in two bytes instead of one, with a valid checksum: the input
// coverage-guided fuzzing first found accepted.
func overlong(t testing.TB) []byte {
	ref, err := NewReference([]string{"abc", "xyz", "bca"}, 2, TextConfig{})
	require.NoError(t, err)
	b, err := ref.MarshalBinary()
	require.NoError(t, err)
	const at = len(refMagic) + 3 + 1 // magic, version, Normalization, Binary, empty Language
	require.Equal(t, byte(2), b[at], "Parts")
	body := slices.Concat(b[:at], []byte{0x82, 0x00}, b[at+1:len(b)-8])
	return binary.LittleEndian.AppendUint64(body, hashtab.Bytes64(body, 0))
}

func TestUnmarshalOverlongVarint(t *testing.T) {
	data := overlong(t)
	var r Reference
	err := r.UnmarshalBinary(data)
	require.ErrorIs(t, err, ErrFormat, "a varint not in its shortest form")
	assert.Zero(t, r.Parts(), "r is left unchanged")
	// The same bytes with the shortest varint decode.
	ok := slices.Concat(data[:8], []byte{0x02}, data[10:len(data)-8])
	ok = binary.LittleEndian.AppendUint64(ok, hashtab.Bytes64(ok, 0))
	require.NoError(t, r.UnmarshalBinary(ok))
	assert.Equal(t, 2, r.Parts())
}

func TestZeroReference(t *testing.T) {
	var r Reference
	assert.Zero(t, r.Parts())
	assert.Empty(t, r.Genes())
	assert.Empty(t, r.Signature("Oil prices rose sharply."))
	assert.Equal(t, []float32{7}, r.AppendSignature([]float32{7}, "text"))
	assert.Zero(t, Cosine(r.Signature("a b c"), r.Signature("a b c")))
	assert.InDelta(t, 1, r.TrigramCosine("same text", "same text"), 1e-9, "TrigramCosine needs no genes")
	assert.Nil(t, r.Centered([]string{"some text"}).Center())
	_, err := r.MarshalBinary()
	assert.ErrorIs(t, err, errors.ErrUnsupported)
	_, err = NewWithReference(Config{}, &r)
	assert.ErrorIs(t, err, detector.ErrInvalidConfig)
}

// TestDefaultImmutable replaces the value Default returns while detectors
// made with the default run: neither later Defaults nor the detectors
// change (and -race sees no race).
func TestDefaultImmutable(t *testing.T) {
	want := Default().Genes()
	other, err := NewReference([]string{"abc", "xyz", "bca"}, 2, TextConfig{})
	require.NoError(t, err)
	otherBytes, err := other.MarshalBinary()
	require.NoError(t, err)
	d, err := New(Config{})
	require.NoError(t, err)
	text := "Wheat and corn exports from the port rose 12 pct in the week."
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		for range 50 {
			r := Default()
			assert.NoError(t, r.UnmarshalBinary(otherBytes))
			assert.Equal(t, 2, r.Parts())
		}
	}()
	go func() {
		defer wg.Done()
		for i := range 50 {
			_, err := d.Add(detector.Doc{ID: fmt.Sprint(i), Text: text})
			assert.NoError(t, err)
			e, err := New(Config{})
			assert.NoError(t, err)
			assert.Equal(t, DefaultParts, e.Reference().Parts())
		}
	}()
	wg.Wait()
	assert.Equal(t, want, Default().Genes())
	assert.Equal(t, DefaultParts, d.Reference().Parts())
	ms, err := d.Add(detector.Doc{ID: "last", Text: text})
	require.NoError(t, err)
	assert.Len(t, ms, 50, "every earlier copy is still found")
}
