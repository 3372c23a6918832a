package peerbench

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/seed-9ef9c1df/neardup/internal/dataset"
	"github.com/seed-9ef9c1df/neardup/minhash"
)

func TestJaccard(t *testing.T) {
	a := []string{"a b c", "b c d", "c d e"}
	b := []string{"b c d", "c d e", "d e f", "e f g"}
	if got := Jaccard(a, b); got != 2.0/5 {
		t.Errorf("Jaccard = %v, want 0.4", got)
	}
	if got := Jaccard(nil, nil); got != 0 {
		t.Errorf("Jaccard of empty sets = %v, want 0", got)
	}
	if got := Jaccard(a, a); got != 1 {
		t.Errorf("Jaccard(a, a) = %v, want 1", got)
	}
}

func TestShingler(t *testing.T) {
	s := NewShingler(3)
	got := s.Shingles("The cat, THE CAT sat. The cat")
	want := []string{"cat sat the", "cat the cat", "sat the cat", "the cat sat", "the cat the"}
	if !slices.Equal(got, want) {
		t.Errorf("Shingles = %q, want %q", got, want)
	}
	if got := s.Shingles("Two Words"); !slices.Equal(got, []string{"two words"}) {
		t.Errorf("short text: %q", got)
	}
	if got := s.Shingles(" ,. "); got != nil {
		t.Errorf("no words: %q", got)
	}
}

// TestExactPairs checks the inverted-index ground truth against brute
// force over every pair, on random sets with planted near-duplicates.
func TestExactPairs(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var sets [][]string
	for range 120 {
		var s []string
		if len(sets) > 0 && r.IntN(3) == 0 {
			// A variant of an earlier set.
			for _, x := range sets[r.IntN(len(sets))] {
				if r.IntN(4) != 0 {
					s = append(s, x)
				}
			}
		}
		for range r.IntN(12) {
			s = append(s, fmt.Sprint(r.IntN(60)))
		}
		slices.Sort(s)
		sets = append(sets, slices.Compact(s))
	}
	for _, th := range []float64{0.2, 0.5, 0.8, 1} {
		got := ExactPairs(sets, th)
		want := map[Pair]float64{}
		for i := range sets {
			for j := i + 1; j < len(sets); j++ {
				if jac := Jaccard(sets[i], sets[j]); jac >= th && jac > 0 {
					want[MakePair(i, j)] = jac
				}
			}
		}
		if len(want) == 0 {
			t.Fatalf("t=%v: no true pair, the test proves nothing", th)
		}
		if len(got) != len(want) {
			t.Errorf("t=%v: %d pairs, want %d", th, len(got), len(want))
		}
		for p, jac := range want {
			if got[p] != jac {
				t.Errorf("t=%v: pair %v: got %v, want %v", th, p, got[p], jac)
			}
		}
	}
}

func TestEvaluate(t *testing.T) {
	truth := map[Pair]float64{{0, 1}: 0.9, {2, 3}: 0.6, {4, 5}: 0.5, {1, 7}: 0.7}
	// Found: two true pairs (one given reversed and repeated), a self pair
	// (ignored) and one false pair.
	found := []Pair{{1, 0}, {0, 1}, {2, 3}, {3, 3}, {5, 6}}
	s := Evaluate(truth, found)
	want := Score{Truth: 4, Reported: 3, Hits: 2, Recall: 0.5, Precision: 2.0 / 3}
	if s != want {
		t.Errorf("Evaluate = %+v, want %+v", s, want)
	}
	if s := Evaluate(map[Pair]bool{}, nil); s.Recall != 1 || s.Precision != 1 {
		t.Errorf("empty: %+v", s)
	}

	peer := Evaluate(truth, []Pair{{0, 1}, {2, 3}, {4, 5}})
	if AtLeastAsGood(s, peer) {
		t.Errorf("ours %+v recalls less than peer %+v, judged at least as good", s, peer)
	}
	if !AtLeastAsGood(peer, s) {
		t.Errorf("peer %+v vs ours %+v", peer, s)
	}
	// Equal hits are equal recall, whatever the precision.
	noisy := Evaluate(truth, []Pair{{0, 1}, {4, 5}, {8, 9}, {9, 10}})
	if !AtLeastAsGood(noisy, s) || !AtLeastAsGood(s, noisy) {
		t.Errorf("equal hits: %+v vs %+v", noisy, s)
	}
	// Scores of different truths do not compare.
	other := Evaluate(map[Pair]bool{{0, 1}: true}, []Pair{{0, 1}})
	if AtLeastAsGood(other, s) {
		t.Error("scores over different truths compared")
	}
}

// TestSimilarity64 checks the peers' verification estimate.
func TestSimilarity64(t *testing.T) {
	if got := similarity64([]uint64{1, 2, 3, 4}, []uint64{1, 0, 3, 0}); got != 0.5 {
		t.Errorf("similarity64 = %v", got)
	}
}

// TestPushShingles checks that the peers' end-to-end shingling pushes
// exactly the Shingler's set (with repeats).
func TestPushShingles(t *testing.T) {
	sh := NewShingler(ShingleWords)
	for _, text := range []string{"The cat, THE CAT sat. The cat", "Two Words", "", "İstanbul'da 1.500 kişi; don't PANIC now"} {
		var got []string
		pushShingles(sh.an, text, func(b []byte) { got = append(got, string(b)) })
		slices.Sort(got)
		got = slices.Compact(got)
		if want := sh.Shingles(text); !slices.Equal(got, want) {
			t.Errorf("%q: pushed %q, want %q", text, got, want)
		}
	}
}

// TestSameShingles checks on Reuters that the peers' shingle strings are
// the very sets our MinHash signs: the Sketcher's distinct-shingle count
// equals the Shingler's for every document, and exact Jaccard over our
// shingle hashes equals exact Jaccard over the strings.
func TestSameShingles(t *testing.T) {
	docs, err := dataset.Load(ReutersFile)
	if errors.Is(err, dataset.ErrNoData) {
		t.Skipf("skipping: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	docs = docs[:min(len(docs), 300)]
	sk, err := minhash.NewSketcher(minhashConfig)
	if err != nil {
		t.Fatal(err)
	}
	sh := NewShingler(ShingleWords)
	var strs [][]string
	var hashes [][]uint64
	for _, d := range docs {
		set := sh.Shingles(d.Text)
		_, size := sk.AppendSignature(nil, d.Text)
		if size != len(set) {
			t.Fatalf("%s: Sketcher counts %d shingles, Shingler %d", d.ID, size, len(set))
		}
		strs = append(strs, set)
		hashes = append(hashes, sk.Shingles(nil, d.Text))
	}
	for i := range 40 {
		for j := range len(docs) {
			if a, b := Jaccard(strs[i], strs[j]), jaccard64(hashes[i], hashes[j]); a != b {
				t.Fatalf("%s, %s: Jaccard of strings %v, of hashes %v", docs[i].ID, docs[j].ID, a, b)
			}
		}
	}
}

func jaccard64(a, b []uint64) float64 {
	inter := 0
	for _, x := range a {
		if _, ok := slices.BinarySearch(b, x); ok {
			inter++
		}
	}
	if u := len(a) + len(b) - inter; u > 0 {
		return float64(inter) / float64(u)
	}
	return 0
}
