package engine

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestDeletePosting(t *testing.T) {
	m := map[string][]uint32{"a": {1, 2, 3}, "b": {4}}
	DeletePosting(m, "a", 1)
	assert.ElementsMatch(t, []uint32{2, 3}, m["a"])
	DeletePosting(m, "a", 9) // absent: unchanged
	assert.Len(t, m["a"], 2)
	DeletePosting(m, "b", 4)
	_, ok := m["b"]
	assert.False(t, ok, "an emptied key is dropped")
	DeletePosting(m, "zzz", 1)
	assert.Len(t, m, 1)
}
