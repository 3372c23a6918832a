package testkit

import (
	"testing"

	"github.com/seed-9ef9c1df/neardup/internal/snapshot"
)

func TestSameButLimits(t *testing.T) {
	type cfg struct {
		Language     string
		MaxTextBytes int
		MaxResults   int
	}
	snap := func(c cfg, payload string, tables map[string]uint64) []byte {
		return Frame(t, snapshot.Header{Kind: "k", KindVersion: 1, Config: c, Tables: tables},
			[]string{"groups"}, [][]byte{[]byte(payload)}, 1)
	}
	base := snap(cfg{"en", 10, 5}, "abc", map[string]uint64{"idf": 7})
	for _, tc := range []struct {
		name string
		b    []byte
		want bool
	}{
		{"limits differ", snap(cfg{"en", 1 << 20, 100}, "abc", map[string]uint64{"idf": 7}), true},
		{"a stored field differs", snap(cfg{"tr", 10, 5}, "abc", map[string]uint64{"idf": 7}), false},
		{"a section differs", snap(cfg{"en", 1 << 20, 5}, "abd", map[string]uint64{"idf": 7}), false},
		{"a table differs", snap(cfg{"en", 1 << 20, 5}, "abc", map[string]uint64{"idf": 8}), false},
		{"truncated", base[:len(base)-3], false},
	} {
		if got := sameButLimits(base, tc.b); got != tc.want {
			t.Errorf("%s: sameButLimits = %v, want %v", tc.name, got, tc.want)
		}
	}
}
