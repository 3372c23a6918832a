// Package peerbench times the neardup MinHash/LSH and SimHash against two
// Go peers, github.com/ekzhu/minhash-lsh and github.com/dgryski/go-minhash,
// on the Reuters-21578 corpus. It is a nested
// module so that the peers never become dependencies of the library.
//
// This file holds the measurement support: the shared shingle sets, exact
// Jaccard ground truth and the recall comparison. The benchmarks are in
// peerbench_test.go; README.md says how to run them. The corpus and the
// floor come from the main module's internal/dataset and
// internal/testkit, which this module may import: its import path lies
// under the main module's.
package peerbench

import (
	"slices"
	"strings"

	"github.com/seed-9ef9c1df/neardup/textproc"
)

// Settings shared by every side of the comparison.
const (
	// K is the signature length of every MinHash.
	K = 128
	// ShingleWords is the words per shingle: lower-cased word 3-shingles.
	ShingleWords = 3
	// Threshold is the Jaccard threshold of every LSH index and of the
	// ground truth.
	Threshold = 0.5
	// DefaultDocs is how many Reuters documents the benchmarks use.
	DefaultDocs = 5000
	// ReutersFile is the corpus file in shared/data (read through the main
	// module's internal/dataset, which finds ../shared/data or
	// $NEARDUP_DATA).
	ReutersFile = "reuters21578.jsonl"
)

// Shingler makes the shingle byte strings the peers are fed: the words of
// textproc.TermSpans, each analysed by a language-neutral textproc.Analyzer
// (lower-casing only, no stopwords, no stemming: the analysis of
// minhash.Sketcher with Language ""), joined by one space in runs of w. As
// in minhash.Sketcher, a text of fewer than w words (but at least one) has
// one shingle of all its words. The result is distinct and sorted.
type Shingler struct {
	an    *textproc.Analyzer
	w     int
	terms []string
}

// NewShingler returns a Shingler of w-word shingles.
func NewShingler(w int) *Shingler {
	an, err := textproc.NewAnalyzer(textproc.Config{})
	if err != nil {
		panic(err) // the zero Config never fails
	}
	return &Shingler{an: an, w: w}
}

// Shingles returns the distinct shingles of text, sorted.
func (s *Shingler) Shingles(text string) []string {
	s.terms = s.terms[:0]
	for sp := range textproc.TermSpans(text) {
		if t, ok := s.an.Term(text[sp.Start:sp.End]); ok {
			s.terms = append(s.terms, t)
		}
	}
	var out []string
	switch {
	case len(s.terms) == 0:
		return nil
	case len(s.terms) < s.w:
		out = append(out, strings.Join(s.terms, " "))
	default:
		for i := 0; i+s.w <= len(s.terms); i++ {
			out = append(out, strings.Join(s.terms[i:i+s.w], " "))
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// Jaccard returns |a∩b|/|a∪b| of two sorted, distinct string sets (0 when
// both are empty).
func Jaccard(a, b []string) float64 {
	inter, i, j := 0, 0, 0
	for i < len(a) && j < len(b) {
		switch c := strings.Compare(a[i], b[j]); {
		case c == 0:
			inter++
			i++
			j++
		case c < 0:
			i++
		default:
			j++
		}
	}
	union := len(a) + len(b) - inter
	if union == 0 {
		return 0
	}
	return float64(inter) / float64(union)
}

// Pair is an unordered document pair by corpus index, A < B.
type Pair struct{ A, B int32 }

// MakePair returns the pair {i, j} in canonical order.
func MakePair(i, j int) Pair {
	if i > j {
		i, j = j, i
	}
	return Pair{int32(i), int32(j)}
}

// ExactPairs returns every pair of sets whose exact Jaccard is at least t
// (t > 0), with its Jaccard: all pairs, not a sample, found through an
// inverted index of the shingles (a pair with J ≥ t > 0 shares a shingle)
// with the size filter min/max ≥ t. Empty sets pair with nothing.
func ExactPairs(sets [][]string, t float64) map[Pair]float64 {
	ids := map[string]int32{}
	docs := make([][]int32, len(sets))
	for i, s := range sets {
		for _, sh := range s {
			id, ok := ids[sh]
			if !ok {
				id = int32(len(ids))
				ids[sh] = id
			}
			docs[i] = append(docs[i], id)
		}
	}
	post := make([][]int32, len(ids))
	count := make([]int32, len(sets))
	var touched []int32
	out := map[Pair]float64{}
	for i, d := range docs {
		touched = touched[:0]
		for _, id := range d {
			for _, j := range post[id] {
				if count[j] == 0 {
					touched = append(touched, j)
				}
				count[j]++
			}
			post[id] = append(post[id], int32(i))
		}
		for _, j := range touched {
			c := int(count[j])
			count[j] = 0
			a, b := len(d), len(docs[j])
			if float64(min(a, b)) < t*float64(max(a, b)) {
				continue
			}
			if jac := float64(c) / float64(a+b-c); jac >= t {
				out[MakePair(i, int(j))] = jac
			}
		}
	}
	return out
}

// Score compares the pairs a detector reported with the true pairs.
type Score struct {
	Truth     int     // true pairs (exact Jaccard ≥ threshold)
	Reported  int     // distinct pairs reported
	Hits      int     // reported pairs that are true
	Recall    float64 // Hits / Truth (1 when there is no true pair)
	Precision float64 // Hits / Reported (1 when nothing is reported)
}

// Evaluate scores the reported pairs against truth. Self-pairs (A == B)
// and repeats are ignored.
func Evaluate[V any](truth map[Pair]V, reported []Pair) Score {
	seen := make(map[Pair]bool, len(reported))
	s := Score{Truth: len(truth)}
	for _, p := range reported {
		if p.A == p.B {
			continue
		}
		p = MakePair(int(p.A), int(p.B))
		if seen[p] {
			continue
		}
		seen[p] = true
		s.Reported++
		if _, ok := truth[p]; ok {
			s.Hits++
		}
	}
	s.Recall, s.Precision = 1, 1
	if s.Truth > 0 {
		s.Recall = float64(s.Hits) / float64(s.Truth)
	}
	if s.Reported > 0 {
		s.Precision = float64(s.Hits) / float64(s.Reported)
	}
	return s
}

// AtLeastAsGood reports whether ours recalls at least as many true pairs as
// peer, out of the same truth: the target, equal or better recall.
func AtLeastAsGood(ours, peer Score) bool {
	return ours.Truth == peer.Truth && ours.Hits >= peer.Hits
}
