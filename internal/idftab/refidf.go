// The reference inverse-document-frequency tables, built
// from public news collections and embedded in the binary, so that a
// detector weighs terms sensibly from its first document instead of
// learning the weights from the stream (Varol 2012, M.S. thesis, Bilkent
// University, §5.1.3: "idf values are attained on last 25% of our
// dataset", a reference collection set aside from the stream).
//
// Tables, in the binary form of [textproc.IDF] (version 2, checksummed;
// unsmoothed, idf(w) = log(N/df(w)), frozen):
//
//   - "en": Reuters-21578 (the 19,043 newswire bodies of the Distribution
//     1.0 release, 1987; copyright Reuters Ltd., distributed by Reuters and
//     Carnegie Group "for research purposes only") and the BBC News
//     collection of Greene and Cunningham (ICML 2006; 2,225 articles of
//     2004-2005, copyright the BBC, made available for non-commercial and
//     research use): 21,268 documents.
//   - "tr": TTC-3600 (Kılınç, Özçift, Bozyiğit, Yıldırım, Yücalar, Borandağ,
//     "TTC-3600: A new benchmark dataset for Turkish text categorization",
//     Journal of Information Science 43(2), 2017; 3,600 news articles of
//     six Turkish portals, released publicly by its authors as a benchmark
//     for research, without a stated licence; the articles' copyright
//     stays with the portals).
//
// The tables hold term statistics only (document frequencies of first-5
// stems), never text. Terms seen in a single document are left out: an
// [textproc.IDF] counts an unseen term as seen in one document, so the
// weights are unchanged.
//
// Each table is built with the analyzer configuration [textproc.FullConfig]
// of its language (stopwords removed, first-5 prefix stemming), the
// configuration of codet's defaults; a table only makes sense for a
// pipeline that produces the same terms ([Matches]). TestGenerateTables
// rebuilds them from the shared data directory (see package dataset) when
// asked, and TestReproducible checks that the embedded tables are what it
// builds:
//
//	go test ./internal/idftab -run TestGenerateTables -count=1 -args -update

package idftab

import (
	"cmp"
	_ "embed"
	"fmt"
	"sync"

	"golang.org/x/text/language"

	"github.com/seed-9ef9c1df/neardup/textproc"
)

//go:generate go test -run ^TestGenerateTables$ -count=1 -args -update

//go:embed en.idf
var enTable []byte

//go:embed tr.idf
var trTable []byte

// MinDF is the smallest document frequency the shipped tables keep.
const MinDF = 2

// Source describes the collection a table was built from.
type Source struct {
	// Language is the base language of the table ("en", "tr").
	Language string
	// Files are the JSONL files of the shared data directory it is built
	// from.
	Files []string
}

// Sources lists the tables, in the order the generator builds them.
var Sources = []Source{
	{Language: "en", Files: []string{"reuters21578.jsonl", "bbc.jsonl"}},
	{Language: "tr", Files: []string{"ttc3600.jsonl"}},
}

var (
	once   [2]sync.Once
	tables [2]*textproc.IDF
	errs   [2]error
)

func index(tag language.Tag) int {
	b, conf := tag.Base()
	if conf < language.High { // the zero tag guesses "en" with Low confidence
		return -1
	}
	switch b.String() {
	case "en":
		return 0
	case "tr":
		return 1
	}
	return -1
}

// For returns the frozen reference table of tag's base language, shared by
// every caller (an [textproc.IDF] is safe for concurrent readers), and
// false when the library has none for it.
func For(tag language.Tag) (*textproc.IDF, bool) {
	i := index(tag)
	if i < 0 {
		return nil, false
	}
	once[i].Do(func() {
		t := textproc.NewIDF(false)
		if err := t.UnmarshalBinary([...][]byte{enTable, trTable}[i]); err != nil {
			errs[i] = fmt.Errorf("refidf: embedded table %q: %w", Sources[i].Language, err)
			return
		}
		tables[i] = t
	})
	if errs[i] != nil {
		return nil, false // cannot happen with the tables shipped (tested)
	}
	return tables[i], true
}

// Matches reports whether an analyzer configuration produces the terms the
// reference table of its language was built with ([textproc.FullConfig]).
func Matches(cfg textproc.Config) bool {
	if index(cfg.Language) < 0 {
		return false
	}
	full := textproc.FullConfig(cfg.Language)
	prefix := cmp.Or(cfg.PrefixLen, textproc.DefaultPrefixLen)
	return cfg.RemoveStopwords == full.RemoveStopwords && cfg.Stemmer == full.Stemmer && prefix == full.PrefixLen
}
