package mrcosine

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/detector"
)

// degenerateTexts are texts every other detector indexes, most of them
// with a zero signature (no trigram in the reference) or, centred, the
// centre: one huge token, a word repeated, words separated by NUL bytes
// (of common and of rare trigrams), zalgo (letters under piles of
// combining marks), right-to-left text with bidi controls, one letter,
// Arabic-Indic digits.
var degenerateTexts = map[string]string{
	"huge token":   strings.Repeat("x", 200_000),
	"word repeat":  strings.TrimSpace(strings.Repeat("buffalo ", 5000)),
	"NUL words":    "alpha\x00beta\x00gamma\x00delta\x00epsilon",
	"rare repeat":  strings.Repeat("qzx ", 3000),
	"rare NUL":     "qzxj\x00vqwk\x00jxzq",
	"zalgo":        "Z\u0336\u0321\u031b\u0337a\u0337\u0328\u0300\u0301l\u0336\u0323\u0302g\u0338\u0325\u0303o\u0335\u0326\u0304 t\u0334\u0327e\u0333\u0305x\u0332\u0306t\u0331\u0307",
	"RTL bidi":     "\u202bשלום עולם, מה שלומך היום?\u202c \u200fמחר ירד גשם\u200f",
	"one letter":   "q",
	"arabic digit": "\u0661\u0662\u0663 \u0664\u0665\u0666",
}

// degenerateConfigs are the registry's two mrcosine presets: the package
// default and mrcosine-centered (registry.go sets Centered), each with the
// index and exhaustive.
var degenerateConfigs = []struct {
	name string
	cfg  Config
}{
	{"mrcosine", Config{}},
	{"mrcosine-centered", Config{Centered: true}},
	{"exhaustive", Config{Exhaustive: true}},
	{"centered-exhaustive", Config{Centered: true, Exhaustive: true}},
}

// TestDegenerateCopies: an exact copy of a degenerate text is reported by
// Add, Query, Containers (both ways) and Copies, with score 1, and a
// different degenerate text is not; the copies survive a snapshot.
func TestDegenerateCopies(t *testing.T) {
	for _, c := range degenerateConfigs {
		for name, text := range degenerateTexts {
			t.Run(c.name+"/"+name, func(t *testing.T) {
				d := mustNew(t, c.cfg)
				ms, err := d.Add(detector.Doc{ID: "a", Text: text})
				require.NoError(t, err)
				assert.Empty(t, ms)
				// Not copies: another degenerate text, and the text with
				// one more character.
				for other, otext := range degenerateTexts {
					if other == name {
						continue
					}
					ms, err := d.Add(detector.Doc{ID: "other " + other, Text: otext})
					require.NoError(t, err)
					assert.NotContains(t, ids(ms), "a", "%s is no copy of %s", other, name)
				}
				// A longer text reads other characters; when the signature
				// is degenerate that makes it no copy (a text with a
				// signature may keep its unit vector, and be a copy).
				sg := d.sign(text)
				zero := sg.vec == nil
				d.release(sg)
				longer := "none"
				if zero {
					longer = "longer"
					ms, err = d.Add(detector.Doc{ID: longer, Text: text + "z"})
					require.NoError(t, err)
					assert.NotContains(t, ids(ms), "a")
				}
				t.Logf("degenerate signature: %v", zero)

				ms, err = d.Add(detector.Doc{ID: "b", Text: text})
				require.NoError(t, err)
				require.Contains(t, ids(ms), "a", "Add of an exact copy")
				assert.Equal(t, 1.0, ms[0].Score)
				ms, err = d.Query(detector.Doc{ID: "q", Text: text})
				require.NoError(t, err)
				assert.Equal(t, []string{"a", "b"}, ids(ms)[:2], "Query")
				for _, pair := range [][2]string{{"a", "b"}, {"b", "a"}} {
					ms, err := d.Containers(pair[0])
					require.NoError(t, err)
					assert.Contains(t, ids(ms), pair[1], "Containers(%s)", pair[0])
					assert.NotContains(t, ids(ms), longer)
					cp, err := d.Copies(pair[0])
					require.NoError(t, err)
					assert.Equal(t, []string{pair[1]}, cp, "Copies(%s)", pair[0])
				}

				e := load(t, c.cfg, encode(t, d))
				cp, err := e.Copies("a")
				require.NoError(t, err)
				assert.Equal(t, []string{"b"}, cp, "Copies after a snapshot")
				ms, err = e.Add(detector.Doc{ID: "c", Text: text})
				require.NoError(t, err)
				assert.Equal(t, []string{"a", "b"}, ids(ms)[:2], "Add after a snapshot")
				assert.Equal(t, encode(t, d), encode(t, load(t, c.cfg, encode(t, d))))

				require.NoError(t, d.Remove("a"))
				cp, err = d.Copies("b")
				require.NoError(t, err)
				assert.Empty(t, cp, "Copies after Remove")
				require.NoError(t, d.Remove("b"))
				ms, err = d.Query(detector.Doc{Text: text})
				require.NoError(t, err)
				assert.Empty(t, ms, "Query after both copies left")
			})
		}
	}
}

// TestDegenerateFlood: a flood of copies of a degenerate text is capped at
// MaxResults, the smallest IDs, and removing them one by one leaves the
// rest grouped.
func TestDegenerateFlood(t *testing.T) {
	text := degenerateTexts["rare NUL"]
	d := mustNew(t, Config{MaxResults: 5})
	for i := range 50 {
		ms, err := d.Add(detector.Doc{ID: fmt.Sprintf("c%02d", 49-i), Text: text})
		require.NoError(t, err)
		assert.Len(t, ms, min(i, 5))
	}
	ms, err := d.Containers("c10")
	require.NoError(t, err)
	assert.Equal(t, []string{"c00", "c01", "c02", "c03", "c04"}, ids(ms))
	for i := range 48 {
		require.NoError(t, d.Remove(fmt.Sprintf("c%02d", i)))
	}
	cp, err := d.Copies("c48")
	require.NoError(t, err)
	assert.Equal(t, []string{"c49"}, cp)
}

// TestDegenerateRoundTrip: the snapshot round trip of the reliability
// suite over a stream with floods of degenerate copies and removals.
func TestDegenerateRoundTrip(t *testing.T) {
	var texts []string
	for _, name := range []string{"huge token", "word repeat", "rare repeat", "NUL words", "rare NUL", "zalgo", "RTL bidi", "one letter"} {
		texts = append(texts, degenerateTexts[name])
	}
	texts = append(texts, synthTexts(20, 3)...)
	ops := floodStream(texts, 3, 5)
	for _, c := range degenerateConfigs {
		t.Run(c.name, func(t *testing.T) { roundTrip(t, c.cfg, ops) })
	}
}

// ids returns the IDs of ms.
func ids(ms []detector.Match) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.ID
	}
	return out
}

// TestZeroTailChecks: decode accepts the digests' tail of the "zero"
// section only in the one form encode writes.
func TestZeroTailChecks(t *testing.T) {
	d := mustNew(t, Config{})
	for _, doc := range []detector.Doc{{ID: "a", Text: "q"}, {ID: "b", Text: "q"}, {ID: "e", Text: "..."}} {
		_, err := d.Add(doc)
		require.NoError(t, err)
	}
	groups, zero, _, err := d.encode()
	require.NoError(t, err)
	n, err := d.decode(groups, zero)
	require.NoError(t, err)
	assert.Equal(t, 3, n)
	loaded := load(t, Config{}, encode(t, d))
	cp, err := loaded.Copies("a")
	require.NoError(t, err)
	assert.Equal(t, []string{"b"}, cp, "a and b in one text group")
	cp, err = loaded.Copies("e")
	require.NoError(t, err)
	assert.Empty(t, cp)
	ids := zero[:len(zero)-(17+17+1)] // count and IDs: a, b with digests, e without
	require.Equal(t, []byte{1}, zero[len(ids):len(ids)+1])
	for name, bad := range map[string][]byte{
		"no digest in the tail": append(bytes.Clone(ids), 0, 0, 0),
		"a flag of 2":           append(bytes.Clone(ids), append([]byte{2}, zero[len(ids)+1:]...)...),
		"a short tail":          zero[:len(zero)-1],
		"a trailing byte":       append(bytes.Clone(zero), 0),
	} {
		_, err := d.decode(groups, bad)
		require.ErrorIs(t, err, detector.ErrSnapshot, name)
	}
}

// TestTrigramsOfChars: eachTrigram reads the trigrams of the characters
// eachChar reads, under every Normalization.
func TestTrigramsOfChars(t *testing.T) {
	texts := []string{"", "a", "ab", "Abc", "  Hello,  World!! 42 ", "İSTANBUL'da ıI", "\xff\xfeab\x00cd", "é\u0301 x"}
	for _, text := range degenerateTexts {
		texts = append(texts, text[:min(len(text), 200)])
	}
	texts = append(texts, synthTexts(5, 1)...)
	for _, n := range []Normalization{Normalized, LettersOnly, Raw} {
		for _, lang := range []string{"", "tr"} {
			tc := TextConfig{Normalization: n, Language: lang}
			for _, text := range texts {
				var chars []rune
				eachChar(tc, text, new([]byte), func(r rune) { chars = append(chars, r) })
				var want, got []uint64
				for i := 2; i < len(chars); i++ {
					want = append(want, pack(chars[i-2], chars[i-1], chars[i]))
				}
				eachTrigram(tc, text, new([]byte), func(c uint64) { got = append(got, c) })
				require.Equal(t, want, got, "%v %q: %q", n, lang, text)
				_, ok := readDigest(tc, text, new([]byte))
				assert.Equal(t, len(chars) > 0, ok)
			}
		}
	}
}
