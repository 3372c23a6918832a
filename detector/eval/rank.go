package eval

import (
	"fmt"
	"math"
	"slices"

	"github.com/seed-9ef9c1df/neardup/detector"
)

// RankScores is the quality of ranked lookup over labelled queries.
type RankScores struct {
	// Queries is the number of queries scored.
	Queries int
	// MAP is the mean average precision at the cutoff k, each query's
	// normalised by min(R, k) for R relevant documents; P1 the mean
	// precision of the first result; NDCG10 the mean normalised
	// discounted cumulative gain of the first 10, binary relevance.
	MAP, P1, NDCG10 float64
}

// AveragePrecision returns the average precision of ranked at cutoff k
// for r relevant documents, normalised by min(r, k): 1 when the first
// min(r, k) places are all relevant. It is 0 when r or k is 0 or less.
func AveragePrecision(ranked []string, relevant func(id string) bool, r, k int) float64 {
	if r <= 0 || k <= 0 {
		return 0
	}
	hits, sum := 0, 0.0
	for i, id := range ranked[:min(k, len(ranked))] {
		if relevant(id) {
			hits++
			sum += float64(hits) / float64(i+1)
		}
	}
	return sum / float64(min(r, k))
}

// NDCG returns the normalised discounted cumulative gain of the first k of
// ranked with binary relevance, for r relevant documents: 1 when they come
// first. It is 0 when r or k is 0 or less.
func NDCG(ranked []string, relevant func(id string) bool, r, k int) float64 {
	if r <= 0 || k <= 0 {
		return 0
	}
	dcg, ideal := 0.0, 0.0
	for i := range k {
		disc := 1 / math.Log2(float64(i+2))
		if i < len(ranked) && relevant(ranked[i]) {
			dcg += disc
		}
		if i < r {
			ideal += disc
		}
	}
	return dcg / ideal
}

// AUC returns the area under the ROC curve of scores that should be
// higher for pos than for neg: the probability that a random positive
// scores above a random negative, ties counting one half. It is NaN when
// either side is empty.
func AUC(pos, neg []float64) float64 {
	if len(pos) == 0 || len(neg) == 0 {
		return math.NaN()
	}
	neg = slices.Sorted(slices.Values(neg))
	var sum float64
	for _, p := range pos {
		below, _ := slices.BinarySearch(neg, p)                             // neg < p
		upto, _ := slices.BinarySearchFunc(neg, p, func(x, t float64) int { // neg ≤ p
			if x <= t {
				return -1
			}
			return 1
		})
		sum += float64(below) + float64(upto-below)/2
	}
	return sum / float64(len(pos)*len(neg))
}

// ClusterRanking adds docs to d in order, then looks each document up with
// Nearest(text, k+1), drops the document itself and scores the first k
// against its cluster mates (the relevant documents, by truth's exact
// cluster name). Documents alone in their cluster are not queries.
// progress, if not nil, is called after each query with the count so far.
func ClusterRanking(d detector.Detector, docs []detector.Doc, truth ClusterTruth, k int, progress func(done int)) (RankScores, error) {
	r, ok := d.(detector.Ranker)
	if !ok {
		return RankScores{}, fmt.Errorf("eval: %T does not rank (detector.Ranker)", d)
	}
	size := map[string]int{}
	for _, doc := range docs {
		if c, ok := truth[doc.ID]; ok {
			size[c]++
		}
		if _, err := d.Add(doc); err != nil {
			return RankScores{}, fmt.Errorf("eval: %w", err)
		}
	}
	var s RankScores
	for i, doc := range docs {
		c, ok := truth[doc.ID]
		if !ok || size[c] < 2 {
			continue
		}
		ms, err := r.Nearest(doc.Text, k+1)
		if err != nil {
			return RankScores{}, fmt.Errorf("eval: %w", err)
		}
		ranked := make([]string, 0, len(ms))
		for _, m := range ms {
			if m.ID != doc.ID {
				ranked = append(ranked, m.ID)
			}
		}
		ranked = ranked[:min(k, len(ranked))]
		rel := func(id string) bool { return truth[id] == c }
		n := size[c] - 1
		s.Queries++
		s.MAP += AveragePrecision(ranked, rel, n, k)
		s.NDCG10 += NDCG(ranked, rel, n, 10)
		if len(ranked) > 0 && rel(ranked[0]) {
			s.P1++
		}
		if progress != nil {
			progress(i + 1)
		}
	}
	if s.Queries > 0 {
		q := float64(s.Queries)
		s.MAP, s.P1, s.NDCG10 = s.MAP/q, s.P1/q, s.NDCG10/q
	}
	return s, nil
}

// SourceScores is the quality of ranked lookup of answers among sources.
type SourceScores struct {
	// Derived and Independent count the answers of each kind.
	Derived, Independent int
	// MRR is the mean reciprocal rank of the own source for derived
	// answers (0 where it is not returned); AUC the area under the ROC
	// curve of the own source's score, derived against independent
	// answers (0 where it is not returned).
	MRR, AUC float64
}

// SourceRanking adds the sources (category "orig") of truth to d in the
// order of docs, then looks every other answer up with Nearest(text, k)
// and reads the rank and score of its own task's source. Answers of the
// categories in derived are derived, the others independent.
func SourceRanking(d detector.Detector, docs []detector.Doc, truth ContainmentTruth, k int, derived ...string) (SourceScores, error) {
	r, ok := d.(detector.Ranker)
	if !ok {
		return SourceScores{}, fmt.Errorf("eval: %T does not rank (detector.Ranker)", d)
	}
	source := map[string]string{}
	for _, doc := range docs {
		if truth.Category[doc.ID] == "orig" {
			source[truth.Task[doc.ID]] = doc.ID
			if _, err := d.Add(doc); err != nil {
				return SourceScores{}, fmt.Errorf("eval: %w", err)
			}
		}
	}
	var s SourceScores
	var pos, neg []float64
	for _, doc := range docs {
		cat := truth.Category[doc.ID]
		src, ok := source[truth.Task[doc.ID]]
		if cat == "" || cat == "orig" || !ok {
			continue
		}
		ms, err := r.Nearest(doc.Text, k)
		if err != nil {
			return SourceScores{}, fmt.Errorf("eval: %w", err)
		}
		rank, score := 0, 0.0
		for i, m := range ms {
			if m.ID == src {
				rank, score = i+1, m.Score
				break
			}
		}
		if slices.Contains(derived, cat) {
			s.Derived++
			pos = append(pos, score)
			if rank > 0 {
				s.MRR += 1 / float64(rank)
			}
		} else {
			s.Independent++
			neg = append(neg, score)
		}
	}
	if s.Derived > 0 {
		s.MRR /= float64(s.Derived)
	}
	s.AUC = AUC(pos, neg)
	return s, nil
}
