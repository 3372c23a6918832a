package ner

import (
	"fmt"
	"os"
	"sort"
	"testing"
)

func TestScratchGiven(t *testing.T) {
	if os.Getenv("NER_GIVEN") == "" {
		t.Skip()
	}
	sents := readGold(t, nerCorpus())
	sents = sents[:heldAsideStart(len(sents))]
	r, _ := New(Config{})
	cnt := map[string]int{}
	other := map[string]int{}
	for _, s := range sents {
		for _, sp := range s.spans {
			if sp.to-sp.from < 2 {
				continue
			}
			w := s.toks[sp.from]
			k := r.fold(w)
			if sp.typ == Person && !r.givenNames[k] && !r.ambiguous[k] {
				cnt[w]++
			}
			if sp.typ != Person {
				other[w]++
			}
		}
	}
	var ks []string
	for k, v := range cnt {
		if v >= 3 {
			ks = append(ks, k)
		}
	}
	sort.Slice(ks, func(a, b int) bool { return cnt[ks[a]] > cnt[ks[b]] })
	for _, k := range ks {
		fmt.Printf("%s:%d/%d ", k, cnt[k], other[k])
	}
	fmt.Println()
}
