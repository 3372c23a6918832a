// Package sample embeds the example news stream: short Turkish and English
// articles written for neardup's examples, with syndicated copies, edited
// versions and articles contained in longer ones, and the relations among
// them.
package sample

import (
	_ "embed"
	"encoding/json"
	"strings"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/detector/eval"
)

//go:embed sample.jsonl
var sampleJSONL string

//go:embed relations.tsv
var relationsTSV string

// Article is one document of the stream with its language ("tr" or "en").
type Article struct {
	ID   string `json:"id"`
	Lang string `json:"lang"`
	Text string `json:"text"`
}

// Doc returns the article as a detector document.
func (a Article) Doc() detector.Doc { return detector.Doc{ID: a.ID, Text: a.Text} }

// Articles returns the stream in arrival order.
func Articles() []Article {
	var out []Article
	for _, line := range strings.Split(strings.TrimSpace(sampleJSONL), "\n") {
		var a Article
		if err := json.Unmarshal([]byte(line), &a); err != nil {
			panic("sample: embedded corpus is corrupt: " + err.Error())
		}
		out = append(out, a)
	}
	return out
}

// Relation is one known relation of the stream.
type Relation struct {
	// Dup says the two are near-duplicates (each contains the other);
	// otherwise Container ⊇ Contained.
	Dup                  bool
	Container, Contained string
}

// Relations returns the known relations of the stream.
func Relations() []Relation {
	var out []Relation
	for _, line := range strings.Split(relationsTSV, "\n") {
		if line == "" || line[0] == '#' {
			continue
		}
		f := strings.Split(line, "\t")
		out = append(out, Relation{Dup: f[0] == "dup", Container: f[1], Contained: f[2]})
	}
	return out
}

// TruthPairs returns the related unordered pairs.
func TruthPairs() map[eval.Pair]bool {
	out := map[eval.Pair]bool{}
	for _, r := range Relations() {
		out[eval.NewPair(r.Container, r.Contained)] = true
	}
	return out
}
