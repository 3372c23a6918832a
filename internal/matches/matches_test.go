package matches

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/detector"
)

func TestTop(t *testing.T) {
	ms := func(ids ...string) []detector.Match {
		out := make([]detector.Match, len(ids))
		for i, id := range ids {
			out[i] = detector.Match{ID: id, Score: float64(len(id))}
		}
		return out
	}
	for _, tc := range []struct {
		name  string
		in    []detector.Match
		limit int
		want  []detector.Match
	}{
		{"nil", nil, 0, []detector.Match{}},
		{"nil capped", nil, 3, []detector.Match{}},
		{"empty", ms(), 0, []detector.Match{}},
		{"uncapped", ms("a", "ccc", "bb"), 0, ms("ccc", "bb", "a")},
		{"capped", ms("a", "ccc", "bb"), 2, ms("ccc", "bb")},
		{"cap above length", ms("a", "bb"), 5, ms("bb", "a")},
		{"ties by ID", []detector.Match{{ID: "y", Score: 1}, {ID: "x", Score: 1}}, 1, []detector.Match{{ID: "x", Score: 1}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Top(tc.in, tc.limit)
			require.NotNil(t, got)
			assert.Equal(t, tc.want, got)
			assert.Equal(t, len(got), cap(got), "a capped result must not let an append overwrite the rest")
		})
	}
	b, err := json.Marshal(Top(nil, 0))
	require.NoError(t, err)
	assert.JSONEq(t, "[]", string(b))
}
