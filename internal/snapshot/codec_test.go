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
