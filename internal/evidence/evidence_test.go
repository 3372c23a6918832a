package evidence

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestEnough(t *testing.T) {
	for _, c := range []struct {
		shared, small, min float64
		want               bool
	}{
		{50, 400, 50, true},    // long documents: the minimum
		{49, 400, 50, false},   //
		{16, 20, 50, true},     // short: 80% of the smaller
		{15, 20, 50, false},    //
		{20, 20, 1, true},      // rule off
		{1, 1, 1, true},        //
		{0.8 * 3, 3, 50, true}, // exactly at the share, float rounding tolerated
	} {
		assert.Equal(t, c.want, Enough(c.shared, c.small, c.min), "%+v", c)
	}
}

func TestPartOf(t *testing.T) {
	assert.True(t, PartOf(50, 50, 100), "the first half of a text is a part of it")
	assert.False(t, PartOf(95, 100, 100), "near-duplicates contain each other")
	assert.False(t, PartOf(40, 100, 100), "a small overlap is no part")
	assert.True(t, PartOf(90, 100, 200))
}
