package ner

import (
	"fmt"
	"os"
	"sort"
	"testing"
)

func TestScratchHeads(t *testing.T) {
	if os.Getenv("NER_HEADS") == "" {
		t.Skip()
	}
	sents := readGold(t, nerCorpus())
	sents = sents[:heldAsideStart(len(sents))]
	r, _ := New(Config{})
	cnt := map[string]*[4]int{}
	for _, s := range sents {
		for _, sp := range s.spans {
			if sp.to-sp.from < 2 {
				continue
			}
			k := r.fold(s.toks[sp.to-1])
			if cnt[k] == nil {
				cnt[k] = &[4]int{}
			}
			cnt[k][sp.typ]++
		}
	}
	var ks []string
	for k, v := range cnt {
		if v[1]+v[2]+v[3] >= 4 {
			ks = append(ks, k)
		}
	}
	sort.Slice(ks, func(a, b int) bool { x, y := cnt[ks[a]], cnt[ks[b]]; return x[2]+x[3] > y[2]+y[3] })
	for _, k := range ks {
		v := cnt[k]
		mark := ""
		if r.locSuf[k] {
			mark += "L"
		}
		if r.orgSuf[k] {
			mark += "O"
		}
		if mark == "" && v[1] == 0 {
			mark = "-"
		}
		fmt.Printf("%s[%s] per%d loc%d org%d\n", k, mark, v[1], v[2], v[3])
	}
}
