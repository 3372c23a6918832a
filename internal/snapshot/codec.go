package snapshot

import (
	"encoding/binary"
	"math"
)

// Enc appends the encodings a section's payload is made of.
type Enc struct {
	// B is the payload so far.
	B []byte
}

// Uvarint appends x as an unsigned varint.
func (e *Enc) Uvarint(x uint64) { e.B = binary.AppendUvarint(e.B, x) }

// Int appends a non-negative int as an unsigned varint.
func (e *Enc) Int(x int) { e.Uvarint(uint64(x)) }

// U64 appends 8 bytes, little endian.
func (e *Enc) U64(x uint64) { e.B = binary.LittleEndian.AppendUint64(e.B, x) }

// U32 appends 4 bytes, little endian.
func (e *Enc) U32(x uint32) { e.B = binary.LittleEndian.AppendUint32(e.B, x) }

// F64 appends the IEEE 754 bits of x.
func (e *Enc) F64(x float64) { e.U64(math.Float64bits(x)) }

// String appends a length-prefixed string.
func (e *Enc) String(s string) {
	e.Int(len(s))
	e.B = append(e.B, s...)
}

// Bool appends 0 or 1.
func (e *Enc) Bool(b bool) {
	if b {
		e.B = append(e.B, 1)
	} else {
		e.B = append(e.B, 0)
	}
}

// Dec reads a payload written with [Enc]. Errors are sticky: after the
// first, every read returns a zero value and [Dec.Err] the error, which
// wraps [ErrSnapshot].
type Dec struct {
	b   []byte
	err error
}

// NewDec returns a decoder of payload.
func NewDec(payload []byte) *Dec { return &Dec{b: payload} }

// Err returns the first error.
func (d *Dec) Err() error { return d.err }

// Done returns the first error, or an error if bytes remain unread.
func (d *Dec) Done() error {
	if d.err == nil && len(d.b) > 0 {
		d.Fail("%d bytes after the section's content", len(d.b))
	}
	return d.err
}

// Fail records an error (a value out of range, lists out of order),
// unless an error is already recorded.
func (d *Dec) Fail(format string, args ...any) {
	if d.err == nil {
		d.err = corrupt(format, args...)
		d.b = nil
	}
}

// Uvarint reads a canonical unsigned varint.
func (d *Dec) Uvarint() uint64 {
	if d.err != nil {
		return 0
	}
	x, n := binary.Uvarint(d.b)
	switch {
	case n == 0:
		d.Fail("truncated varint")
		return 0
	case n < 0:
		d.Fail("varint overflows 64 bits")
		return 0
	case n > 1 && d.b[n-1] == 0:
		d.Fail("non-canonical varint")
		return 0
	}
	d.b = d.b[n:]
	return x
}

// Len reads a count of items each at least minBytes long (minBytes ≥ 1
// for lists in the payload; 0 for a count of things not stored), and
// fails when the payload cannot hold them, so a damaged count never
// becomes a huge allocation. limit caps the count outright (≤ 0: none).
func (d *Dec) Len(minBytes, limit int) int {
	x := d.Uvarint()
	if d.err != nil {
		return 0
	}
	if limit > 0 && x > uint64(limit) {
		d.Fail("count %d over the limit %d", x, limit)
		return 0
	}
	if minBytes > 0 && x > uint64(len(d.b)/minBytes) {
		d.Fail("count %d needs more than the %d bytes left", x, len(d.b))
		return 0
	}
	if x > math.MaxInt32 {
		d.Fail("count %d", x)
		return 0
	}
	return int(x)
}

// Int reads a non-negative int written by [Enc.Int], at most limit (≤ 0:
// math.MaxInt32).
func (d *Dec) Int(limit int) int {
	if limit <= 0 {
		limit = math.MaxInt32
	}
	return d.Len(0, limit)
}

// U64 reads 8 bytes, little endian.
func (d *Dec) U64() uint64 {
	b := d.take(8)
	if b == nil {
		return 0
	}
	return binary.LittleEndian.Uint64(b)
}

// U32 reads 4 bytes, little endian.
func (d *Dec) U32() uint32 {
	b := d.take(4)
	if b == nil {
		return 0
	}
	return binary.LittleEndian.Uint32(b)
}

// F64 reads a float64 and fails on NaN or an infinity, which no detector
// stores.
func (d *Dec) F64() float64 {
	x := math.Float64frombits(d.U64())
	if math.IsNaN(x) || math.IsInf(x, 0) {
		d.Fail("non-finite number")
		return 0
	}
	return x
}

// String reads a length-prefixed string.
func (d *Dec) String() string {
	n := d.Len(1, 0)
	b := d.take(n)
	return string(b)
}

// Bool reads 0 or 1.
func (d *Dec) Bool() bool {
	b := d.take(1)
	if b == nil {
		return false
	}
	if b[0] > 1 {
		d.Fail("boolean %d", b[0])
	}
	return b[0] == 1
}

func (d *Dec) take(n int) []byte {
	if d.err != nil {
		return nil
	}
	if n > len(d.b) {
		d.Fail("truncated: %d bytes wanted, %d left", n, len(d.b))
		return nil
	}
	b := d.b[:n:n]
	d.b = d.b[n:]
	return b
}

// Bytes16 appends 16 bytes as they are (a 128-bit digest).
func (e *Enc) Bytes16(x [16]byte) { e.B = append(e.B, x[:]...) }

// Strings appends a count and the strings, each length-prefixed.
func (e *Enc) Strings(ss []string) {
	e.Int(len(ss))
	for _, s := range ss {
		e.String(s)
	}
}

// U64s appends a count and the values.
func (e *Enc) U64s(xs []uint64) {
	e.Int(len(xs))
	for _, x := range xs {
		e.U64(x)
	}
}

// AscU64s reads the n values of a list [Enc.U64s] wrote (its count read
// and checked by the caller), which must be strictly ascending: what
// names them in the error. It returns nil for n = 0.
func (d *Dec) AscU64s(n int, what string) []uint64 {
	if n == 0 {
		return nil
	}
	xs := make([]uint64, n)
	for k := range xs {
		xs[k] = d.U64()
		if k > 0 && xs[k] <= xs[k-1] && d.err == nil {
			d.Fail("%s out of order", what)
		}
	}
	return xs
}

// Bytes16 reads 16 bytes written by [Enc.Bytes16].
func (d *Dec) Bytes16() [16]byte {
	var x [16]byte
	copy(x[:], d.take(16))
	return x
}

// Strings reads a list written by [Enc.Strings]: at least min non-empty
// strings, strictly ascending when sorted is set and distinct otherwise,
// so that a canonical writer's list is the only one accepted. what names
// the list in errors.
func (d *Dec) Strings(min int, sorted bool, what string) []string {
	n := d.Len(2, 0) // a length and at least one byte each
	if d.err == nil && n < min {
		d.Fail("%d %s, want at least %d", n, what, min)
	}
	if d.err != nil {
		return nil
	}
	out := make([]string, 0, n)
	var seen map[string]bool
	if !sorted {
		seen = make(map[string]bool, n)
	}
	for range n {
		s := d.String()
		switch {
		case d.err != nil:
		case s == "":
			d.Fail("an empty string in the %s", what)
		case sorted && len(out) > 0 && s <= out[len(out)-1]:
			d.Fail("%s out of order", what)
		case !sorted && seen[s]:
			d.Fail("%q twice in the %s", s, what)
		}
		if d.err != nil {
			return nil
		}
		if !sorted {
			seen[s] = true
		}
		out = append(out, s)
	}
	return out
}

// IDs reads a list of document IDs written by [Enc.Strings] from sorted
// IDs: at least min, non-empty and strictly ascending.
func (d *Dec) IDs(min int) []string { return d.Strings(min, true, "IDs") }

// UvarintLen returns the length of the shortest uvarint encoding of x, the
// one Enc.Uvarint writes.
func UvarintLen(x uint64) int {
	n := 1
	for ; x >= 0x80; x >>= 7 {
		n++
	}
	return n
}
