package codet

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/internal/dataset"
)

// commitReference is the body of commit that creates and enters one node
// after the other as it walks (the code before the nodes to create were
// numbered and read ahead).
func commitReference(d *index) func(g uint32) {
	return func(g uint32) {
		b := d.buf
		gr := &d.groups[g]
		low := lowCode(gr.scs)
		created := make(map[uint64]uint32)
		p := 0
		for k := range b.n() {
			ids, _ := b.seq(k)
			c := uint32(0)
			for _, id := range ids {
				if n := d.visits[p]; n != 0 {
					c = n
				} else {
					key := uint64(c)<<32 | uint64(id) // the edge, as the old commit keyed it
					if n, ok := created[key]; ok {
						c = n
					} else {
						c = d.newChild(c, id)
						created[key] = c
					}
				}
				p++
				d.enter(c, g)
				d.nodes.at(c).low = min(d.nodes.at(c).low, low)
			}
			gr.ends = append(gr.ends, c)
		}
	}
}

// TestCommitMatchesReference adds a synthetic stream to a detector with
// commit and to one with the reference commit, and requires the same
// answers, counters and snapshot bytes: with a time window nodes are
// freed and their numbers reused, with a low NodeLimit nodes are
// deactivated during commits.
func TestCommitMatchesReference(t *testing.T) {
	n := dataset.LongSize(1000, 3000)
	if testing.Short() {
		n = 1000
	}
	idf := synthIDF(t, 2000)
	docs := dataset.SynthDocs(n, dataset.SynthConfig{Seed: 1, Vocabulary: 5000})
	for _, cfg := range []Config{
		{Language: "en"},
		{Language: "en", Window: 700, NodeLimit: 20},
		{Language: "en", Window: 400, Collapse: CollapseNear},
		{Language: "en", Mode: ModePairwise, Window: 900},
	} {
		want, err := NewWithIDF(cfg, idf)
		require.NoError(t, err)
		want.ix().refCommit = commitReference(want.ix())
		got, err := NewWithIDF(cfg, idf)
		require.NoError(t, err)
		for i, doc := range docs {
			a, err := want.Add(doc)
			require.NoError(t, err)
			b, err := got.Add(doc)
			require.NoError(t, err)
			require.Equal(t, a, b, "%+v: Add(%s)", cfg, doc.ID)
			if i%7 == 3 && cfg.Window == 0 {
				require.NoError(t, want.Remove(docs[i/2].ID))
				require.NoError(t, got.Remove(docs[i/2].ID))
			}
		}
		sa, sb := want.Stats(), got.Stats()
		require.Equal(t, sa, sb, "%+v", cfg)
		require.Greater(t, got.ix().work.inserts, 0)
		var x, y bytes.Buffer
		_, err = want.WriteTo(&x)
		require.NoError(t, err)
		_, err = got.WriteTo(&y)
		require.NoError(t, err)
		assert.True(t, bytes.Equal(x.Bytes(), y.Bytes()), "%+v: snapshots differ", cfg)
		t.Logf("Window %d NodeLimit %d Collapse %d Mode %d: %d nodes, %d free, %d deactivated",
			cfg.Window, cfg.NodeLimit, cfg.Collapse, cfg.Mode, sb.Nodes, len(got.ix().freeNodes), sb.Deactivated)
	}
}
