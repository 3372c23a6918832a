package textproc_test

import (
	"errors"
	"fmt"
	"sort"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/text/language"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/testkit"
	"github.com/seed-9ef9c1df/neardup/textproc"
)

// pipeline runs every stage of textproc on the documents of a stream, as
// a detector would, so that internal/testkit (Sweep) can drive a
// [textproc.Config] through its extremes: analysis (sentences, content
// blocks, stemming), an online IDF that documents are added to and removed
// from, and a weighted term overlap as the score.
type pipeline struct {
	mu     sync.Mutex
	an     *textproc.Analyzer
	idf    *textproc.IDF
	docs   map[string][]string
	closed bool
}

func newPipeline(cfg textproc.Config) (detector.Detector, error) {
	an, err := textproc.NewAnalyzer(cfg)
	if err != nil {
		return nil, err
	}
	return &pipeline{an: an, idf: textproc.NewIDF(true), docs: map[string][]string{}}, nil
}

func (p *pipeline) Add(d detector.Doc) ([]detector.Match, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return nil, detector.ErrClosed
	}
	if _, dup := p.docs[d.ID]; dup {
		return nil, detector.ErrDuplicateID
	}
	var terms []string
	for _, s := range p.an.Analyze(d.Text).Sentences {
		for _, tok := range s.Tokens {
			terms = append(terms, tok.Term)
		}
	}
	if err := p.idf.AddDocument(terms); err != nil {
		return nil, err
	}
	p.docs[d.ID] = terms
	return p.matches(d.ID), nil
}

func (p *pipeline) matches(id string) []detector.Match {
	mine := map[string]bool{}
	total := 0.0
	for _, w := range p.docs[id] {
		if !mine[w] {
			mine[w] = true
			total += p.idf.Weight(w)
		}
	}
	var out []detector.Match
	for other, terms := range p.docs {
		if other == id || total == 0 {
			continue
		}
		shared, seen := 0.0, map[string]bool{}
		for _, w := range terms {
			if mine[w] && !seen[w] {
				seen[w] = true
				shared += p.idf.Weight(w)
			}
		}
		if shared > 0 {
			out = append(out, detector.Match{ID: other, Score: shared / total})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

func (p *pipeline) Containers(id string) ([]detector.Match, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return nil, detector.ErrClosed
	}
	if _, ok := p.docs[id]; !ok {
		return nil, detector.ErrUnknownID
	}
	return p.matches(id), nil
}

func (p *pipeline) Remove(id string) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	terms, ok := p.docs[id]
	if !ok {
		return detector.ErrUnknownID
	}
	delete(p.docs, id)
	return p.idf.RemoveDocument(terms)
}

func (p *pipeline) Close() error {
	p.mu.Lock()
	p.closed = true
	p.mu.Unlock()
	return nil
}

// TestConfigSweep drives every numeric field of textproc.Config (Stemmer,
// PrefixLen, Content) through 0, -1, 1, the extremes of its type and half
// its maximum: NewAnalyzer must reject every value the pipeline cannot
// survive, and every value it accepts must run a stream (with Turkish
// first-5 stemming, stopwords and the content filter on) without a panic,
// a non-finite score or a hang. textproc.Config has no float field, so no
// NaN or infinity reaches it.
func TestConfigSweep(t *testing.T) {
	base := textproc.FullConfig(language.Turkish)
	base.Content = textproc.ContentMain
	c := testkit.Sweep(t, base, newPipeline)
	t.Logf("config sweep: %d cases, %d rejected, %d accepted", c.Cases, c.Rejected, c.Accepted)
	assert.Equal(t, 16, c.Cases, "Stemmer and PrefixLen (6 values each), Content (4)")
	// Rejected: Stemmer -1, MaxInt, MaxInt/2, MinInt; PrefixLen -1,
	// MinInt; Content 255, 127.
	assert.Equal(t, 8, c.Rejected)
	for _, cfg := range []textproc.Config{{Stemmer: -1}, {Stemmer: 3}, {PrefixLen: -1}, {Content: 3}} {
		_, err := textproc.NewAnalyzer(cfg)
		require.Error(t, err, "%+v", cfg)
		assert.True(t, errors.Is(err, detector.ErrInvalidConfig), "%+v: %v", cfg, err)
	}
}

func ExampleNewAnalyzer() {
	_, err := textproc.NewAnalyzer(textproc.Config{PrefixLen: -1})
	fmt.Println(err)
	a, err := textproc.NewAnalyzer(textproc.Config{Stemmer: textproc.StemPrefix})
	if err != nil {
		panic(err)
	}
	fmt.Println(a.Config().PrefixLen, a.Config().Content)
	// Output:
	// textproc: PrefixLen (-1) must be ≥ 0: invalid config
	// 5 all
}
