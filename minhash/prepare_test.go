package minhash

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPreparedKeys: the keys the features step prepares for the commit
// are those the index would compute under its lock, table after table,
// in every mode, for a text with words and one without.
func TestPreparedKeys(t *testing.T) {
	stats, err := NewStats(Config{Mode: Weighted})
	require.NoError(t, err)
	for _, tc := range []struct {
		name  string
		cfg   Config
		stats *Stats
	}{
		{"jaccard", Config{}, nil},
		{"supershingles", Config{Supershingles: 6}, nil},
		{"containment", Config{Mode: Containment}, nil},
		{"weighted", Config{Mode: Weighted}, nil},
		{"weighted-stats", Config{Mode: Weighted}, stats},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, err := NewWithStats(tc.cfg, tc.stats)
			require.NoError(t, err)
			ix := d.a.NewIndex()
			tables := newIndex(d.a).tables
			for _, text := range []string{"the quick brown fox jumps over the lazy dog by the river bank today", "!!"} {
				f := d.a.Features(text)
				if c, ok := ix.(*countedIndex); ok {
					c.Peek(&f)
					if f.size == 0 {
						// Peek leaves a text without words as it is: it
						// matches nothing and is never searched for.
						assert.False(t, f.sk.pre.ok, "%q: prepared", text)
						d.a.Release(&f)
						continue
					}
				}
				require.True(t, f.sk.pre.ok, "%q: prepared", text)
				var want []uint64
				if f.sig != nil {
					for _, tb := range tables {
						want = AppendBandKeys(want, f.sig, tb.bands, tb.rows)
					}
				}
				assert.Equal(t, want, append([]uint64(nil), f.sk.pre.bands...), "%q: band keys", text)
				assert.Equal(t, d.a.exactKey(f.sig, f.size, f.digest), d.a.keyOf(&f), "%q: exact-copy key", text)
				d.a.Release(&f)
			}
		})
	}
}
