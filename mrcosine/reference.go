package mrcosine

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/engine"
	"github.com/seed-9ef9c1df/neardup/internal/hashtab"
	"github.com/seed-9ef9c1df/neardup/internal/snapshot"
)

// Defaults of a reference text (Mohammadi and Khasteh 2020 Table 4: "1000
// 3-grams, 150 partitions" has the lowest MAE, 0.1047, and is the
// configuration of every other experiment of §4).
const (
	// DefaultGenes is the length of a reference text in trigrams.
	DefaultGenes = 1000
	// DefaultParts is the number of parts a reference text is split into,
	// which is the length of a signature.
	DefaultParts = 150
)

// Reference is a multireference text (Mohammadi and Khasteh 2020 §3.3): a
// sequence of character-trigram genes split into contiguous parts, each part
// one reference a document is compared with. It is immutable (but for
// [Reference.UnmarshalBinary]), and safe for concurrent use by multiple
// goroutines.
//
// The zero Reference is an empty reference text of no genes and no parts:
// its signatures are empty (and compare at cosine 0), [NewWithReference]
// rejects it, and [Reference.MarshalBinary] returns an error. Make one with
// [NewReference], [Train] or [Reference.UnmarshalBinary], or use [Default].
//
// The paper (§3.6) calls the reference "a sequence of characters" but
// mutates it trigram by trigram; here it is a list of trigram genes (repeats
// allowed), not a concatenated string, so no junction trigram the GA never
// chose takes part. The paper says only that the reference is split into
// parts; here part j holds genes [bounds[j], bounds[j+1]) of
// near-equal sizes, longer parts first (1000/150 → 100 parts of 7, 50 of 6).
type Reference struct {
	tc     TextConfig
	genes  []uint64
	bounds []int // part j is genes[bounds[j]:bounds[j+1]]
	pnorm  []float64
	center []float32 // mean unit signature of a collection, or nil

	// The trigram → (part, count) table: table maps a gene to its number
	// k, whose entries are entries[starts[k]:starts[k+1]]; and a bitmap of
	// the genes by the top bits of their hash, which answers most
	// trigrams of a text (not genes) with one load.
	has     []uint64
	table   hashtab.Map
	starts  []uint32
	entries []entry

	scratch *engine.Pool[*sigScratch]
}

type entry struct {
	part  uint32
	count float64
}

type sigScratch struct {
	c   counter
	dot []float64
}

// NewReference returns the reference text of genes (each exactly three
// characters, as produced under tc) split into parts contiguous parts. It
// returns an error wrapping [detector.ErrInvalidConfig] if genes is empty, a
// gene is not three characters, parts is not in [1, len(genes)] or tc is
// invalid.
func NewReference(genes []string, parts int, tc TextConfig) (*Reference, error) {
	codes := make([]uint64, len(genes))
	for i, g := range genes {
		c, ok := parseTrigram(g)
		if !ok {
			return nil, fmt.Errorf("mrcosine: gene %d (%q) must be exactly 3 characters: %w", i, g, detector.ErrInvalidConfig)
		}
		codes[i] = c
	}
	return newReference(codes, parts, tc)
}

func newReference(codes []uint64, parts int, tc TextConfig) (*Reference, error) {
	if err := tc.validate("mrcosine"); err != nil {
		return nil, invalid(err)
	}
	if len(codes) == 0 {
		return nil, fmt.Errorf("mrcosine: a reference text needs at least one gene: %w", detector.ErrInvalidConfig)
	}
	if parts < 1 || parts > len(codes) {
		return nil, fmt.Errorf("mrcosine: Parts (%d) must be in [1, %d], the number of genes: %w", parts, len(codes), detector.ErrInvalidConfig)
	}
	r := &Reference{tc: tc, genes: codes, bounds: partBounds(len(codes), parts)}
	r.build()
	return r, nil
}

// partBounds splits n genes into p contiguous parts of near-equal size,
// longer parts first (the paper does not say how it splits).
func partBounds(n, p int) []int {
	b := make([]int, p+1)
	size, extra := n/p, n%p
	for j := range p {
		w := size
		if j < extra {
			w++
		}
		b[j+1] = b[j] + w
	}
	return b
}

// build derives the per-part norms and the trigram → (part, count) table.
func (r *Reference) build() {
	parts := len(r.bounds) - 1
	r.pnorm = make([]float64, parts)
	per := map[uint64][]entry{}
	var order []uint64
	for j := range parts {
		cnt := map[uint64]float64{}
		var seq []uint64
		for _, g := range r.genes[r.bounds[j]:r.bounds[j+1]] {
			if cnt[g] == 0 {
				seq = append(seq, g)
			}
			cnt[g]++
		}
		var ss float64
		for _, g := range seq {
			c := cnt[g]
			if r.tc.Binary {
				c = 1 // a part is a set under Binary
			}
			ss += c * c
			if _, ok := per[g]; !ok {
				order = append(order, g)
			}
			per[g] = append(per[g], entry{uint32(j), c})
		}
		r.pnorm[j] = math.Sqrt(ss)
	}
	r.table = hashtab.Map{}
	r.table.Reserve(len(order))
	r.starts = make([]uint32, 0, len(order)+1)
	r.has = make([]uint64, hasWords)
	for k, g := range order {
		h := hashtab.Mix64(g)
		r.has[h>>hasShift] |= 1 << (h >> (hasShift - 6) & 63)
		r.table.Set(g, uint32(k))
		r.starts = append(r.starts, uint32(len(r.entries)))
		r.entries = append(r.entries, per[g]...)
	}
	r.starts = append(r.starts, uint32(len(r.entries)))
	r.scratch = &engine.Pool[*sigScratch]{New: func() (*sigScratch, error) { return &sigScratch{dot: make([]float64, parts)}, nil }}
}

// The gene bitmap has hasWords·64 bits (4 KiB), addressed by the top bits
// of a trigram's hash; the table's slots use the low bits. With at most a
// few thousand genes most trigrams that are not genes find their bit clear.
const (
	hasWords = 512
	hasShift = 64 - 9 // log2(hasWords) = 9
)

func (r *Reference) lookup(code uint64) []entry {
	h := hashtab.Mix64(code)
	if r.has[h>>hasShift]>>(h>>(hasShift-6)&63)&1 == 0 {
		return nil
	}
	k, ok := r.table.Get(code)
	if !ok {
		return nil
	}
	return r.entries[r.starts[k]:r.starts[k+1]]
}

// Genes returns a copy of the reference's trigram genes in order.
func (r *Reference) Genes() []string {
	out := make([]string, len(r.genes))
	for i, g := range r.genes {
		out[i] = trigramString(g)
	}
	return out
}

// Parts returns the number of parts, which is the length of a signature.
func (r *Reference) Parts() int { return max(len(r.bounds)-1, 0) }

// TextConfig returns the text configuration signatures are made under.
func (r *Reference) TextConfig() TextConfig { return r.tc }

// Signature returns the multireference signature of text (Mohammadi and
// Khasteh 2020 §3.4): element j is the cosine between the trigram vector of
// text and that of part j of the reference,
//
//	sig_j(D) = Σ_g tf_D(g)·tf_Rj(g) / (‖tf_D‖₂·‖tf_Rj‖₂)
//
// where ‖tf_D‖₂ runs over all trigrams of D. The paper does not say whether
// counts or presence are used; this is the term-frequency reading of "how
// frequent the 3-grams of that specific reference text are in the selected
// text document". A text with no trigram in the
// reference has the zero signature. Time O(len(text) + Genes), through the
// trigram → parts table.
func (r *Reference) Signature(text string) []float32 {
	return r.AppendSignature(make([]float32, 0, r.Parts()), text)
}

// AppendSignature appends the signature of text to dst and returns the
// extended slice. It allocates nothing when dst has room and text is in NFC
// (after warm-up of the reference's scratch buffers).
func (r *Reference) AppendSignature(dst []float32, text string) []float32 {
	if len(r.genes) == 0 {
		return dst // the zero Reference: no parts
	}
	sc, _ := r.scratch.Get() // New never fails
	sc.c.reset()
	dot := sc.dot
	clear(dot)
	c := &sc.c
	eachTrigram(r.tc, text, &c.text, func(code uint64) { c.inc(code) })
	// One lookup per distinct trigram, weighted by its count. Counts and
	// the parts' gene counts are integers, so every sum below is exact
	// and does not depend on the order the trigrams are visited in.
	var ss float64
	binary := r.tc.Binary
	for _, s := range c.used {
		e := c.slots[s]
		v := float64(e.val)
		if binary {
			v = 1
		}
		ss += v * v
		for _, p := range r.lookup(e.key) {
			dot[p.part] += v * p.count
		}
	}
	norm := math.Sqrt(ss)
	for j, d := range dot {
		v := 0.0
		if d > 0 {
			v = min(d/(norm*r.pnorm[j]), 1)
		}
		dst = append(dst, float32(v))
	}
	if cap(sc.c.slots) <= maxKeptSlots && cap(sc.c.text) <= maxKeptText {
		r.scratch.Put(sc) // else drop it: one outlier must not pin its tables
	}
	return dst
}

// Scratch larger than this (after an outlier text) is dropped instead of
// being kept for the next signature.
const (
	maxKeptSlots = 1 << 17 // counter slots: texts of about 64k distinct trigrams
	maxKeptText  = 1 << 20 // bytes of folded text
)

// TrigramCosine returns the cosine between the full character-trigram
// vectors of a and b under the reference's TextConfig: the "traditional
// cosine text similarity" multireference cosine approximates (Mohammadi and
// Khasteh 2020 §3.6.3, which does not define it; here the same trigram
// representation). It is 0 when either text has no trigram.
func (r *Reference) TrigramCosine(a, b string) float64 {
	var c counter
	pa := makeProfile(r.tc, a, &c)
	pb := makeProfile(r.tc, b, &c)
	return pa.cosine(pb)
}

// Cosine returns the cosine of two signatures (Mohammadi and Khasteh 2020
// §3.5: signatures are compared "using a vector similarity measure such as
// cosine"), 0 if either is the zero vector. It panics if their lengths
// differ: signatures of different references are not comparable. It does not
// allocate.
func Cosine(a, b []float32) float64 {
	if len(a) != len(b) {
		panic(fmt.Sprintf("mrcosine: Cosine of signatures of lengths %d and %d", len(a), len(b)))
	}
	var dot, na, nb float64
	for i := range a {
		x, y := float64(a[i]), float64(b[i])
		dot += x * y
		na += x * x
		nb += y * y
	}
	if na == 0 || nb == 0 {
		return 0
	}
	return min(dot/math.Sqrt(na*nb), 1)
}

// Centered returns a copy of r whose center is the mean of the unit-length
// signatures of texts (texts with the zero signature are skipped), for
// comparing signatures by [Config].Centered. The center is not in the paper:
// every signature is non-negative and shares a common direction, so the
// cosine of two unrelated news texts is already high; measured from the
// center, signatures of unrelated texts spread out (measured figures:
// docs/mrcosine.md and docs/notes/mrcosine.md in the repository).
// Time O(Σ len(text) + len(texts)·Genes).
func (r *Reference) Centered(texts []string) *Reference {
	mean := make([]float64, r.Parts())
	n := 0
	buf := make([]float32, 0, r.Parts())
	for _, t := range texts {
		buf = r.AppendSignature(buf[:0], t)
		var ss float64
		for _, x := range buf {
			ss += float64(x) * float64(x)
		}
		if ss == 0 {
			continue
		}
		inv := 1 / math.Sqrt(ss)
		for j, x := range buf {
			mean[j] += float64(x) * inv
		}
		n++
	}
	c := r.clone()
	c.center = nil
	if n > 0 {
		c.center = make([]float32, len(mean))
		for j, m := range mean {
			c.center[j] = float32(m / float64(n))
		}
	}
	return c
}

// clone returns a Reference sharing r's immutable tables, with scratch of
// its own.
func (r *Reference) clone() *Reference {
	c := *r
	if r.scratch != nil { // nil for the zero Reference
		c.scratch = &engine.Pool[*sigScratch]{New: r.scratch.New}
	}
	return &c
}

// Center returns a copy of the reference's center (see [Reference.Centered]),
// or nil if it has none.
func (r *Reference) Center() []float32 { return slices.Clone(r.center) }

// AppendCentered appends to dst the signature sig scaled to unit length
// minus the reference's center: the vector [Config].Centered compares by
// cosine. A zero sig gives zeros. It panics if r has no center or len(sig)
// is not Parts.
func (r *Reference) AppendCentered(dst, sig []float32) []float32 {
	if len(r.center) == 0 || len(sig) != len(r.center) {
		panic(fmt.Sprintf("mrcosine: AppendCentered of a signature of length %d with a center of length %d", len(sig), len(r.center)))
	}
	var ss float64
	for _, x := range sig {
		ss += float64(x) * float64(x)
	}
	if ss == 0 {
		for range sig {
			dst = append(dst, 0)
		}
		return dst
	}
	inv := 1 / math.Sqrt(ss)
	for j, x := range sig {
		dst = append(dst, float32(float64(x)*inv-float64(r.center[j])))
	}
	return dst
}

// Binary format: magic, version, TextConfig, parts, genes, center (count,
// then float32 bits), xxh3 checksum of everything before it.
const (
	refMagic   = "mrcR"
	refVersion = 1
)

// ErrFormat is wrapped by the error [Reference.UnmarshalBinary] returns for
// bytes that are not a marshalled reference text.
var ErrFormat = errors.New("mrcosine: malformed reference text")

// AppendBinary appends the binary encoding of r to b (encoding.BinaryAppender).
// It fails only for the zero Reference, with an error wrapping
// errors.ErrUnsupported.
func (r *Reference) AppendBinary(b []byte) ([]byte, error) {
	if len(r.genes) == 0 {
		return b, fmt.Errorf("mrcosine: cannot marshal the zero Reference: %w", errors.ErrUnsupported)
	}
	start := len(b)
	b = append(b, refMagic...)
	b = append(b, refVersion, byte(r.tc.Normalization))
	if r.tc.Binary {
		b = append(b, 1)
	} else {
		b = append(b, 0)
	}
	b = hashtab.AppendField(b, r.tc.Language)
	b = binary.AppendUvarint(b, uint64(r.Parts()))
	b = binary.AppendUvarint(b, uint64(len(r.genes)))
	for _, g := range r.genes {
		b = binary.AppendUvarint(b, g>>42&0x1fffff)
		b = binary.AppendUvarint(b, g>>21&0x1fffff)
		b = binary.AppendUvarint(b, g&0x1fffff)
	}
	b = binary.AppendUvarint(b, uint64(len(r.center)))
	for _, x := range r.center {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(x))
	}
	return binary.LittleEndian.AppendUint64(b, hashtab.Bytes64(b[start:], 0)), nil
}

// fingerprint identifies r's content (genes, parts, TextConfig and
// center) for snapshot headers: the xxh3 checksum that closes its binary
// encoding, which covers all of it. 0 for the zero Reference.
func (r *Reference) fingerprint() uint64 {
	b, err := r.AppendBinary(nil)
	if err != nil {
		return 0
	}
	return binary.LittleEndian.Uint64(b[len(b)-8:])
}

// MarshalBinary encodes r (encoding.BinaryMarshaler). It fails only for the
// zero Reference.
func (r *Reference) MarshalBinary() ([]byte, error) { return r.AppendBinary(nil) }

// UnmarshalBinary replaces r with the reference text encoded in data
// (encoding.BinaryUnmarshaler). It returns an error wrapping [ErrFormat] for
// anything but the exact output of MarshalBinary (every varint in its
// shortest form, a checksum over all of it), leaving r unchanged, and never
// panics. It must not run while r is in use; the value [Default] returns is
// the caller's own, so replacing it does not change the default.
func (r *Reference) UnmarshalBinary(data []byte) error {
	bad := func(what string) error { return fmt.Errorf("%w: %s", ErrFormat, what) }
	if len(data) < len(refMagic)+3+8 || string(data[:len(refMagic)]) != refMagic {
		return bad("bad magic")
	}
	body, sum := data[:len(data)-8], binary.LittleEndian.Uint64(data[len(data)-8:])
	if hashtab.Bytes64(body, 0) != sum {
		return bad("checksum mismatch")
	}
	p := body[len(refMagic):]
	if p[0] != refVersion {
		return bad(fmt.Sprintf("version %d, want %d", p[0], refVersion))
	}
	tc := TextConfig{Normalization: Normalization(p[1])}
	switch p[2] {
	case 0:
	case 1:
		tc.Binary = true
	default:
		return bad("bad Binary flag")
	}
	p = p[3:]
	uv := func() (uint64, bool) {
		v, n := binary.Uvarint(p)
		if n <= 0 || n != snapshot.UvarintLen(v) {
			return 0, false // truncated, overflowing or not in shortest form
		}
		p = p[n:]
		return v, true
	}
	ll, ok := uv()
	if !ok || ll > uint64(len(p)) {
		return bad("truncated language")
	}
	tc.Language, p = string(p[:ll]), p[ll:]
	parts, ok1 := uv()
	n, ok2 := uv()
	if !ok1 || !ok2 || n > uint64(len(p)) || parts > n {
		return bad("bad sizes")
	}
	codes := make([]uint64, n)
	for i := range codes {
		var rs [3]uint64
		for k := range rs {
			v, ok := uv()
			if !ok || v > maxRune {
				return bad("bad gene")
			}
			rs[k] = v
		}
		codes[i] = pack(rune(rs[0]), rune(rs[1]), rune(rs[2]))
	}
	nc, ok := uv()
	if !ok || (nc != 0 && nc != parts) || uint64(len(p)) != 4*nc {
		return bad("bad center")
	}
	var center []float32
	for i := range int(nc) {
		x := math.Float32frombits(binary.LittleEndian.Uint32(p[4*i:]))
		if !(x >= 0 && x <= 1) {
			return bad("center out of range")
		}
		center = append(center, x)
	}
	p = p[4*nc:]
	if len(p) != 0 {
		return bad("trailing bytes")
	}
	nr, err := newReference(codes, int(parts), tc)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrFormat, err)
	}
	nr.center = center
	*r = *nr
	return nil
}

const maxRune = 0x10ffff
