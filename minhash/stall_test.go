package minhash

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/synth"
)

// TestNoStallDuringLargeAdd: while one goroutine adds a 4 MB text, another
// keeps calling Containers; since Add analyses, counts and signs outside
// the Detector's lock, those calls keep returning: the longest wait must
// be under a quarter of the large Add's time (it was all of it in
// Weighted mode, whose online statistics were signed under the lock).
func TestNoStallDuringLargeAdd(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("a 4 MB text; runs without -short and -race")
	}
	docs := synth.Docs(50, synth.Config{Seed: 8})
	var big strings.Builder
	for big.Len() < 4<<20 {
		for _, d := range docs {
			big.WriteString(d.Text)
			big.WriteByte('\n')
		}
	}
	for _, cfg := range []Config{{}, {Mode: Weighted}, {Mode: Containment}} {
		t.Run(fmt.Sprint(cfg.Mode), func(t *testing.T) {
			d, err := New(cfg)
			require.NoError(t, err)
			for _, doc := range docs {
				_, err := d.Add(doc)
				require.NoError(t, err)
			}
			done := make(chan time.Duration)
			start := time.Now()
			go func() {
				_, err := d.Add(detector.Doc{ID: "big", Text: big.String()})
				assert.NoError(t, err)
				done <- time.Since(start)
			}()
			var worst time.Duration
			calls := 0
			for {
				select {
				case took := <-done:
					t.Logf("Mode %d: a 4 MB Add took %v; %d Containers calls meanwhile, the longest %v",
						cfg.Mode, took, calls, worst)
					assert.Less(t, worst, took/4, "Containers waited for the large Add")
					return
				default:
				}
				t0 := time.Now()
				_, err := d.Containers(docs[calls%len(docs)].ID)
				require.NoError(t, err)
				worst = max(worst, time.Since(t0))
				calls++
			}
		})
	}
}
