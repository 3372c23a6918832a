package mrcosine

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/internal/dataset"
)

// TestGenerateDefault trains the embedded default reference text (see
// default.go). It runs only with MRCOSINE_TRAIN_DEFAULT=1 and needs
// ../shared/data/reuters21578.jsonl.
func TestGenerateDefault(t *testing.T) {
	if os.Getenv("MRCOSINE_TRAIN_DEFAULT") != "1" {
		t.Skip("set MRCOSINE_TRAIN_DEFAULT=1 to retrain default.mrc")
	}
	recs := dataset.Reuters(t, 0)
	texts := make([]string, len(recs))
	for i, r := range recs {
		texts[i] = r.Text
	}
	start, last := time.Now(), time.Now()
	cfg := TrainConfig{Seed: 1}
	ref, err := Train(context.Background(), texts, cfg, func(p Progress) {
		t.Logf("generation %2d/%d best %.4f mean %.4f worst %.4f final %v holdout %.4f  %.2fs (total %.1fs)",
			p.Generation, p.Generations, p.Best, p.Mean, p.Worst, p.Final, p.Holdout,
			time.Since(last).Seconds(), time.Since(start).Seconds())
		last = time.Now()
	})
	require.NoError(t, err)
	b, err := ref.MarshalBinary()
	require.NoError(t, err)
	out := "default.mrc"
	if o := os.Getenv("MRCOSINE_OUT"); o != "" {
		out = o
	}
	require.NoError(t, os.WriteFile(out, b, 0o644))
	t.Logf("wrote default.mrc: %d bytes, %d genes, %d parts, %d texts, %.1fs", len(b), len(ref.Genes()), ref.Parts(), len(texts), time.Since(start).Seconds())
}
