package ner

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

func TestScratch(t *testing.T) {
	in := os.Getenv("NER_SCRATCH")
	if in == "" {
		t.Skip()
	}
	r, _ := New(Config{})
	for _, s := range strings.Split(in, "|") {
		fmt.Printf("%q\n", s)
		d := &doc{text: s, lower: map[string]bool{}, apos: map[string]bool{}, mem: memory{}}
		r.tokenize(d)
		for _, w := range d.words {
			fmt.Printf("  %q cap=%v start=%v join=%v apos=%v\n", s[w.start:w.end], w.capital, w.sentStart, w.join, w.apos)
		}
		for _, e := range r.Find(s) {
			fmt.Printf("  => %s %q\n", e.Type, e.Text)
		}
	}
}
