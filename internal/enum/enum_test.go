package enum

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestString(t *testing.T) {
	names := []string{"", "a", "b"}
	for _, tc := range []struct {
		v    int
		want string
	}{
		{0, "T(0)"},
		{1, "a"},
		{2, "b"},
		{3, "T(3)"},
		{-1, "T(-1)"},
	} {
		assert.Equal(t, tc.want, String("T", tc.v, names...), "String(%d)", tc.v)
	}
}
