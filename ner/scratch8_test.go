package ner

import (
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"
)

func TestScratchPlaces(t *testing.T) {
	if os.Getenv("NER_PLACES") == "" {
		t.Skip()
	}
	sents := readGold(t, nerCorpus())
	sents = sents[:heldAsideStart(len(sents))]
	r, _ := New(evalConfig)
	cnt := map[string]int{}
	other := map[string]int{}
	for _, s := range sents {
		for _, sp := range s.spans {
			w := strings.Join(s.toks[sp.from:sp.to], " ")
			k := r.entryKey(w)
			if sp.typ.String() == os.Getenv("NER_PLACES") && !r.locations[k] && !r.orgs[k] && !r.orgSuf[r.fold(s.toks[sp.to-1])] && !r.locSuf[r.fold(s.toks[sp.to-1])] {
				cnt[w]++
			}
			if sp.typ.String() != os.Getenv("NER_PLACES") {
				other[w]++
			}
		}
	}
	var ks []string
	for k, v := range cnt {
		if v >= 2 {
			ks = append(ks, k)
		}
	}
	sort.Slice(ks, func(a, b int) bool { return cnt[ks[a]] > cnt[ks[b]] })
	for _, k := range ks {
		fmt.Printf("%s:%d/%d|", k, cnt[k], other[k])
	}
	fmt.Println()
}
