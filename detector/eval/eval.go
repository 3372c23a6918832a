// Package eval measures detectors against labelled data: pair-level
// precision, recall and F1 for near-duplicate clusters, per-category
// containment rates, and the helpers to run a detector over a collection.
//
// Every quality figure neardup publishes is produced by these functions,
// through examples/evaluate.
//
// # Concurrency
//
// The functions are pure; [Relations] drives one detector from one goroutine.
package eval

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/seed-9ef9c1df/neardup/detector"
)

// Pair is an unordered pair of document IDs, A < B.
type Pair struct{ A, B string }

// NewPair returns the pair of a and b in canonical order.
func NewPair(a, b string) Pair {
	if b < a {
		a, b = b, a
	}
	return Pair{a, b}
}

// Edge is one reported relation: Container ⊇ Contained (for symmetric
// detectors the edge is reported in both directions).
type Edge struct {
	Container, Contained string
	Score                float64
}

// Relations adds docs to d in order and then asks Containers of every
// document, returning every reported edge, sorted by (Contained, Container).
// Asking at the end sees relations discovered after a document was added.
// progress, if not nil, is called after each Add with the count so far.
func Relations(d detector.Detector, docs []detector.Doc, progress func(done int)) ([]Edge, error) {
	for i, doc := range docs {
		if _, err := d.Add(doc); err != nil {
			return nil, fmt.Errorf("eval: %w", err)
		}
		if progress != nil {
			progress(i + 1)
		}
	}
	var edges []Edge
	for _, doc := range docs {
		ms, err := d.Containers(doc.ID)
		if err != nil {
			return nil, fmt.Errorf("eval: %w", err)
		}
		for _, m := range ms {
			edges = append(edges, Edge{Container: m.ID, Contained: doc.ID, Score: m.Score})
		}
	}
	slices.SortFunc(edges, func(a, b Edge) int {
		return cmp.Or(cmp.Compare(a.Contained, b.Contained), cmp.Compare(a.Container, b.Container))
	})
	return edges, nil
}

// Pairs returns the unordered pairs of edges (a pair counts as found if
// either direction is reported), with the highest score of either direction.
func Pairs(edges []Edge) map[Pair]float64 {
	out := make(map[Pair]float64, len(edges))
	for _, e := range edges {
		p := NewPair(e.Container, e.Contained)
		if s, ok := out[p]; !ok || e.Score > s {
			out[p] = e.Score
		}
	}
	return out
}

// Counts is a confusion count over pairs.
type Counts struct {
	TP, FP, FN int
	// TN is the number of negative pairs not reported, when known.
	TN int
}

// Precision returns TP/(TP+FP), or 1 when nothing was reported.
func (c Counts) Precision() float64 { return ratio(c.TP, c.TP+c.FP, 1) }

// Recall returns TP/(TP+FN), or 1 when there is nothing to find.
func (c Counts) Recall() float64 { return ratio(c.TP, c.TP+c.FN, 1) }

// ratio returns n/d, or empty when d is 0.
func ratio(n, d int, empty float64) float64 {
	if d == 0 {
		return empty
	}
	return float64(n) / float64(d)
}

// F1 returns the harmonic mean of precision and recall.
func (c Counts) F1() float64 {
	p, r := c.Precision(), c.Recall()
	if p+r == 0 {
		return 0
	}
	return 2 * p * r / (p + r)
}

// String formats the counts with P/R/F1.
func (c Counts) String() string {
	return fmt.Sprintf("P %.3f R %.3f F1 %.3f (TP %d FP %d FN %d)", c.Precision(), c.Recall(), c.F1(), c.TP, c.FP, c.FN)
}

// ClusterTruth holds the cluster label of every document.
type ClusterTruth map[string]string

// Sibling strips trailing digits from a cluster name: clusters named alike
// but for a trailing digit ("Shooting2", "Shooting3") cover related stories.
// A name of digits only ("1", "2") is returned whole: such names are
// numbers, not variants of one name.
func Sibling(cluster string) string {
	if stem := strings.TrimRightFunc(cluster, func(r rune) bool { return '0' <= r && r <= '9' }); stem != "" {
		return stem
	}
	return cluster
}

// SiblingPairs returns the number of pairs of documents in different
// clusters that are equal after [Sibling]: the pairs lenient Score counts
// neither right nor wrong, so that they are left out of the negatives
// ([Counts.WithNegatives]) too.
func (t ClusterTruth) SiblingPairs() int {
	clusters, stems := map[string]int{}, map[string]int{}
	for _, c := range t {
		if c != "" {
			clusters[c]++
			stems[Sibling(c)]++
		}
	}
	return pairsWithin(stems) - pairsWithin(clusters)
}

// pairsWithin returns the number of pairs of documents in the same group,
// given the size of each group.
func pairsWithin(size map[string]int) int {
	n := 0
	for _, m := range size {
		n += m * (m - 1) / 2
	}
	return n
}

// Score compares found pairs with the clusters: a pair is positive when both
// documents have the same non-empty cluster. Strict mode counts every other
// reported pair as a false positive. Lenient mode does not count a reported
// pair across sibling clusters (different clusters equal after [Sibling],
// which cover related stories) as an error; such pairs are never positives
// either, so recall is the same in both modes. Documents without a label
// are ignored.
func (t ClusterTruth) Score(found map[Pair]float64, lenient bool) Counts {
	label := func(id string) (string, bool) {
		c, ok := t[id]
		return c, ok && c != ""
	}
	var c Counts
	for p := range found {
		ka, oka := label(p.A)
		kb, okb := label(p.B)
		switch {
		case !oka || !okb:
		case ka == kb:
			c.TP++
		case lenient && Sibling(ka) == Sibling(kb):
			// related stories: neither right nor wrong
		default:
			c.FP++
		}
	}
	size := map[string]int{}
	for id := range t {
		if k, ok := label(id); ok {
			size[k]++
		}
	}
	c.FN = pairsWithin(size) - c.TP
	return c
}

// ContainmentTruth labels documents for graded containment in the manner of
// the Clough-Stevenson corpus: each answer has a category (cut, light,
// heavy, non) and a task naming its source document (category "orig").
type ContainmentTruth struct {
	// Category and Task of every document by ID.
	Category, Task map[string]string
}

// Rates returns, per category, the fraction of answers reported as contained
// in the source of their task, and the counts treating the positive
// categories as positives (the rest as negatives).
func (t ContainmentTruth) Rates(edges []Edge, positive ...string) (rates map[string]float64, counts Counts) {
	source := map[string]string{}
	for id, c := range t.Category {
		if c == "orig" {
			source[t.Task[id]] = id
		}
	}
	contained := map[string]bool{}
	for _, e := range edges {
		if src, ok := source[t.Task[e.Contained]]; ok && e.Container == src {
			contained[e.Contained] = true
		}
	}
	total, hit := map[string]int{}, map[string]int{}
	for id, c := range t.Category {
		if c == "orig" || source[t.Task[id]] == "" {
			continue
		}
		total[c]++
		pos := slices.Contains(positive, c)
		switch {
		case contained[id] && pos:
			hit[c]++
			counts.TP++
		case contained[id]:
			hit[c]++
			counts.FP++
		case pos:
			counts.FN++
		default:
			counts.TN++
		}
	}
	rates = map[string]float64{}
	for c, n := range total {
		rates[c] = float64(hit[c]) / float64(n)
	}
	return rates, counts
}
