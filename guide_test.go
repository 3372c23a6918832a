package neardup

import (
	"fmt"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The README's measured table (between the table markers, written by
// examples/table) prints each name's UseWhen; the test below checks that
// what a UseWhen claims holds in its own row. When the table is
// regenerated and a ranking changes, it fails until the text follows.

// tableRow is one row of the README's measured table.
type tableRow struct {
	name                    string
	containment             bool
	p, r, f1                float64
	cut, light, heavy, non  float64
	docsPerSec, bytesPerDoc int
	useWhen                 string
	reuters                 int // stories in the largest Reuters cluster (defaults table); 0 if absent
	inDefaults              bool
}

// presets are the names the README table's caption calls non-default
// presets; the others are the packages' defaults.
var presets = []string{"tweezer-exact", "simhash-spots", "mrcosine-centered"}

// readme returns README.md's text.
func readme(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("README.md")
	require.NoError(t, err)
	return string(b)
}

// between returns the text of s between the markers <!-- what:begin -->
// and <!-- what:end -->.
func between(t *testing.T, s, what string) string {
	t.Helper()
	begin, end := "<!-- "+what+":begin -->", "<!-- "+what+":end -->"
	i, j := strings.Index(s, begin), strings.Index(s, end)
	require.True(t, i >= 0 && j > i, "README.md has no %s ... %s markers", begin, end)
	return s[i+len(begin) : j]
}

// cells splits the Markdown table rows of s whose first cell starts with
// prefix into their trimmed cells.
func cells(s, prefix string) [][]string {
	var out [][]string
	for line := range strings.Lines(s) {
		line = strings.TrimSpace(line)
		if !strings.HasPrefix(line, "| "+prefix) {
			continue
		}
		var row []string
		for c := range strings.SplitSeq(strings.Trim(line, "|"), "|") {
			row = append(row, strings.TrimSpace(c))
		}
		out = append(out, row)
	}
	return out
}

// floats reads the numbers of a "a / b / c" cell.
func floats(t *testing.T, cell string, n int) []float64 {
	t.Helper()
	parts := strings.Split(cell, " / ")
	require.Len(t, parts, n, "cell %q", cell)
	out := make([]float64, n)
	for i, p := range parts {
		x, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		require.NoError(t, err, "cell %q", cell)
		out[i] = x
	}
	return out
}

// leadingInt reads the integer a cell starts with ("1,723 (no setting
// tried holds)" is 1723).
func leadingInt(t *testing.T, cell string) int {
	t.Helper()
	m := regexp.MustCompile(`^[0-9][0-9,]*`).FindString(cell)
	require.NotEmpty(t, m, "cell %q starts with no number", cell)
	n, err := strconv.Atoi(strings.ReplaceAll(m, ",", ""))
	require.NoError(t, err)
	return n
}

// measuredTable parses the README's measured table and the Reuters column
// of its defaults table.
func measuredTable(t *testing.T) map[string]*tableRow {
	t.Helper()
	text := readme(t)
	rows := map[string]*tableRow{}
	for _, c := range cells(between(t, text, "table"), "`") {
		require.Len(t, c, 8, "table row %q", c)
		r := &tableRow{name: strings.Trim(c[0], "`"), containment: c[1] == "containment", useWhen: c[7]}
		prf := floats(t, c[2], 3)
		r.p, r.r, r.f1 = prf[0], prf[1], prf[2]
		cs := floats(t, c[4], 4)
		r.cut, r.light, r.heavy, r.non = cs[0], cs[1], cs[2], cs[3]
		r.docsPerSec, r.bytesPerDoc = leadingInt(t, c[5]), leadingInt(t, c[6])
		r.inDefaults = !slices.Contains(presets, r.name)
		rows[r.name] = r
	}
	require.NotEmpty(t, rows, "the README's measured table has no rows")
	for _, p := range presets {
		require.Contains(t, rows, p, "preset %s has no row", p)
	}
	for _, c := range cells(between(t, text, "defaults"), "") {
		if len(c) != 6 || c[0] == "detector" || strings.HasPrefix(c[0], "---") {
			continue
		}
		if r, ok := rows[c[0]]; ok {
			r.reuters = leadingInt(t, c[5])
		}
	}
	return rows
}

// TestReadmeTableUseWhen: the README table's "use it when" column is the
// registry's UseWhen (examples/table prints it from there), and a claim
// of rank or size in a UseWhen holds in its own row: "fastest" has the
// most documents per second, "cheapest", "smallest", "most compact",
// "lowest cost" and "least memory" the fewest bytes per document (among
// the package defaults when the text says "of the package defaults"), and
// "N bytes per document" is the row's figure.
func TestReadmeTableUseWhen(t *testing.T) {
	rows := measuredTable(t)
	for _, name := range Names() {
		if name == "reference" {
			continue
		}
		info, err := Lookup(name)
		require.NoError(t, err)
		r, ok := rows[name]
		if !assert.True(t, ok, "%s has no row in the README table", name) {
			continue
		}
		assert.Equal(t, info.UseWhen, r.useWhen, "%s: the README table's use-it-when cell is not the registry's UseWhen", name)
		assert.Equal(t, info.Containment, r.containment, "%s: detects", name)
		for _, err := range useWhenClaims(info.UseWhen, r, rows) {
			assert.NoError(t, err, name)
		}
	}
}

// useWhenClaims checks the rank and size claims of text (a UseWhen)
// against row r of the table.
func useWhenClaims(text string, r *tableRow, rows map[string]*tableRow) []error {
	var errs []error
	lower := strings.ToLower(text)
	best := func(better func(a, b *tableRow) bool, defaultsOnly bool) *tableRow {
		var top *tableRow
		for _, o := range rows {
			if defaultsOnly && !o.inDefaults {
				continue
			}
			if top == nil || better(o, top) || !better(top, o) && o.name < top.name {
				top = o
			}
		}
		return top
	}
	if strings.Contains(lower, "fastest") {
		if top := best(func(a, b *tableRow) bool { return a.docsPerSec > b.docsPerSec }, false); top.name != r.name {
			errs = append(errs, fmt.Errorf("%q claims the fastest, but %s is (%d docs/s against %d)", text, top.name, top.docsPerSec, r.docsPerSec))
		}
	}
	for _, w := range []string{"cheapest", "smallest", "most compact", "lowest cost", "least memory"} {
		if !strings.Contains(lower, w) {
			continue
		}
		top := best(func(a, b *tableRow) bool { return a.bytesPerDoc < b.bytesPerDoc }, strings.Contains(lower, "of the package defaults"))
		if top.name != r.name {
			errs = append(errs, fmt.Errorf("%q claims %q, but %s holds fewer bytes per document (%d against %d)", text, w, top.name, top.bytesPerDoc, r.bytesPerDoc))
		}
	}
	for _, m := range regexp.MustCompile(`([0-9][0-9,]*) (?:bytes per document|B/doc)`).FindAllStringSubmatch(text, -1) {
		if n, _ := strconv.Atoi(strings.ReplaceAll(m[1], ",", "")); n != r.bytesPerDoc {
			errs = append(errs, fmt.Errorf("%q claims %s, the table measures %d bytes per document", text, m[0], r.bytesPerDoc))
		}
	}
	return errs
}
