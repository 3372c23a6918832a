package mrcosine

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/testkit"
)

// TestQueryChangesNothing runs one stream on two detectors, one of which
// answers a Query before every step (of the next document, of a live
// document under its own ID, with an empty ID): each Query must equal the
// Add that follows, and the two detectors must give the same answers,
// lengths and snapshots throughout.
func TestQueryChangesNothing(t *testing.T) {
	texts := synthTexts(80, 5)
	texts = append(texts, "", strings.ToUpper(texts[3]), "...")
	ops := floodStream(texts, 5, 10)
	for _, m := range modes {
		t.Run(m.name, func(t *testing.T) {
			cfg := m.cfg
			cfg.MaxResults = 4
			plain, probed := mustNew(t, cfg), mustNew(t, cfg)
			probe := func(step int) string { return texts[step%len(texts)] }
			testkit.QueryChangesNothing(t, plain, probed, ops, probe, true)
		})
	}
}

func TestQueryErrors(t *testing.T) {
	d, err := New(Config{MaxTextBytes: 10})
	require.NoError(t, err)
	_, err = d.Query(detector.Doc{Text: strings.Repeat("x", 11)})
	require.ErrorIs(t, err, detector.ErrTooLarge)
	ms, err := d.Query(detector.Doc{})
	require.NoError(t, err)
	assert.NotNil(t, ms)
	assert.Empty(t, ms)
	_, err = d.Copies("nope")
	require.ErrorIs(t, err, detector.ErrUnknownID)
	require.NoError(t, d.Close())
	_, err = d.Query(detector.Doc{Text: "x"})
	require.ErrorIs(t, err, detector.ErrClosed)
	_, err = d.Copies("x")
	require.ErrorIs(t, err, detector.ErrClosed)
}

// TestConcurrentQueryAdd queries copies of the texts being added from
// other goroutines, under IDs no Add uses: no Query may ever be seen by an
// Add, a Containers or another Query, and at the end every live document
// answers as in a sequential run.
func TestConcurrentQueryAdd(t *testing.T) {
	texts := synthTexts(40, 6)
	for _, m := range modes {
		t.Run(m.name, func(t *testing.T) {
			cfg := m.cfg
			cfg.MaxResults = 1000
			d, seq := mustNew(t, cfg), mustNew(t, cfg)
			testkit.ConcurrentQueryAdd(t, d, seq, texts, true)
			require.Equal(t, encode(t, seq), encode(t, d))
		})
	}
}
