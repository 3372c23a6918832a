package dedup

import (
	"context"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/passert"
	"github.com/stretchr/testify/require"
	"golang.org/x/text/language"

	"github.com/seed-9ef9c1df/neardup/textproc"
)

// DocWeight is a document's summed IDF weight over its distinct terms.
type DocWeight struct {
	ID     string
	Weight float64
}

// weighFn reads the IDF table as a side input, decoded once per instance:
// the pattern a signing stage of an IDF-weighted detector follows.
type weighFn struct {
	Cfg textproc.Config

	an  *textproc.Analyzer
	idf *textproc.IDF
}

func (f *weighFn) ProcessElement(_ context.Context, d Doc, table func(*[]byte) bool, emit func(DocWeight)) error {
	if f.idf == nil {
		var b []byte
		table(&b)
		idf, err := DecodeIDF(b)
		if err != nil {
			return err
		}
		an, err := textproc.NewAnalyzer(f.Cfg)
		if err != nil {
			return err
		}
		f.idf, f.an = idf, an
	}
	emit(DocWeight{ID: d.ID, Weight: weight(f.an, f.idf, d.Text)})
	return nil
}

func init() {
	register.DoFn4x1[context.Context, Doc, func(*[]byte) bool, func(DocWeight), error](&weighFn{})
	register.Emitter1[DocWeight]()
	register.Iter1[[]byte]()
}

func weight(an *textproc.Analyzer, idf *textproc.IDF, text string) float64 {
	seen := map[string]bool{}
	w := 0.0
	for _, tok := range an.Tokens(text) {
		if !seen[tok.Term] {
			seen[tok.Term] = true
			w += idf.Weight(tok.Term)
		}
	}
	return w
}

func TestIDFEqualsBuildIDF(t *testing.T) {
	docs := synthDocs(1500, 12)
	ac := textproc.FullConfig(language.English)
	an, err := textproc.NewAnalyzer(ac)
	require.NoError(t, err)
	texts := make([]string, len(docs))
	for i, d := range docs {
		texts[i] = d.Text
	}
	for _, smooth := range []bool{false, true} {
		ref := textproc.BuildIDF(an, texts, smooth)
		want, err := ref.MarshalBinary()
		require.NoError(t, err)
		var weights []DocWeight
		for _, d := range docs {
			weights = append(weights, DocWeight{ID: d.ID, Weight: weight(an, ref, d.Text)})
		}

		p, s := beam.NewPipelineWithRoot()
		in := beam.CreateList(s, docs)
		table, err := IDF(s, in, ac, smooth)
		require.NoError(t, err)
		passert.Equals(s, table, want)
		passert.EqualsList(s, beam.ParDo(s, &weighFn{Cfg: ac}, in, beam.SideInput{Input: table}), weights)
		_, err = run(t, p)
		require.NoError(t, err)
	}
}

func TestIDFNegativeControl(t *testing.T) {
	docs := synthDocs(200, 13)
	ac := textproc.Config{}
	an, err := textproc.NewAnalyzer(ac)
	require.NoError(t, err)
	var texts []string
	for _, d := range docs[1:] { // one document short: N and some df differ
		texts = append(texts, d.Text)
	}
	want, err := textproc.BuildIDF(an, texts, false).MarshalBinary()
	require.NoError(t, err)
	p, s := beam.NewPipelineWithRoot()
	table, err := IDF(s, beam.CreateList(s, docs), ac, false)
	require.NoError(t, err)
	passert.Equals(s, table, want)
	_, err = run(t, p)
	require.Error(t, err)
}
