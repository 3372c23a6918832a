package hashtab

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/seed-9ef9c1df/neardup/textproc"
)

func TestDeterministicSeeded(t *testing.T) {
	assert.Equal(t, String64("ankara", 7), Bytes64([]byte("ankara"), 7))
	assert.Equal(t, String64("ankara", 0), Bytes64([]byte("ankara"), 0))
	assert.NotEqual(t, String64("ankara", 1), String64("ankara", 2))
	assert.NotEqual(t, Combine(1, 2), Combine(2, 1), "Combine is ordered")
}

func TestAppendFieldUnambiguous(t *testing.T) {
	ab := AppendField(AppendField(nil, "ab"), "c")
	a := AppendField(AppendField(nil, "a"), "bc")
	assert.NotEqual(t, ab, a)
	assert.NotEqual(t, Bytes128(ab), Bytes128(a))
}

func TestNoAllocs(t *testing.T) {
	s := "İstanbul'da"
	assert.Zero(t, testing.AllocsPerRun(100, func() { _ = String64(s, 3) }))
	buf := make([]byte, 0, 64)
	assert.Zero(t, testing.AllocsPerRun(100, func() { _ = Bytes128(AppendField(buf[:0], s)) }))
}

func TestTokensDigest(t *testing.T) {
	toks := []textproc.Token{{Term: "ab"}, {Term: "c"}}
	other := []textproc.Token{{Term: "a"}, {Term: "bc"}}
	buf, d1 := TokensDigest(nil, toks)
	_, d2 := TokensDigest(buf, other)
	_, d3 := TokensDigest(nil, toks)
	assert.NotEqual(t, d1, d2, "the encoding is unambiguous")
	assert.Equal(t, d1, d3)
	assert.Zero(t, testing.AllocsPerRun(100, func() { buf, _ = TokensDigest(buf, toks) }))
}
