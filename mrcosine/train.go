package mrcosine

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"
)

// Progress reports one generation of [Train].
type Progress struct {
	// Generation is 0 for the initial population, then 1..Generations.
	Generation, Generations int
	// Best, Mean and Worst are the fitness (Eq. 1 MAE, lower is better) of
	// the population kept for the next generation, on this generation's
	// sample of training documents.
	Best, Mean, Worst float64
	// Reference is the best reference text of this generation.
	Reference *Reference
	// Final is set on the last report, made after the last generation:
	// Reference is then the winner on the held-out documents (with its
	// center) and Holdout its fitness there.
	Final   bool
	Holdout float64
}

// ErrTooFewTexts is returned by [Train] when the collection has too few
// texts with trigrams to split into training and held-out parts.
var ErrTooFewTexts = errors.New("mrcosine: too few texts with trigrams to train on")

// Train builds a reference text from texts with the genetic algorithm of
// Mohammadi and Khasteh 2020 §3.6 and returns the winner (§4.2):
//
//   - the texts are split Holdout/(1−Holdout) at random; the GA sees only
//     the training part;
//   - genes are drawn from the PoolSize trigrams of highest TF-IDF over the
//     training part (§3.6.1); the initial population is Population random
//     sequences of Genes pool trigrams;
//   - SampleDocs training documents are drawn at random (once, or every
//     generation with Resample); each generation makes Population
//     children from random parent pairs by single-cut crossover ("cuts two
//     reference texts in a random length and displaces the cuts", §3.6.2),
//     replaces MutationRate of each child's genes by random pool trigrams,
//     scores parents and children by Eq. 1 (the mean absolute error between
//     multireference cosine and full trigram cosine over all sample pairs,
//     §3.6.3) and keeps the Population lowest-error ones ((μ+λ) selection;
//     §3.6.4 says "higher scores", but the score is an error);
//   - after the last generation the population is scored on a sample of the
//     held-out part and the lowest-error reference text is returned, with
//     its center ([Reference.Centered]) measured on the training part.
//
// Fitness is evaluated on Workers goroutines. The result depends only on
// texts, cfg and cfg.Seed. Train returns ctx.Err() (wrapped) as soon as it
// notices cancellation. progress, if not nil, is called from the calling
// goroutine after every generation. Train does not keep texts.
//
// Cost per generation: O(Population·(Genes·SampleDocs + Parts·SampleDocs²)).
func Train(ctx context.Context, texts []string, cfg TrainConfig, progress func(Progress)) (*Reference, error) {
	cfg.setDefaults()
	if err := cfg.validate(); err != nil {
		return nil, invalid(err)
	}
	tc := TextConfig{Normalization: cfg.Normalization, Language: cfg.Language, Binary: cfg.Binary}
	rng := rand.New(rand.NewPCG(cfg.Seed, 0x6d72636f73696e65))

	profs, err := profiles(ctx, tc, texts, cfg.Workers)
	if err != nil {
		return nil, err
	}
	var docs []int // texts with at least one trigram
	for i, p := range profs {
		if p.norm > 0 {
			docs = append(docs, i)
		}
	}
	rng.Shuffle(len(docs), func(i, j int) { docs[i], docs[j] = docs[j], docs[i] })
	nHold := int(math.Round(float64(len(docs)) * cfg.Holdout))
	if nHold < 2 || len(docs)-nHold < 2 {
		return nil, fmt.Errorf("%w: %d of %d texts have trigrams", ErrTooFewTexts, len(docs), len(texts))
	}
	hold, train := docs[:nHold], docs[nHold:]
	slices.Sort(hold)
	slices.Sort(train)

	pool := rankPool(profs, train, cfg.PoolSize, cfg.Ranking)
	g := &ga{cfg: cfg, tc: tc, pool: pool, profs: profs}
	g.index(append(slices.Clone(train), hold...))

	pop := make([][]int32, cfg.Population)
	for i := range pop {
		pop[i] = make([]int32, cfg.Genes)
		for k := range pop[i] {
			pop[i][k] = int32(rng.IntN(len(pool)))
		}
	}
	report := func(gen int, fit []float64) {
		if progress == nil {
			return
		}
		ref, _ := g.reference(pop[slices.Index(fit, slices.Min(fit))])
		progress(progressOf(gen, cfg.Generations, fit, ref, false, 0))
	}

	sample := g.sample(rng, train)
	fit, err := g.evaluate(ctx, pop, sample)
	if err != nil {
		return nil, err
	}
	report(0, fit)
	for gen := 1; gen <= cfg.Generations; gen++ {
		kids := g.offspring(rng, pop)
		all := append(slices.Clone(pop), kids...)
		if cfg.Resample {
			sample = g.sample(rng, train)
		}
		fit, err = g.evaluate(ctx, all, sample)
		if err != nil {
			return nil, err
		}
		order := make([]int, len(all))
		for i := range order {
			order[i] = i
		}
		slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(fit[a], fit[b]) })
		next, nextFit := make([][]int32, cfg.Population), make([]float64, cfg.Population)
		for i := range next {
			next[i], nextFit[i] = all[order[i]], fit[order[i]]
		}
		pop, fit = next, nextFit
		report(gen, fit)
	}
	fit, err = g.evaluate(ctx, pop, g.sample(rng, hold))
	if err != nil {
		return nil, err
	}
	best := slices.Index(fit, slices.Min(fit))
	ref, err := g.reference(pop[best])
	if err != nil {
		return nil, err
	}
	trainTexts := make([]string, len(train))
	for i, d := range train {
		trainTexts[i] = texts[d]
	}
	ref = ref.Centered(trainTexts)
	if progress != nil {
		progress(progressOf(cfg.Generations, cfg.Generations, fit, ref, true, fit[best]))
	}
	return ref, nil
}

func progressOf(gen, gens int, fit []float64, ref *Reference, final bool, hold float64) Progress {
	var sum float64
	for _, f := range fit {
		sum += f
	}
	return Progress{Generation: gen, Generations: gens, Best: slices.Min(fit), Mean: sum / float64(len(fit)),
		Worst: slices.Max(fit), Reference: ref, Final: final, Holdout: hold}
}

// profiles computes the trigram profile of every text on workers goroutines.
func profiles(ctx context.Context, tc TextConfig, texts []string, workers int) ([]profile, error) {
	out := make([]profile, len(texts))
	if err := parallel(ctx, workers, len(texts), func(i int, c *counter) { out[i] = makeProfile(tc, texts[i], c) }); err != nil {
		return nil, err
	}
	return out, nil
}

// parallel calls work(i, s) for every i in [0, n), on up to workers
// goroutines that each keep a scratch s, until ctx is done; the error
// wraps ctx's.
func parallel[S any](ctx context.Context, workers, n int, work func(i int, s *S)) error {
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(workers, n) {
		wg.Go(func() {
			var s S
			for i := int(next.Add(1) - 1); i < n && ctx.Err() == nil; i = int(next.Add(1) - 1) {
				work(i, &s)
			}
		})
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("mrcosine: Train: %w", err)
	}
	return nil
}

// rankPool returns the n trigram codes of highest aggregated TF-IDF over the
// documents docs (Mohammadi and Khasteh 2020 §3.6.1), ties broken by code.
func rankPool(profs []profile, docs []int, n int, how PoolRanking) []uint64 {
	df := map[uint64]int{}
	for _, d := range docs {
		for _, c := range profs[d].codes {
			df[c]++
		}
	}
	score := make(map[uint64]float64, len(df))
	N := float64(len(docs))
	for _, d := range docs {
		p := profs[d]
		var total float64
		for _, v := range p.counts {
			total += float64(v)
		}
		for i, c := range p.codes {
			s := float64(p.counts[i]) / total * math.Log(N/float64(df[c]))
			if how == RankSum {
				score[c] += s
			} else if s > score[c] {
				score[c] = s
			}
		}
	}
	codes := make([]uint64, 0, len(score))
	for c := range score {
		codes = append(codes, c)
	}
	slices.SortFunc(codes, func(a, b uint64) int {
		return cmp.Or(cmp.Compare(score[b], score[a]), cmp.Compare(a, b))
	})
	return codes[:min(n, len(codes))]
}

// ga holds the state of one training run.
type ga struct {
	cfg   TrainConfig
	tc    TextConfig
	pool  []uint64
	profs []profile
	// sparse holds, for every indexed document, its counts on pool
	// trigrams.
	sparse map[int][]poolCount
}

type poolCount struct {
	idx   int32
	count float32
}

func (g *ga) index(docs []int) {
	at := make(map[uint64]int32, len(g.pool))
	for i, c := range g.pool {
		at[c] = int32(i)
	}
	g.sparse = make(map[int][]poolCount, len(docs))
	for _, d := range docs {
		var s []poolCount
		p := g.profs[d]
		for i, c := range p.codes {
			if k, ok := at[c]; ok {
				s = append(s, poolCount{k, float32(p.counts[i])})
			}
		}
		g.sparse[d] = s
	}
}

func (g *ga) reference(genes []int32) (*Reference, error) {
	codes := make([]uint64, len(genes))
	for i, k := range genes {
		codes[i] = g.pool[k]
	}
	return newReference(codes, g.cfg.Parts, g.tc)
}

// sample draws SampleDocs documents of from (all of them if fewer).
func (g *ga) sample(rng *rand.Rand, from []int) []int {
	n := min(g.cfg.SampleDocs, len(from))
	perm := rng.Perm(len(from))[:n]
	out := make([]int, n)
	for i, k := range perm {
		out[i] = from[k]
	}
	slices.Sort(out)
	return out
}

// offspring makes Population children by single-cut crossover of random
// parent pairs, each mutated (Mohammadi and Khasteh 2020 §3.6.2).
func (g *ga) offspring(rng *rand.Rand, pop [][]int32) [][]int32 {
	R := g.cfg.Genes
	kids := make([][]int32, 0, len(pop)+1)
	for len(kids) < len(pop) {
		a, b := pop[rng.IntN(len(pop))], pop[rng.IntN(len(pop))]
		cut := 0
		if R > 1 {
			cut = 1 + rng.IntN(R-1)
		}
		x := append(slices.Clone(a[:cut]), b[cut:]...)
		y := append(slices.Clone(b[:cut]), a[cut:]...)
		kids = append(kids, x, y)
	}
	kids = kids[:len(pop)]
	m := 0
	if g.cfg.MutationRate > 0 {
		m = max(1, int(math.Round(g.cfg.MutationRate*float64(R))))
	}
	pos := make([]int, R)
	for _, k := range kids {
		for i := range pos {
			pos[i] = i
		}
		for i := range m { // partial Fisher-Yates: m distinct positions
			j := i + rng.IntN(R-i)
			pos[i], pos[j] = pos[j], pos[i]
			k[pos[i]] = int32(rng.IntN(len(g.pool)))
		}
	}
	return kids
}

// evalSet is one sample of documents prepared for fitness evaluation.
type evalSet struct {
	n     int
	tf    []float32 // tf[poolIdx*n + doc]
	truth []float32 // full trigram cosine of pair (a<b), row-major upper triangle
}

func (g *ga) prepare(ctx context.Context, docs []int) (*evalSet, error) {
	n := len(docs)
	es := &evalSet{n: n, tf: make([]float32, len(g.pool)*n), truth: make([]float32, n*(n-1)/2)}
	for d, doc := range docs {
		for _, pc := range g.sparse[doc] {
			v := pc.count
			if g.tc.Binary {
				v = 1
			}
			es.tf[int(pc.idx)*n+d] = v
		}
	}
	err := parallel(ctx, g.cfg.Workers, n, func(a int, _ *struct{}) {
		off := pairIndex(n, a, a+1)
		for b := a + 1; b < n; b++ {
			es.truth[off+b-a-1] = float32(g.profs[docs[a]].cosine(g.profs[docs[b]]))
		}
	})
	if err != nil {
		return nil, err
	}
	return es, nil
}

// pairIndex is the position of pair (a, b), a < b, in the upper triangle.
func pairIndex(n, a, b int) int { return a*(2*n-a-1)/2 + (b - a - 1) }

// evaluate returns the Eq. 1 fitness of every chromosome on the sample docs.
func (g *ga) evaluate(ctx context.Context, pop [][]int32, docs []int) ([]float64, error) {
	es, err := g.prepare(ctx, docs)
	if err != nil {
		return nil, err
	}
	fit := make([]float64, len(pop))
	err = parallel(ctx, g.cfg.Workers, len(pop), func(i int, sc *fitScratch) { fit[i] = g.fitness(pop[i], es, sc) })
	if err != nil {
		return nil, err
	}
	return fit, nil
}

type fitScratch struct {
	sig  []float32 // sig[part*n + doc], then transposed into vec
	vec  []float32 // vec[doc*P + part]
	norm []float64
}

// fitness is Eq. 1 of Mohammadi and Khasteh 2020: the mean absolute error
// between the multireference cosine and the full trigram cosine over all
// sample pairs. The factor 1/‖tf_D‖ of every signature element cancels in the
// signature cosine and is left out.
func (g *ga) fitness(genes []int32, es *evalSet, sc *fitScratch) float64 {
	n, P := es.n, g.cfg.Parts
	sc.sig = slices.Grow(sc.sig[:0], P*n)[:P*n]
	clear(sc.sig)
	sc.vec = slices.Grow(sc.vec[:0], P*n)[:P*n]
	sc.norm = slices.Grow(sc.norm[:0], n)[:n]
	bounds := partBounds(len(genes), P)
	for j := range P {
		part := genes[bounds[j]:bounds[j+1]]
		row := sc.sig[j*n : (j+1)*n]
		var ss float64
		for k, gi := range part {
			c := 1.0
			if g.tc.Binary {
				if slices.Contains(part[:k], gi) {
					continue
				}
			} else {
				// tf_Rj(g)² summed over distinct g equals the sum over
				// occurrences of 2·(occurrences so far)+1.
				prev := 0
				for _, x := range part[:k] {
					if x == gi {
						prev++
					}
				}
				c = float64(2*prev + 1)
			}
			ss += c
			tf := es.tf[int(gi)*n : int(gi+1)*n]
			for d, v := range tf {
				row[d] += v
			}
		}
		inv := float32(1 / math.Sqrt(ss))
		for d := range row {
			sc.vec[d*P+j] = row[d] * inv
		}
	}
	for d := range n {
		v := sc.vec[d*P : (d+1)*P]
		var ss float64
		for _, x := range v {
			ss += float64(x) * float64(x)
		}
		sc.norm[d] = math.Sqrt(ss)
	}
	var sum float64
	k := 0
	for a := range n {
		va := sc.vec[a*P : (a+1)*P]
		for b := a + 1; b < n; b++ {
			vb := sc.vec[b*P : (b+1)*P]
			mrc := 0.0
			if sc.norm[a] > 0 && sc.norm[b] > 0 {
				var dot float32
				for j, x := range va {
					dot += x * vb[j]
				}
				mrc = min(float64(dot)/(sc.norm[a]*sc.norm[b]), 1)
			}
			sum += math.Abs(mrc - float64(es.truth[k]))
			k++
		}
	}
	return sum / float64(n*(n-1)/2)
}

// MeanAbsoluteError returns Eq. 1 of Mohammadi and Khasteh 2020 for ref over
// every pair of texts: the mean of
// |Cosine(sig(a), sig(b)) − TrigramCosine(a, b)|. Texts without trigrams are
// skipped. It returns 0 for fewer than two texts.
// Time O(Σ len(text) + N²·(Parts + trigrams per text)).
func MeanAbsoluteError(ref *Reference, texts []string) float64 {
	var c counter
	type doc struct {
		p   profile
		sig []float32
	}
	var docs []doc
	for _, t := range texts {
		p := makeProfile(ref.tc, t, &c)
		if p.norm > 0 {
			docs = append(docs, doc{p, ref.Signature(t)})
		}
	}
	if len(docs) < 2 {
		return 0
	}
	var sum float64
	for a := range docs {
		for b := a + 1; b < len(docs); b++ {
			sum += math.Abs(Cosine(docs[a].sig, docs[b].sig) - docs[a].p.cosine(docs[b].p))
		}
	}
	n := len(docs)
	return sum / float64(n*(n-1)/2)
}
