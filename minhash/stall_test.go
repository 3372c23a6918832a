package minhash

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/dataset"
)

// TestNoStallDuringAnalysis holds an Add between its analysis and its
// lock, and requires Containers, Remove and a second Add to complete
// meanwhile: analysis and signing run outside the Detector's lock in every
// mode (they ran under it in Weighted mode, where a 20 MB Add stalled every
// caller for seconds). A Containers that waited for the lock would not
// return before the deadline.
func TestNoStallDuringAnalysis(t *testing.T) {
	docs := dataset.SynthDocs(20, dataset.SynthConfig{Seed: 8})
	for _, cfg := range []Config{{}, {Mode: Weighted}, {Mode: Containment}} {
		t.Run(fmt.Sprint(cfg.Mode), func(t *testing.T) {
			d, err := New(cfg)
			require.NoError(t, err)
			for _, doc := range docs[:10] {
				_, err := d.Add(doc)
				require.NoError(t, err)
			}
			held, release := make(chan struct{}), make(chan struct{})
			afterAnalysis = func(text string) {
				if text == docs[10].Text {
					close(held)
					<-release
				}
			}
			defer func() { afterAnalysis = nil }()
			added := make(chan error, 1)
			go func() {
				_, err := d.Add(detector.Doc{ID: "held", Text: docs[10].Text})
				added <- err
			}()
			<-held
			others := make(chan error, 1)
			go func() {
				if _, err := d.Containers(docs[0].ID); err != nil {
					others <- err
					return
				}
				others <- d.Remove(docs[1].ID)
			}()
			select {
			case err := <-others:
				require.NoError(t, err)
			case <-time.After(30 * time.Second):
				t.Fatal("Containers or Remove waited for an Add that was analysing")
			}
			close(release)
			require.NoError(t, <-added)
			ms, err := d.Containers("held")
			require.NoError(t, err)
			require.Empty(t, ms, "the held document relates to nothing")
		})
	}
}
