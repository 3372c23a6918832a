package ner

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

func TestScratchFN(t *testing.T) {
	typ := os.Getenv("NER_FN")
	if typ == "" {
		t.Skip()
	}
	sents := readGold(t, nerCorpus())
	sents = sents[:heldAsideStart(len(sents))]
	r, _ := New(evalConfig)
	cnt := map[string]int{}
	ex := map[string][]string{}
	for _, d := range docsOf(sents, separated, 1) {
		found := r.Find(d.text)
		for _, g := range d.gold {
			if g.typ.String() != typ {
				continue
			}
			hit := false
			cat := "miss"
			for _, e := range found {
				if e.Start == g.start && e.End == g.end {
					if e.Type == g.typ {
						hit = true
					} else {
						cat = "type:" + e.Type.String()
					}
				} else if e.Start < g.end && g.start < e.End && cat == "miss" {
					cat = "boundary:" + e.Type.String()
				}
			}
			if hit {
				continue
			}
			n := strings.Count(d.text[g.start:g.end], " ") + 1
			if g.start == 0 {
				cat += "/first"
			}
			cat += fmt.Sprintf("/n%d", min(n, 3))
			cnt[cat]++
			if len(ex[cat]) < 12 {
				ex[cat] = append(ex[cat], d.text[max(0, g.start-30):g.start]+"["+d.text[g.start:g.end]+"]"+d.text[g.end:min(len(d.text), g.end+25)])
			}
		}
	}
	for k, v := range cnt {
		fmt.Println(v, k)
		if os.Getenv("NER_EX") != "" && strings.Contains(k, os.Getenv("NER_EX")) {
			for _, e := range ex[k] {
				fmt.Println("     ", e)
			}
		}
	}
}
