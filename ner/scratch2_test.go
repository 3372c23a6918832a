package ner

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

func TestScratchMemory(t *testing.T) {
	if os.Getenv("NER_MEM") == "" {
		t.Skip()
	}
	sents := readGold(t, nerCorpus())
	sents = sents[:heldAsideStart(len(sents))]
	r, _ := New(Config{})
	counts := map[string]int{}
	ex := map[string][]string{}
	for _, d := range docsOf(sents, separated, evalBlock) {
		found := r.Find(d.text)
		got := map[[2]int]Type{}
		for _, e := range found {
			got[[2]int{e.Start, e.End}] = e.Type
		}
		for _, g := range d.gold {
			if g.typ != Person || got[[2]int{g.start, g.end}] == Person {
				continue
			}
			w := d.text[g.start:g.end]
			if strings.Contains(w, " ") {
				continue
			}
			cat := "nowhere"
			for _, e := range found {
				if e.Type == Person && e.Text != w && (strings.HasPrefix(e.Text, w+" ") || strings.HasSuffix(e.Text, " "+w) || strings.Contains(e.Text, " "+w+" ")) {
					if e.Start < g.start {
						cat = "found-earlier"
					} else if cat != "found-earlier" {
						cat = "found-later"
					}
				}
			}
			if cat == "nowhere" {
				for _, o := range d.gold {
					ow := d.text[o.start:o.end]
					if o.typ == Person && ow != w && strings.Contains(" "+ow+" ", " "+w+" ") {
						cat = "gold-only"
					}
				}
			}
			for _, e := range found {
				if e.Start < g.end && g.start < e.End {
					cat += "/overlap:" + e.Type.String()
					break
				}
			}
			ft, ok := got[[2]int{g.start, g.end}]
			cat += fmt.Sprintf("/out=%v,%v", ok, ft)
			counts[cat]++
			if len(ex[cat]) < 8 {
				ex[cat] = append(ex[cat], strings.ReplaceAll(d.text[max(0, g.start-40):g.start]+"["+w+"]"+d.text[g.end:min(len(d.text), g.end+30)], "\n", " "))
			}
		}
	}
	for k, v := range counts {
		fmt.Println(v, k)
		for _, e := range ex[k] {
			fmt.Println("     ", e)
		}
	}
}
