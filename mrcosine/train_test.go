package mrcosine

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/dataset"
)

func synthTexts(n int, seed uint64) []string {
	docs := dataset.SynthDocs(n, dataset.SynthConfig{Seed: seed})
	out := make([]string, len(docs))
	for i, d := range docs {
		out[i] = d.Text
	}
	return out
}

// small is a training configuration that runs in well under a second.
var small = TrainConfig{Genes: 60, Parts: 10, Population: 12, Generations: 6, PoolSize: 400, SampleDocs: 30, Seed: 7}

func TestTrainDeterministic(t *testing.T) {
	texts := synthTexts(200, 1)
	var refs [][]string
	for _, workers := range []int{1, 2, 5} {
		cfg := small
		cfg.Workers = workers
		ref, err := Train(context.Background(), texts, cfg, nil)
		require.NoError(t, err)
		refs = append(refs, ref.Genes())
		assert.Len(t, ref.Genes(), 60)
		assert.Equal(t, 10, ref.Parts())
	}
	assert.Equal(t, refs[0], refs[1], "Workers 1 and 2 train the same reference")
	assert.Equal(t, refs[0], refs[2], "Workers 1 and 5 train the same reference")
	cfg := small
	cfg.Seed = 8
	other, err := Train(context.Background(), texts, cfg, nil)
	require.NoError(t, err)
	assert.NotEqual(t, refs[0], other.Genes(), "another seed trains another reference")
}

func TestTrainProgressAndImprovement(t *testing.T) {
	texts := synthTexts(300, 2)
	var reports []Progress
	ref, err := Train(context.Background(), texts, small, func(p Progress) { reports = append(reports, p) })
	require.NoError(t, err)
	require.Len(t, reports, small.Generations+2, "initial population, each generation, final")
	for i, p := range reports[:len(reports)-1] {
		assert.Equal(t, i, p.Generation)
		assert.Equal(t, small.Generations, p.Generations)
		assert.False(t, p.Final)
		assert.LessOrEqual(t, p.Best, p.Mean)
		assert.LessOrEqual(t, p.Mean, p.Worst)
		assert.NotNil(t, p.Reference)
	}
	last := reports[len(reports)-1]
	assert.True(t, last.Final)
	assert.Equal(t, last.Holdout, last.Best)
	assert.Equal(t, ref.Genes(), last.Reference.Genes())
	// On a fixed sample, (μ+λ) selection never loses its best reference.
	for i := 1; i <= small.Generations; i++ {
		assert.LessOrEqual(t, reports[i].Best, reports[i-1].Best, "generation %d", i)
	}
	assert.Less(t, reports[small.Generations].Best, reports[0].Best, "the GA improves on its initial population")
}

// TestFitnessIsEq1 checks the GA's fast fitness against MeanAbsoluteError
// computed through Signature and TrigramCosine, for both cosine variants.
func TestFitnessIsEq1(t *testing.T) {
	texts := synthTexts(80, 3)
	for _, binary := range []bool{false, true} {
		cfg := small
		cfg.Binary = binary
		cfg.setDefaults()
		tc := TextConfig{Binary: binary}
		profs, err := profiles(context.Background(), tc, texts, 2)
		require.NoError(t, err)
		all := make([]int, len(texts))
		for i := range all {
			all[i] = i
		}
		g := &ga{cfg: cfg, tc: tc, pool: rankPool(profs, all, cfg.PoolSize, RankSum), profs: profs}
		g.index(all)
		rng := rand.New(rand.NewPCG(1, 2))
		genes := make([]int32, cfg.Genes)
		for i := range genes {
			genes[i] = int32(rng.IntN(len(g.pool)))
		}
		genes[5], genes[6] = genes[4], genes[4] // repeated genes within a part
		sample := all[:40]
		fit, err := g.evaluate(context.Background(), [][]int32{genes}, sample)
		require.NoError(t, err)
		ref, err := g.reference(genes)
		require.NoError(t, err)
		var sub []string
		for _, d := range sample {
			sub = append(sub, texts[d])
		}
		assert.InDelta(t, MeanAbsoluteError(ref, sub), fit[0], 1e-5, "Binary=%v", binary)
	}
}

func TestTrainCancel(t *testing.T) {
	texts := synthTexts(200, 4)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := Train(ctx, texts, small, nil)
	assert.ErrorIs(t, err, context.Canceled)

	ctx, cancel = context.WithCancel(context.Background())
	defer cancel()
	calls := 0
	_, err = Train(ctx, texts, small, func(p Progress) {
		calls++
		if p.Generation == 2 {
			cancel()
		}
	})
	assert.ErrorIs(t, err, context.Canceled)
	assert.Equal(t, 3, calls, "Train stops at the first generation after cancellation")
}

func TestTrainInitialOnly(t *testing.T) {
	cfg := small
	cfg.Generations = -1
	var reports []Progress
	ref, err := Train(context.Background(), synthTexts(100, 5), cfg, func(p Progress) { reports = append(reports, p) })
	require.NoError(t, err)
	require.Len(t, reports, 2)
	assert.True(t, reports[1].Final)
	assert.Equal(t, ref.Genes(), reports[1].Reference.Genes())
}

func TestTrainInvalid(t *testing.T) {
	texts := synthTexts(50, 6)
	for _, tc := range []struct {
		cfg  TrainConfig
		want string
	}{
		{TrainConfig{Genes: -1}, "Genes (-1) must be ≥ 1"},
		{TrainConfig{Genes: 10, Parts: 11}, "Parts (11) must be in [1, Genes (10)]"},
		{TrainConfig{Population: 1}, "Population (1) must be ≥ 2"},
		{TrainConfig{PoolSize: -5}, "PoolSize (-5) must be ≥ 1"},
		{TrainConfig{Ranking: 9}, "Ranking (9)"},
		{TrainConfig{MutationRate: 1.5}, "MutationRate (1.5)"},
		{TrainConfig{SampleDocs: 1}, "SampleDocs (1) must be ≥ 2"},
		{TrainConfig{Holdout: 1}, "Holdout (1) must be in (0, 1)"},
		{TrainConfig{Workers: -1}, "Workers (-1) must be ≥ 1"},
		{TrainConfig{Normalization: 7}, "Normalization (7)"},
	} {
		_, err := Train(context.Background(), texts, tc.cfg, nil)
		if assert.ErrorIs(t, err, detector.ErrInvalidConfig, "%+v", tc.cfg) {
			assert.Contains(t, err.Error(), tc.want)
		}
	}
	_, err := Train(context.Background(), []string{"one text", "", "two", "three texts"}, small, nil)
	assert.True(t, errors.Is(err, ErrTooFewTexts), "Train of 3 short texts: %v", err)
}

func TestTrainOptions(t *testing.T) {
	texts := synthTexts(150, 8)
	for _, cfg := range []TrainConfig{
		{Ranking: RankMax},
		{Binary: true},
		{Normalization: LettersOnly, Language: "tr"},
		{Normalization: Raw},
		{MutationRate: -1},
	} {
		c := small
		c.Ranking, c.Binary, c.Normalization, c.Language, c.MutationRate = cfg.Ranking, cfg.Binary, cfg.Normalization, cfg.Language, cfg.MutationRate
		ref, err := Train(context.Background(), texts, c, nil)
		require.NoError(t, err, "%+v", cfg)
		assert.Equal(t, TextConfig{Normalization: c.Normalization, Language: c.Language, Binary: c.Binary}, ref.TextConfig())
		mae := MeanAbsoluteError(ref, texts[:50])
		assert.True(t, mae > 0 && mae < 0.5, "%+v: MAE %v", cfg, mae)
	}
}

func TestMeanAbsoluteErrorEdge(t *testing.T) {
	ref := Default()
	assert.Equal(t, 0.0, MeanAbsoluteError(ref, nil))
	assert.Equal(t, 0.0, MeanAbsoluteError(ref, []string{"only one text", "", "x"}))
	assert.InDelta(t, 0.0, MeanAbsoluteError(ref, []string{stormText, stormText}), 1e-6)
}

const stormText = "A powerful storm swept across the northern coast on Monday, cutting power to thousands of homes and forcing the closure of two ports. Emergency services said three people were injured by falling trees."
