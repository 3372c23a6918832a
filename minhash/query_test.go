package minhash

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/internal/dataset"
	"github.com/seed-9ef9c1df/neardup/internal/testkit"
)

// TestQueryChangesNothing runs one stream on two detectors, one of which
// answers Queries before every step (of the next document, of the last
// added one under its own ID, of an unrelated text with an empty ID): each
// Query of the next document must equal the Add that follows, and the two
// detectors must give the same answers, lengths, online statistics and
// snapshots throughout. A stream of 100 texts by default, 150 with
// NEARDUP_LONG.
func TestQueryChangesNothing(t *testing.T) {
	texts := streamTexts(dataset.LongSize(100, 150), 8)
	ops := floodStream(texts, 5, 6)
	stats, err := NewStats(Config{Mode: Weighted})
	require.NoError(t, err)
	for _, text := range texts[:50] {
		stats.AddDocument(text)
	}
	cfgs := referenceConfigs(stats)
	cfgs = append(cfgs, struct {
		name  string
		cfg   Config
		stats *Stats
	}{"WeightedPercentile", Config{Mode: Weighted, Rare: RarePercentile, RarePercent: 30, Sampler: IoffeICWS, NumHashes: 32}, nil})
	for _, tc := range cfgs {
		t.Run(tc.name, func(t *testing.T) {
			cfg := tc.cfg
			if cfg.MaxResults == 0 {
				cfg.MaxResults = 4
			}
			plain, probed := mustNew(t, cfg, tc.stats), mustNew(t, cfg, tc.stats)
			probe := func(step int) string { return texts[(step*7)%len(texts)] }
			testkit.QueryChangesNothing(t, plain, probed, ops, probe, !plain.a.online)
			if plain.a.online {
				assert.Equal(t, plain.liveStats().fingerprint(), probed.liveStats().fingerprint(), "the online statistics")
			}
		})
	}
}

// TestConcurrentQueryAdd queries copies of the texts being added from
// other goroutines, under IDs no Add uses, in every mode: no Query may
// ever be seen by an Add, a Containers or another Query, and at the end
// every live document answers as in a sequential run (in Weighted mode
// with online statistics, the statistics are those of the Adds alone).
func TestConcurrentQueryAdd(t *testing.T) {
	var texts []string
	for _, doc := range dataset.SynthDocs(40, dataset.SynthConfig{Seed: 17}) {
		texts = append(texts, doc.Text)
	}
	for _, cfg := range []Config{{}, {Mode: Weighted}, {Mode: Containment}} {
		t.Run(fmt.Sprint(cfg.Mode), func(t *testing.T) {
			cfg.MaxResults = 1000
			d, seq := mustNew(t, cfg, nil), mustNew(t, cfg, nil)
			testkit.ConcurrentQueryAdd(t, d, seq, texts, !d.a.online)
			require.Equal(t, 2*len(texts), d.Len())
			if d.a.online {
				// The concurrent Adds counted in some interleaving; the
				// counts are those of the documents, whatever the order.
				assert.Equal(t, seq.liveStats().fingerprint(), d.liveStats().fingerprint(), "no Query was counted")
			}
		})
	}
}
