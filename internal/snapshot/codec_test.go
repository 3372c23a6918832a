package snapshot

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestUvarintLen(t *testing.T) {
	for _, x := range []uint64{0, 1, 0x7f, 0x80, 0x3fff, 0x4000, 1 << 35, math.MaxUint64} {
		var e Enc
		e.Uvarint(x)
		assert.Equal(t, len(e.B), UvarintLen(x), "UvarintLen(%d)", x)
	}
}

func TestAscU64s(t *testing.T) {
	for _, tc := range []struct {
		name string
		xs   []uint64
		fail bool
	}{
		{"empty", nil, false},
		{"ascending", []uint64{0, 1, math.MaxUint64}, false},
		{"repeated", []uint64{3, 3}, true},
		{"descending", []uint64{5, 4}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var e Enc
			e.U64s(tc.xs)
			d := NewDec(e.B)
			got := d.AscU64s(d.Len(8, 0), "values")
			if tc.fail {
				assert.ErrorContains(t, d.Done(), "values out of order")
				return
			}
			assert.NoError(t, d.Done())
			assert.Equal(t, tc.xs, got)
		})
	}
}
