package ner

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestScratchAcr(t *testing.T) {
	if os.Getenv("NER_ACR") == "" {
		t.Skip()
	}
	sents := readGold(t, nerCorpus())
	sents = sents[:heldAsideStart(len(sents))]
	r, _ := New(Config{})
	cnt := map[string][2]int{}
	for _, d := range docsOf(sents, separated, 1) {
		want := map[[2]int]Type{}
		for _, g := range d.gold {
			want[[2]int{g.start, g.end}] = g.typ
		}
		for _, e := range r.Find(d.text) {
			if e.Type != Organization || strings.Contains(e.Text, " ") || !isAllCaps(e.Text) {
				continue
			}
			ok := want[[2]int{e.Start, e.End}] == Organization
			rest := strings.TrimLeft(d.text[e.End:], " ")
			f := []string{}
			if strings.HasPrefix(rest, "'") {
				f = append(f, "apos")
			}
			if strings.HasPrefix(rest, ":") {
				f = append(f, "colon")
			}
			if strings.HasPrefix(rest, "-") {
				f = append(f, "dash")
			}
			if _, sz := utf8.DecodeRuneInString(rest); sz > 0 && rest != "" && strings.ToUpper(rest[:sz]) == rest[:sz] && rest[:sz] != "'" && rest[:sz] != "," {
				f = append(f, "nextUpperOrPunct")
			}
			if e.Start == 0 {
				f = append(f, "first")
			}
			f = append(f, fmt.Sprintf("len%d", utf8.RuneCountInString(e.Text)))
			for _, x := range f {
				c := cnt[x]
				if ok {
					c[0]++
				} else {
					c[1]++
				}
				cnt[x] = c
			}
			c := cnt["all"]
			if ok {
				c[0]++
			} else {
				c[1]++
			}
			cnt["all"] = c
		}
	}
	for k, v := range cnt {
		fmt.Println(k, "tp", v[0], "fp", v[1])
	}
}
