package tweezer

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/text/language"

	"github.com/seed-9ef9c1df/neardup/detector"
)

// dataDir finds the shared data directory by walking up from the working
// directory to a directory with a sibling shared/data, or returns "".
func dataDir() string {
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		for _, c := range []string{filepath.Join(dir, "shared", "data"), filepath.Join(dir, "..", "shared", "data")} {
			if st, err := os.Stat(c); err == nil && st.IsDir() {
				return c
			}
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

type record struct {
	ID      string `json:"id"`
	Text    string `json:"text"`
	Cluster string `json:"cluster"`
}

// loadJSONL reads up to limit records (all if limit ≤ 0) of a data file, or
// skips the test when the shared data is absent.
func loadJSONL(tb testing.TB, name string, limit int) []record {
	dir := dataDir()
	path := filepath.Join(dir, name)
	if _, err := os.Stat(path); dir == "" || err != nil {
		tb.Skipf("%s not found: the shared data directory (../shared/data beside the repository) is absent", name)
	}
	f, err := os.Open(path)
	require.NoError(tb, err)
	defer f.Close()
	var out []record
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() && (limit <= 0 || len(out) < limit) {
		var r record
		require.NoError(tb, json.Unmarshal(sc.Bytes(), &r))
		out = append(out, r)
	}
	require.NoError(tb, sc.Err())
	return out
}

type pair struct{ a, b string }

func mkpair(a, b string) pair {
	if a > b {
		a, b = b, a
	}
	return pair{a, b}
}

// baseCluster strips a trailing digit: "Shooting2" and "Shooting3" cover
// related stories (data README).
func baseCluster(c string) string {
	return strings.TrimRight(c, "0123456789")
}

// prf scores predicted pairs against gold pairs.
func prf(pred, gold map[pair]bool) (p, r, f float64) {
	tp := 0
	for x := range pred {
		if gold[x] {
			tp++
		}
	}
	if len(pred) > 0 {
		p = float64(tp) / float64(len(pred))
	}
	if len(gold) > 0 {
		r = float64(tp) / float64(len(gold))
	}
	if p+r > 0 {
		f = 2 * p * r / (p + r)
	}
	return p, r, f
}

// TestGoldSet measures pair-level precision, recall and F1 on the SpotSigs
// Gold Set part shipped as goldset-dev.jsonl (English), for both modes.
// Strict gold pairs share a cluster; lenient ones share a cluster name up
// to a trailing digit. The floors are a little below the measured figures.
func TestGoldSet(t *testing.T) {
	recs := loadJSONL(t, "goldset-dev.jsonl", 0)
	strict, lenient := map[pair]bool{}, map[pair]bool{}
	for i := range recs {
		for j := i + 1; j < len(recs); j++ {
			a, b := recs[i], recs[j]
			if a.Cluster == b.Cluster {
				strict[mkpair(a.ID, b.ID)] = true
			}
			if baseCluster(a.Cluster) == baseCluster(b.Cluster) {
				lenient[mkpair(a.ID, b.ID)] = true
			}
		}
	}
	run := func(cfg Config) map[pair]bool {
		d, err := New(cfg)
		require.NoError(t, err)
		defer d.Close()
		pred := map[pair]bool{}
		for _, r := range recs {
			ms, err := d.Add(detector.Doc{ID: r.ID, Text: r.Text})
			require.NoError(t, err)
			for _, m := range ms {
				pred[mkpair(r.ID, m.ID)] = true
			}
		}
		return pred
	}
	type result struct{ sp, sr, sf, lp, lr, lf float64 }
	measure := func(name string, cfg Config) result {
		pred := run(cfg)
		var r result
		r.sp, r.sr, r.sf = prf(pred, strict)
		r.lp, r.lr, r.lf = prf(pred, lenient)
		t.Logf("%-26s pairs %5d  strict P %.3f R %.3f F1 %.3f  lenient P %.3f R %.3f F1 %.3f",
			name, len(pred), r.sp, r.sr, r.sf, r.lp, r.lr, r.lf)
		return r
	}
	en := language.English
	t.Logf("gold pairs: strict %d, lenient %d", len(strict), len(lenient))
	exact := measure("Exact", Config{Language: en})
	assert.GreaterOrEqual(t, exact.sp, 0.9, "Exact mode strict precision")
	jac := measure(fmt.Sprintf("Jaccard ≥ %.2f (default)", DefaultJaccardThreshold), Config{Language: en, Mode: Jaccard})
	assert.GreaterOrEqual(t, jac.sf, 0.78, "Jaccard mode strict F1")
	ov := measure(fmt.Sprintf("Overlap ≥ %.2f (default)", DefaultOverlapThreshold), Config{Language: en, Mode: Overlap})
	assert.GreaterOrEqual(t, ov.sf, 0.79, "Overlap mode strict F1")
	if testing.Short() {
		return
	}
	measure("Exact, ClipSentences", Config{Language: en, ClipSentences: true})
	for _, th := range []float64{0.04, 0.1, 0.3} {
		measure(fmt.Sprintf("Jaccard ≥ %.2f", th), Config{Language: en, Mode: Jaccard, Threshold: th})
	}
	for _, th := range []float64{0.04, 0.1, 0.3} {
		measure(fmt.Sprintf("Overlap ≥ %.2f", th), Config{Language: en, Mode: Overlap, Threshold: th})
	}
}

// TestTTC3600ExactDuplicates checks that every pair of byte-identical texts
// of TTC-3600 (Turkish) is reported, in both modes.
func TestTTC3600ExactDuplicates(t *testing.T) {
	recs := loadJSONL(t, "ttc3600.jsonl", 0)
	byText := map[string][]string{}
	for _, r := range recs {
		byText[r.Text] = append(byText[r.Text], r.ID)
	}
	for _, mode := range []Mode{Exact, Jaccard, Overlap} {
		d, err := New(Config{Mode: mode})
		require.NoError(t, err)
		for _, r := range recs {
			_, err := d.Add(detector.Doc{ID: r.ID, Text: r.Text})
			require.NoError(t, err)
		}
		groups, found, pairs, foundPairs := 0, 0, 0, 0
		for _, ids := range byText {
			if len(ids) < 2 {
				continue
			}
			groups++
			all := true
			for i, a := range ids {
				ms, err := d.Containers(a)
				require.NoError(t, err)
				got := map[string]bool{}
				for _, m := range ms {
					got[m.ID] = true
				}
				for _, b := range ids[i+1:] {
					pairs++
					if got[b] {
						foundPairs++
					} else {
						all = false
					}
				}
			}
			if all {
				found++
			}
		}
		t.Logf("%s: exact-duplicate groups found %d/%d, pairs %d/%d", mode, found, groups, foundPairs, pairs)
		assert.Equal(t, groups, found, "%s: exact-duplicate groups found", mode)
		assert.Greater(t, groups, 100, "TTC-3600 has about 160 duplicate groups")
		require.NoError(t, d.Close())
	}
}
