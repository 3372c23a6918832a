// Package dataset reads the labelled JSONL collections of ../shared/data for
// tests, benchmarks and the example programs. It is test and example support:
// the library's detectors never import it (they do no I/O).
//
// The data directory is found by walking up from the working directory to
// the module root (the directory holding go.mod) and taking
// ../shared/data beside it, reached through the link [Link] inside the
// module so that Go's test cache sees it; the environment variable
// NEARDUP_DATA overrides the search.
package dataset

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/detector/eval"
	"github.com/seed-9ef9c1df/neardup/internal/dataset/longtest"
)

// Record is one document of a JSONL collection. Fields absent from a file
// are empty.
type Record struct {
	ID       string `json:"id"`
	Text     string `json:"text"`
	Title    string `json:"title"`
	Date     string `json:"date"`
	Cluster  string `json:"cluster"`
	Category string `json:"category"`
	Task     string `json:"task"`
	Topic    string `json:"topic"`
}

// Doc returns the record as a detector document.
func (r Record) Doc() detector.Doc { return detector.Doc{ID: r.ID, Text: r.Text} }

// ErrNoData is returned when the shared data directory cannot be found.
var ErrNoData = errors.New("dataset: ../shared/data not found (set NEARDUP_DATA to its path)")

// Link is the path, from the module root, of a symbolic link committed to
// the repository that points at ../shared/data beside the module root
// (dangling when the data is absent). [Dir] reaches the data through it
// because Go's test cache rechecks only the files a test stats or opens
// inside the module root (and the environment variables it reads): a
// path through the link lies inside the module, cmd/go stats it following
// the link, and so a cached result from before the data appeared (or went
// away or changed) no longer matches and the test runs again. Reached as
// ../shared/data, the data lies outside the module and a cached skip
// would outlive the data's arrival.
const Link = "internal/dataset/testdata/shared-data"

// Dir returns the shared data directory: $NEARDUP_DATA when set, else the
// first module root, walking up from the working directory, whose [Link]
// (or, where the link was checked out as a plain file, whose
// ../shared/data) is a directory. It costs a few stats.
func Dir() (string, error) {
	if d := os.Getenv("NEARDUP_DATA"); d != "" {
		if st, err := os.Stat(d); err == nil && st.IsDir() {
			return d, nil
		}
		return "", ErrNoData
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", ErrNoData
	}
	for dir := wd; ; dir = filepath.Dir(dir) {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			for _, d := range []string{filepath.Join(dir, filepath.FromSlash(Link)), filepath.Join(dir, "..", "shared", "data")} {
				if st, err := os.Stat(d); err == nil && st.IsDir() {
					return d, nil
				}
			}
		}
		if filepath.Dir(dir) == dir {
			return "", ErrNoData
		}
	}
}

// Path returns the path of a file in the shared data directory.
func Path(name string) (string, error) {
	dir, err := Dir()
	if err != nil {
		return "", err
	}
	p := filepath.Join(dir, name)
	if _, err := os.Stat(p); err != nil {
		return "", fmt.Errorf("dataset: %s: %w", name, ErrNoData)
	}
	return p, nil
}

// LoadFile reads a JSONL file of records.
func LoadFile(path string) ([]Record, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []Record
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	line := 0
	for sc.Scan() {
		line++
		if len(sc.Bytes()) == 0 {
			continue
		}
		var r Record
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, line, err)
		}
		out = append(out, r)
	}
	return out, sc.Err()
}

// Load reads a JSONL collection of the shared data directory by file name,
// e.g. "goldset-dev.jsonl".
func Load(name string) ([]Record, error) {
	p, err := Path(name)
	if err != nil {
		return nil, err
	}
	return LoadFile(p)
}

// RequireEnv names the environment variable that turns a missing data
// directory from a skip into a failure, for a CI runner that has the data
// and must not pass by skipping the tests that read it.
const RequireEnv = "NEARDUP_REQUIRE_DATA"

// Missing skips tb, or fails it when RequireEnv is set, because file (a
// name in the shared data directory) is absent.
func Missing(tb testing.TB, file string, err error) {
	tb.Helper()
	if os.Getenv(RequireEnv) != "" {
		tb.Fatalf("%s needs ../shared/data/%s and %s is set: %v", tb.Name(), file, RequireEnv, err)
	}
	tb.Skipf("skipping: %s needs ../shared/data/%s beside the repository (or NEARDUP_DATA): %v", tb.Name(), file, err)
}

// ForTest loads a collection, or skips tb with a clear message when the
// shared data is absent (a fresh clone without ../shared); see [Missing].
func ForTest(tb testing.TB, name string) []Record {
	tb.Helper()
	recs, err := Load(name)
	if errors.Is(err, ErrNoData) {
		Missing(tb, name, err)
	}
	if err != nil {
		tb.Fatalf("dataset.Load(%q): %v", name, err)
	}
	return recs
}

// Docs returns the records as detector documents.
func Docs(recs []Record) []detector.Doc {
	out := make([]detector.Doc, len(recs))
	for i, r := range recs {
		out[i] = r.Doc()
	}
	return out
}

// Texts returns the texts of the records.
func Texts(recs []Record) []string {
	out := make([]string, len(recs))
	for i, r := range recs {
		out[i] = r.Text
	}
	return out
}

// Reuters returns the first n documents of reuters21578.jsonl in date order
// (all of them when n ≤ 0), or skips tb when the data is absent.
func Reuters(tb testing.TB, n int) []Record {
	tb.Helper()
	recs := ForTest(tb, "reuters21578.jsonl")
	SortByDate(recs)
	if n > 0 && n < len(recs) {
		recs = recs[:n]
	}
	return recs
}

// SortByDate orders Reuters records by their "26-FEB-1987 15:01:01.79"
// dates (ties keep file order).
func SortByDate(recs []Record) {
	key := func(d string) string {
		// DD-MON-YYYY HH:MM:SS.ss → YYYY MM DD HH:MM:SS.ss
		if len(d) < 11 {
			return d
		}
		months := "JANFEBMARAPRMAYJUNJULAUGSEPOCTNOVDEC"
		m := 0
		for i := 0; i+3 <= len(months); i += 3 {
			if months[i:i+3] == d[3:6] {
				m = i/3 + 1
			}
		}
		return fmt.Sprintf("%s%02d%s%s", d[7:11], m, d[0:2], d[11:])
	}
	slices.SortStableFunc(recs, func(a, b Record) int { return strings.Compare(key(a.Date), key(b.Date)) })
}

// ExactGroups returns the IDs of byte-identical texts, one group per text
// that occurs more than once, in order of first occurrence.
func ExactGroups(recs []Record) [][]string {
	by := map[string][]string{}
	var order []string
	for _, r := range recs {
		if by[r.Text] == nil {
			order = append(order, r.Text)
		}
		by[r.Text] = append(by[r.Text], r.ID)
	}
	var out [][]string
	for _, t := range order {
		if len(by[t]) > 1 {
			out = append(out, by[t])
		}
	}
	return out
}

// twinsAndEvery keeps, in order, the records whose text another record
// repeats and every nth of the rest.
func twinsAndEvery(recs []Record, n int) []Record {
	count := map[string]int{}
	for _, r := range recs {
		count[r.Text]++
	}
	var out []Record
	others := 0
	for _, r := range recs {
		if count[r.Text] > 1 {
			out = append(out, r)
			continue
		}
		if others%n == 0 {
			out = append(out, r)
		}
		others++
	}
	return out
}

// ExactTruth labels the documents of each group of byte-identical texts
// (ExactGroups) with one cluster per group, so that eval.ClusterTruth.Score
// counts how many identical pairs a detector found (TP) and missed (FN).
func ExactTruth(recs []Record) eval.ClusterTruth {
	truth := eval.ClusterTruth{}
	for i, g := range ExactGroups(recs) {
		for _, id := range g {
			truth[id] = strconv.Itoa(i)
		}
	}
	return truth
}

// CheckExactDuplicates runs, for TTC-3600 (Turkish) and BBC (English), a
// detector from build over the collection and fails t unless every pair of
// byte-identical texts is reported; build gets the language, the records
// and whether the detector should keep its statistics online (else from
// the collection). It is the exact-copy guarantee of the digest detectors,
// checked on real data. By default every text with an identical twin is
// added, with every fourth of the others between them; with NEARDUP_LONG,
// the whole collection.
func CheckExactDuplicates(t *testing.T, build func(t *testing.T, lang string, recs []Record, online bool) detector.Detector) {
	for _, tc := range []struct{ file, lang string }{{"ttc3600.jsonl", "tr"}, {"bbc.jsonl", "en"}} {
		recs := ForTest(t, tc.file)
		if !longtest.Enabled() {
			recs = twinsAndEvery(recs, 4)
		}
		groups := ExactGroups(recs)
		truth := ExactTruth(recs)
		for _, online := range []bool{true, false} {
			t.Run(fmt.Sprintf("%s/online=%v", tc.file, online), func(t *testing.T) {
				d := build(t, tc.lang, recs, online)
				defer d.Close()
				edges, err := eval.Relations(d, Docs(recs), nil)
				if err != nil {
					t.Fatal(err)
				}
				found := eval.Pairs(edges)
				c := truth.Score(found, false)
				t.Logf("%s: %d groups of identical texts, %d pairs, %d missed; %d pairs reported in all",
					tc.file, len(groups), c.TP+c.FN, c.FN, len(found))
				if c.FN != 0 {
					t.Errorf("%d of %d identical pairs missed", c.FN, c.TP+c.FN)
				}
				if c.TP+c.FN == 0 {
					t.Error("no identical pair in the collection: the check proves nothing")
				}
			})
		}
	}
}
