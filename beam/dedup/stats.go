package dedup

import (
	"context"
	"fmt"
	"slices"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"github.com/seed-9ef9c1df/neardup/textproc"
)

// termDF is one term's document frequency, or (Term "", DF n) the number
// of documents.
type termDF struct {
	Term string
	DF   int64
}

func init() {
	register.DoFn3x1[context.Context, Doc, func(string, int64), error](&termsFn{})
	register.Function2x1(sumInt64)
	register.Function2x1(toTermDF)
	register.Combiner3[idfAcc, termDF, []byte](&idfFn{})
	register.Emitter2[string, int64]()
}

// numDocsKey carries the document count through the term counts: no term
// is empty.
const numDocsKey = ""

// IDF counts the document frequency of every term of docs (a PCollection
// of [Doc]) under the analyzer configuration ac, the text pipeline of the
// detector that will read the table, and returns a PCollection holding one
// element: a frozen textproc.IDF in its binary form (IDF.MarshalBinary),
// equal to textproc.BuildIDF over the same texts. Hand it to a later stage
// as a side input (beam.SideInput{Input: table}) and decode it once per
// DoFn instance with [DecodeIDF]: the statistics are then fixed for the
// whole corpus, where an in-memory detector's would grow with the stream.
//
// Counting is a CombinePerKey (summed before the shuffle); the table is
// assembled on one worker, O(vocabulary) in memory. smooth selects
// log(1 + N/df), as in textproc.NewIDF.
func IDF(s beam.Scope, docs beam.PCollection, ac textproc.Config, smooth bool) (beam.PCollection, error) {
	if _, err := textproc.NewAnalyzer(ac); err != nil {
		return beam.PCollection{}, fmt.Errorf("dedup: %w", err)
	}
	s = s.Scope("dedup.IDF")
	counts := beam.CombinePerKey(s, sumInt64, beam.ParDo(s, &termsFn{Cfg: ac}, docs))
	return beam.Combine(s, &idfFn{Smooth: smooth}, beam.ParDo(s, toTermDF, counts)), nil
}

func sumInt64(a, b int64) int64 { return a + b }

func toTermDF(t string, n int64) termDF { return termDF{Term: t, DF: n} }

// termsFn emits (term, 1) for every distinct term of a document and
// (numDocsKey, 1) for the document.
type termsFn struct {
	Cfg textproc.Config

	an    *textproc.Analyzer
	terms []string
}

func (f *termsFn) Setup() error {
	an, err := textproc.NewAnalyzer(f.Cfg)
	if err != nil {
		return fmt.Errorf("dedup: %w", err)
	}
	f.an = an
	return nil
}

func (f *termsFn) ProcessElement(_ context.Context, d Doc, emit func(string, int64)) error {
	if err := checkID(d.ID); err != nil {
		return err
	}
	f.terms = f.terms[:0]
	for _, tok := range f.an.Tokens(d.Text) {
		f.terms = append(f.terms, tok.Term)
	}
	slices.Sort(f.terms)
	for _, t := range slices.Compact(f.terms) {
		emit(t, 1)
	}
	emit(numDocsKey, 1)
	return nil
}

// idfAcc is the table being assembled.
type idfAcc struct {
	N  int64
	DF map[string]int64
}

// idfFn assembles the (term, df) counts into the binary form of a frozen
// textproc.IDF.
type idfFn struct {
	Smooth bool
}

func (f *idfFn) CreateAccumulator() idfAcc { return idfAcc{DF: map[string]int64{}} }

func (f *idfFn) AddInput(a idfAcc, t termDF) idfAcc {
	if a.DF == nil {
		a.DF = map[string]int64{}
	}
	if t.Term == numDocsKey {
		a.N += t.DF
	} else {
		a.DF[t.Term] += t.DF
	}
	return a
}

func (f *idfFn) MergeAccumulators(a, b idfAcc) idfAcc {
	if a.DF == nil {
		a.DF = map[string]int64{}
	}
	a.N += b.N
	for t, n := range b.DF {
		a.DF[t] += n
	}
	return a
}

func (f *idfFn) ExtractOutput(a idfAcc) ([]byte, error) {
	return encodeIDF(a.N, a.DF, f.Smooth, true)
}

// encodeIDF builds the table from the combined counts through the core's
// constructor, so its binary form (version, checksum) is always the
// core's.
func encodeIDF(n int64, df map[string]int64, smooth, frozen bool) ([]byte, error) {
	t, err := textproc.NewIDFFromCounts(n, df, smooth)
	if err != nil {
		return nil, fmt.Errorf("dedup: %w", err)
	}
	if frozen {
		t.Freeze()
	}
	return t.MarshalBinary()
}

// DecodeIDF returns the table [IDF] produced, for a DoFn that reads it as
// a side input (decode it once, in the DoFn's first ProcessElement or
// StartBundle, not per element).
func DecodeIDF(b []byte) (*textproc.IDF, error) {
	t := textproc.NewIDF(false)
	if err := t.UnmarshalBinary(b); err != nil {
		return nil, fmt.Errorf("dedup: %w", err)
	}
	return t, nil
}
