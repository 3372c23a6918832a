package mrcosine

import (
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/enum"
	"github.com/seed-9ef9c1df/neardup/internal/hashtab"
	"github.com/seed-9ef9c1df/neardup/textproc"
)

// Normalization selects how a text becomes the character sequence its
// trigrams are read from. Mohammadi and Khasteh 2020 §3 says only that "each
// text ... is considered as a sequence of 3-grams" of characters, so
// normalisation is a choice; these are the plausible readings.
type Normalization int

const (
	// Normalized (the default, 0) folds the text as the module's text
	// pipeline does (textproc.Folder: NFC, lower-cased with the language's
	// rules, Turkish "I" → "ı", "İ" → "i"), and maps every run
	// of characters that are not letters, digits or combining marks (and
	// invalid UTF-8) to one space, trimmed at both ends.
	Normalized Normalization = iota
	// LettersOnly is Normalized with digits treated as separators too.
	LettersOnly
	// Raw reads the text's characters as they are: no case folding, no
	// collapsing of separators. Invalid UTF-8 bytes read as U+FFFD.
	Raw
)

// String returns the name of n.
func (n Normalization) String() string {
	return enum.String("Normalization", int(n), "normalized", "letters-only", "raw")
}

// TextConfig says how texts are turned into trigram profiles. A [Reference]
// carries the TextConfig it was built under, so signatures made with it are
// always comparable. The zero value is the reading this package
// prefers where the paper is silent: normalized text, term-frequency
// cosine, language-neutral case folding.
type TextConfig struct {
	// Normalization of the text before trigrams are taken.
	Normalization Normalization
	// Language is a BCP 47 tag for case folding, parsed as every
	// detector's Language is (textproc.ParseLanguage): "tr" and "az" fold
	// the dotted and dotless i the Turkish way; "" and every other
	// language fold by Unicode's default rules (textproc.RuleSet).
	Language string
	// Binary selects set cosine (each distinct trigram counts once) instead
	// of the term-frequency cosine (the paper does not say which).
	Binary bool
}

func (tc TextConfig) validate(pkg string) error {
	if tc.Normalization < Normalized || tc.Normalization > Raw {
		return fmt.Errorf("%s: Normalization (%d) must be Normalized (0), LettersOnly (1) or Raw (2)", pkg, int(tc.Normalization))
	}
	if _, err := textproc.ParseLanguage(tc.Language); err != nil {
		return fmt.Errorf("%s: %w", pkg, err)
	}
	return nil
}

// invalid wraps a validation error in detector.ErrInvalidConfig unless it
// already is one (a Language error from textproc.ParseLanguage).
func invalid(err error) error {
	if errors.Is(err, detector.ErrInvalidConfig) {
		return err
	}
	return fmt.Errorf("%w: %w", err, detector.ErrInvalidConfig)
}

// folders caches the textproc.Folder of each Language (parsing a tag
// allocates).
var folders sync.Map // string → textproc.Folder

// folder returns the case folder of tc.Language.
func (tc TextConfig) folder() textproc.Folder {
	if tc.Language == "" {
		return textproc.Folder{}
	}
	if f, ok := folders.Load(tc.Language); ok {
		return f.(textproc.Folder)
	}
	tag, _ := textproc.ParseLanguage(tc.Language) // validated: never fails
	f := textproc.NewFolder(tag)
	folders.Store(tc.Language, f)
	return f
}

// Trigram codes pack three runes of 21 bits each; bit 63 is always set so no
// code is zero (the empty slot of [counter]).
const codeMark = 1 << 63

func pack(a, b, c rune) uint64 {
	return codeMark | uint64(a&0x1fffff)<<42 | uint64(b&0x1fffff)<<21 | uint64(c&0x1fffff)
}

// trigramString returns the three characters of a code.
func trigramString(code uint64) string {
	var buf [12]byte
	b := utf8.AppendRune(buf[:0], rune(code>>42&0x1fffff))
	b = utf8.AppendRune(b, rune(code>>21&0x1fffff))
	b = utf8.AppendRune(b, rune(code&0x1fffff))
	return string(b)
}

// parseTrigram returns the code of a string of exactly three runes.
func parseTrigram(s string) (uint64, bool) {
	r := []rune(s)
	if len(r) != 3 {
		return 0, false
	}
	return pack(r[0], r[1], r[2]), true
}

func isWordRune(r rune, digits bool) bool {
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || digits && '0' <= r && r <= '9'
	}
	if r == utf8.RuneError {
		return false
	}
	return unicode.IsLetter(r) || digits && unicode.IsDigit(r) || unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Mc, r)
}

// eachTrigram calls fn with the code of every overlapping character trigram
// of text under tc (stride 1, spaces included): the trigrams of the
// character sequence eachChar reads (TestTrigramsOfChars), in a loop of its
// own, the hot path of signing. Normalized and LettersOnly fold the text
// into *buf first (textproc.Folder), which allocates only when buf is too
// small or text is not in NFC. O(len(text)).
func eachTrigram(tc TextConfig, text string, buf *[]byte, fn func(code uint64)) {
	var r0, r1 rune
	n := 0
	emit := func(r rune) {
		if n >= 2 {
			fn(pack(r0, r1, r))
		}
		r0, r1 = r1, r
		n++
	}
	if tc.Normalization == Raw {
		for _, r := range text {
			emit(r)
		}
		return
	}
	*buf = tc.folder().AppendFold((*buf)[:0], text)
	folded := *buf
	digits := tc.Normalization == Normalized
	space := false
	for i := 0; i < len(folded); {
		r, w := rune(folded[i]), 1
		if r >= utf8.RuneSelf {
			r, w = utf8.DecodeRune(folded[i:])
		}
		i += w
		if !isWordRune(r, digits) {
			space = n > 0
			continue
		}
		if space {
			emit(' ')
			space = false
		}
		emit(r)
	}
}

// eachChar calls fn with every character of text as tc reads it: under Raw
// the text's runes; under Normalized and LettersOnly the runes of the
// folded text (textproc.Folder, into *buf, which allocates only when buf is
// too small or text is not in NFC) with every run of other characters read
// as one space, none at either end. O(len(text)).
func eachChar(tc TextConfig, text string, buf *[]byte, emit func(r rune)) {
	if tc.Normalization == Raw {
		for _, r := range text {
			emit(r)
		}
		return
	}
	*buf = tc.folder().AppendFold((*buf)[:0], text)
	folded := *buf
	digits := tc.Normalization == Normalized
	space, seen := false, false
	for i := 0; i < len(folded); {
		r, w := rune(folded[i]), 1
		if r >= utf8.RuneSelf {
			r, w = utf8.DecodeRune(folded[i:])
		}
		i += w
		if !isWordRune(r, digits) {
			space = seen
			continue
		}
		if space {
			emit(' ')
			space = false
		}
		emit(r)
		seen = true
	}
}

// readDigest returns a 128-bit digest of the character sequence tc reads
// of text (eachChar), and false when it reads none: two texts the detector
// reads alike have the same digest. It identifies the exact copies of a
// text whose signature cannot (see [Detector.Copies]). O(len(text)).
func readDigest(tc TextConfig, text string, buf *[]byte) (hashtab.Digest, bool) {
	h0, h1 := uint64(0x6d72632d74787430), uint64(0x6d72632d74787431)
	n := uint64(0)
	eachChar(tc, text, buf, func(r rune) {
		h0 = hashtab.Combine(h0, uint64(r))
		h1 = hashtab.Combine(h1, uint64(r)^0x9e3779b97f4a7c15)
		n++
	})
	if n == 0 {
		return hashtab.Digest{}, false
	}
	var d hashtab.Digest
	binary.LittleEndian.PutUint64(d[:8], hashtab.Combine(h0, n))
	binary.LittleEndian.PutUint64(d[8:], hashtab.Combine(h1, n))
	return d, true
}

// counter is an open-addressing multiset of trigram codes that is reset in
// time proportional to what it holds, so counting a document's trigrams
// allocates nothing once the table has grown to the document's size. It
// stays beside hashtab.Map because BenchmarkServe shows it paying: with a
// Map in its place, mrcosine and mrcosine-centered spent 22-36% more CPU
// per document on Add and Query (docs/notes/engine.md).
type counter struct {
	slots []slot
	used  []uint32 // occupied slots, in insertion order
	mask  uint64
	text  []byte // scratch: the folded text
}

// slot is one entry of a counter: a code and its count side by side, so
// that counting touches one cache line.
type slot struct {
	key uint64
	val uint32
}

func (c *counter) reset() {
	for _, s := range c.used {
		c.slots[s] = slot{}
	}
	c.used = c.used[:0]
}

// inc adds one occurrence of code and returns its count before the call.
func (c *counter) inc(code uint64) uint32 {
	if 2*(len(c.used)+1) > len(c.slots) {
		c.grow()
	}
	for s := hashtab.Mix64(code) & c.mask; ; s = (s + 1) & c.mask {
		e := &c.slots[s]
		switch e.key {
		case code:
			e.val++
			return e.val - 1
		case 0:
			e.key, e.val = code, 1
			c.used = append(c.used, uint32(s))
			return 0
		}
	}
}

func (c *counter) grow() {
	size := max(2*len(c.slots), 256)
	slots, used := c.slots, c.used
	c.slots = hashtab.FreshSlice[slot](size)
	c.used = make([]uint32, 0, size/2)
	c.mask = uint64(size - 1)
	for _, s := range used {
		code, v := slots[s].key, slots[s].val
		for t := hashtab.Mix64(code) & c.mask; ; t = (t + 1) & c.mask {
			if c.slots[t].key == 0 {
				c.slots[t] = slot{code, v}
				c.used = append(c.used, uint32(t))
				break
			}
		}
	}
}

// profile is the sparse trigram vector of one text: distinct codes in
// ascending order with their counts (all 1 under Binary), and the vector's
// Euclidean norm.
type profile struct {
	codes  []uint64
	counts []uint32
	norm   float64
}

// makeProfile counts the trigrams of text into c (which it resets) and
// returns the profile.
func makeProfile(tc TextConfig, text string, c *counter) profile {
	c.reset()
	eachTrigram(tc, text, &c.text, func(code uint64) { c.inc(code) })
	p := profile{codes: make([]uint64, len(c.used)), counts: make([]uint32, len(c.used))}
	order := make([]int, len(c.used))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return cmp.Compare(c.slots[c.used[a]].key, c.slots[c.used[b]].key) })
	var ss float64
	for i, k := range order {
		s := c.used[k]
		v := c.slots[s].val
		if tc.Binary {
			v = 1
		}
		p.codes[i], p.counts[i] = c.slots[s].key, v
		ss += float64(v) * float64(v)
	}
	p.norm = math.Sqrt(ss)
	return p
}

// cosine returns the cosine of two profiles, 0 if either is empty.
func (p profile) cosine(q profile) float64 {
	if p.norm == 0 || q.norm == 0 {
		return 0
	}
	var dot float64
	i, j := 0, 0
	for i < len(p.codes) && j < len(q.codes) {
		switch {
		case p.codes[i] < q.codes[j]:
			i++
		case p.codes[i] > q.codes[j]:
			j++
		default:
			dot += float64(p.counts[i]) * float64(q.counts[j])
			i++
			j++
		}
	}
	return min(dot/(p.norm*q.norm), 1)
}
