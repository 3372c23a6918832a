package testkit

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/seed-9ef9c1df/neardup/internal/dataset"
)

// The default sample of CheckExactDuplicates keeps every text with a twin,
// in order, and every nth of the others.
func TestTwinsAndEvery(t *testing.T) {
	recs := []dataset.Record{
		{ID: "a", Text: "x"}, {ID: "b", Text: "1"}, {ID: "c", Text: "2"},
		{ID: "d", Text: "x"}, {ID: "e", Text: "3"}, {ID: "f", Text: "4"},
		{ID: "g", Text: "y"}, {ID: "h", Text: "5"}, {ID: "i", Text: "y"},
	}
	var ids []string
	for _, r := range twinsAndEvery(recs, 2) {
		ids = append(ids, r.ID)
	}
	assert.Equal(t, []string{"a", "b", "d", "e", "g", "h", "i"}, ids)
	assert.Len(t, dataset.ExactGroups(twinsAndEvery(recs, 3)), 2, "every group of twins is whole")
}
