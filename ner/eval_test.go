package ner

import (
	"bufio"
	"fmt"
	"github.com/seed-9ef9c1df/neardup/internal/dataset"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// nerCorpus returns the path of the NER gold standard in the shared data
// directory, or "" when it is absent.
func nerCorpus() string {
	p, err := dataset.Path("tr-ner.train.txt")
	if err != nil {
		return ""
	}
	return p
}

// goldEntity is a gold span of the NER corpus.
type goldEntity struct {
	typ        Type
	start, end int
}

// goldDoc is a block of sentences of tr-ner.train.txt rebuilt as text, with
// its gold spans.
type goldDoc struct {
	text string
	gold []goldEntity
}

// evalSentencesPerDoc is how many consecutive sentences of tr-ner.train.txt
// make one evaluation document. The file has no document boundaries; its
// sentences follow the order of the Milliyet articles, so a block of
// consecutive sentences stands in for a short article (partial matching and
// the lower-case check work within it).
const evalSentencesPerDoc = 20

// loadNERCorpus reads tr-ner.train.txt and returns its documents. Tokens are
// joined by spaces, except that a token starting with an apostrophe is glued
// to the one before ("Hakkari 'de" → "Hakkari'de"), as news text writes it;
// sentences are separated by an empty line.
func loadNERCorpus(t testing.TB, path string) []goldDoc {
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	var docs []goldDoc
	var b strings.Builder
	var gold []goldEntity
	n := 0
	flush := func() {
		if b.Len() > 0 {
			docs = append(docs, goldDoc{text: b.String(), gold: gold})
		}
		b.Reset()
		gold = nil
		n = 0
	}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := strings.TrimPrefix(sc.Text(), "\ufeff")
		toks := strings.Fields(line)
		if len(toks) == 0 {
			continue
		}
		if b.Len() > 0 {
			b.WriteString("\n\n")
		}
		first := true
		var cur *goldEntity
		for _, tok := range toks {
			switch {
			case cur == nil && (tok == "[PER" || tok == "[LOC" || tok == "[ORG"):
				typ := map[string]Type{"[PER": Person, "[LOC": Location, "[ORG": Organization}[tok]
				cur = &goldEntity{typ: typ, start: -1}
				continue
			case cur != nil && tok == "]":
				if cur.start >= 0 {
					gold = append(gold, *cur)
				}
				cur = nil
				continue
			}
			// Glue apostrophe suffixes, and the dot of an initial ("G .
			// Saray" → "G. Saray"), as news text writes them.
			prevInitial := b.Len() >= 2 && b.String()[b.Len()-2] == ' ' && isUpperASCII(b.String()[b.Len()-1])
			if !first && !strings.HasPrefix(tok, "'") && !strings.HasPrefix(tok, "’") && !(tok == "." && prevInitial) {
				b.WriteByte(' ')
			}
			first = false
			if cur != nil && cur.start < 0 {
				cur.start = b.Len()
			}
			b.WriteString(tok)
			if cur != nil {
				cur.end = b.Len()
			}
		}
		n++
		if n == evalSentencesPerDoc {
			flush()
		}
	}
	require.NoError(t, sc.Err())
	flush()
	return docs
}

func isUpperASCII(c byte) bool { return 'A' <= c && c <= 'Z' }

// prf holds true positives, false positives and false negatives.
type prf struct{ tp, fp, fn int }

func (c prf) p() float64  { return ratio(c.tp, c.tp+c.fp) }
func (c prf) r() float64  { return ratio(c.tp, c.tp+c.fn) }
func (c prf) f1() float64 { return ratio(2*c.tp, 2*c.tp+c.fp+c.fn) }

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// score compares found entities with gold ones, exact span and type.
func score(docs []goldDoc, rec *Recognizer) (byType map[Type]*prf, all prf) {
	byType = map[Type]*prf{Person: {}, Location: {}, Organization: {}}
	for _, d := range docs {
		want := map[goldEntity]bool{}
		for _, g := range d.gold {
			want[g] = true
		}
		got := map[goldEntity]bool{}
		for _, e := range rec.Find(d.text) {
			got[goldEntity{e.Type, e.Start, e.End}] = true
		}
		for g := range got {
			if want[g] {
				byType[g.typ].tp++
			} else {
				byType[g.typ].fp++
			}
		}
		for g := range want {
			if !got[g] {
				byType[g.typ].fn++
			}
		}
	}
	for _, c := range byType {
		all.tp += c.tp
		all.fp += c.fp
		all.fn += c.fn
	}
	return byType, all
}

func report(t *testing.T, name string, byType map[Type]*prf, all prf) {
	for _, typ := range []Type{Person, Location, Organization} {
		c := byType[typ]
		t.Logf("%-28s %s  P %.3f  R %.3f  F1 %.3f  (tp %d fp %d fn %d)", name, typ, c.p(), c.r(), c.f1(), c.tp, c.fp, c.fn)
	}
	t.Logf("%-28s ALL  P %.3f  R %.3f  F1 %.3f", name, all.p(), all.r(), all.f1())
}

// TestTrainingSetF1 measures exact-span precision, recall and F1 on the
// Turkish NER gold standard (Tür, Hakkani-Tür, Oflazer 2003), training part.
// The first 80% of the file was used to choose rule words; the last 20% is
// the dev split the floors below hold on.
func TestTrainingSetF1(t *testing.T) {
	path := nerCorpus()
	if path == "" {
		t.Skip("tr-ner.train.txt not found: the shared data directory (../shared/data beside the repository) is absent")
	}
	docs := loadNERCorpus(t, path)
	cut := len(docs) * 8 / 10
	dev := docs[cut:]

	gold, err := New(Config{SplitAtApostrophe: true})
	require.NoError(t, err)
	byType, all := score(dev, gold)
	report(t, "dev, SplitAtApostrophe", byType, all)
	// Floors a little below the measured figures, so that a regression fails.
	assert.GreaterOrEqual(t, all.f1(), floorF1, "overall F1 on the dev split")

	if testing.Short() {
		return
	}
	tuner, err := New(Config{})
	require.NoError(t, err)
	byType, all = score(dev, tuner)
	report(t, "dev, default (Fig. 4.1)", byType, all)
	byType, all = score(docs[:cut], gold)
	report(t, "first 80%, SplitAtApostrophe", byType, all)
}

// floorF1 is the overall dev-split F1 the test holds: measured 0.802
// (2026-11-22), floor a little below.
const floorF1 = 0.79

func TestPrintErrors(t *testing.T) {
	if os.Getenv("NER_ERRORS") == "" {
		t.Skip("set NER_ERRORS=1 to list errors on the first 80%")
	}
	if nerCorpus() == "" {
		t.Skip("tr-ner.train.txt not found")
	}
	docs := loadNERCorpus(t, nerCorpus())
	docs = docs[:len(docs)*8/10]
	rec, err := New(Config{SplitAtApostrophe: true})
	require.NoError(t, err)
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	for _, d := range docs {
		want := map[goldEntity]bool{}
		for _, g := range d.gold {
			want[g] = true
		}
		got := map[goldEntity]bool{}
		for _, e := range rec.Find(d.text) {
			got[goldEntity{e.Type, e.Start, e.End}] = true
		}
		for g := range got {
			if !want[g] {
				fmt.Fprintf(w, "FP %s\t%s\t%s\n", g.typ, d.text[g.start:g.end], d.text[max(0, g.start-40):min(len(d.text), g.end+40)])
			}
		}
		for g := range want {
			if !got[g] {
				fmt.Fprintf(w, "FN %s\t%s\t%s\n", g.typ, d.text[g.start:g.end], d.text[max(0, g.start-40):min(len(d.text), g.end+40)])
			}
		}
	}
}
