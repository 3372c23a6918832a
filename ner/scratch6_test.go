package ner

import (
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"
)

func TestScratchRules(t *testing.T) {
	if os.Getenv("NER_RULES") == "" {
		t.Skip()
	}
	sents := readGold(t, nerCorpus())
	sents = sents[:heldAsideStart(len(sents))]
	r, _ := New(Config{})
	tp, fp := map[string]int{}, map[string]int{}
	per := 1
	if os.Getenv("NER_RULES") == "blocks" {
		per = evalBlock
	}
	for _, d := range docsOf(sents, separated, per) {
		debugRules = map[[2]int]string{}
		want := map[[2]int]Type{}
		for _, g := range d.gold {
			want[[2]int{g.start, g.end}] = g.typ
		}
		for _, e := range r.Find(d.text) {
			k := [2]int{e.Start, e.End}
			rule := e.Type.String() + " " + debugRules[k]
			if want[k] == e.Type {
				tp[rule]++
			} else {
				fp[rule]++
				if w := os.Getenv("NER_SHOW"); w != "" && strings.Contains(rule, w) && fp[rule] < 80 {
					gs := ""
					for g, gt := range want {
						if g[0] < e.End && e.Start < g[1] {
							gs += gt.String() + ":" + d.text[g[0]:g[1]] + " "
						}
					}
					fmt.Printf("   %q gold[%s] in %q\n", d.text[e.Start:e.End], gs, strings.ReplaceAll(d.text[max(0, e.Start-40):min(len(d.text), e.End+30)], "\n", " "))
				}
			}
		}
	}
	debugRules = nil
	var ks []string
	for k := range tp {
		ks = append(ks, k)
	}
	for k := range fp {
		if tp[k] == 0 {
			ks = append(ks, k)
		}
	}
	sort.Strings(ks)
	for _, k := range ks {
		fmt.Printf("%-60s tp %5d fp %5d  prec %.2f\n", k, tp[k], fp[k], float64(tp[k])/float64(tp[k]+fp[k]))
	}
}
