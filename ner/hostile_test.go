package ner

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"golang.org/x/text/language"

	"github.com/seed-9ef9c1df/neardup/internal/benchfloor"
	"github.com/seed-9ef9c1df/neardup/internal/dataset/longtest"
)

// capsText returns about n bytes of capitalised tokens "T0000 T0001 ...":
// one candidate run as long as the text, the input on which recognition
// once took time quadratic in the run's length.
func capsText(n int) string {
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "T%04x", i&0xffff)
	}
	return b.String()
}

var hostileSizes = []struct {
	name string
	n    int
}{{"64KB", 64 << 10}, {"256KB", 256 << 10}, {"1MB", 1 << 20}}

// BenchmarkHostileCaps measures Find on one run of capitalised words as
// long as the text (64 KB, 256 KB, 1 MB): ns per byte must stay flat
// across the sizes.
func BenchmarkHostileCaps(b *testing.B) {
	r := New(Config{})
	for _, size := range hostileSizes {
		b.Run(size.name, func(b *testing.B) {
			text := capsText(size.n)
			b.ReportAllocs()
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				r.Find(text)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(text)), "ns/byte")
		})
	}
}

// BenchmarkHostileCapsFloor runs the floor benchmark (internal/benchfloor)
// on the texts of BenchmarkHostileCaps, for a ratio within one run.
func BenchmarkHostileCapsFloor(b *testing.B) {
	for _, size := range hostileSizes {
		b.Run(size.name, func(b *testing.B) {
			benchfloor.Run(b, []string{capsText(size.n)})
		})
	}
}

// hostileShapes are texts made of one unit repeated n times (unit(i) for
// the i-th), each a long run of the kind of word a rule scans, joins or
// splits at: capitalised words, a suffix word closing them, acronyms,
// digits, apostrophe suffixes, connectors, titles, places, given names.
var hostileShapes = []struct {
	name string
	unit func(i int) string
	tail string
}{
	{"caps", func(i int) string { return fmt.Sprintf("T%04x", i) }, ""},
	{"caps then org suffix", func(i int) string { return fmt.Sprintf("T%04x", i) }, " Bakanlığı"},
	{"caps then loc suffix", func(i int) string { return fmt.Sprintf("T%04x", i) }, " Caddesi"},
	{"caps then English suffix", func(i int) string { return fmt.Sprintf("T%04x", i) }, " Ministry"},
	{"org suffixes", func(i int) string { return fmt.Sprintf("T%04x Bakanlığı", i) }, ""},
	{"acronyms", func(i int) string { return fmt.Sprintf("Q%c%c", 'A'+i%26, 'A'+i/26%26) }, ""},
	{"acronyms with apostrophe", func(i int) string { return fmt.Sprintf("Q%c%c'nin", 'A'+i%26, 'A'+i/26%26) }, ""},
	{"shouting", func(i int) string { return fmt.Sprintf("ANKARA T%04X", i) }, ""},
	{"digits", func(i int) string { return fmt.Sprintf("T%04x %d", i, i%10) }, " DGM"},
	{"numbered offices", func(i int) string { return fmt.Sprintf("Ankara %d No'lu T%04x", i%10, i) }, " DGM"},
	{"dotted numbers", func(i int) string { return fmt.Sprintf("%d. T%04x", i%10, i) }, " Mahkemesi"},
	{"apostrophes", func(i int) string { return fmt.Sprintf("T%04x'in", i) }, ""},
	{"separate apostrophes", func(i int) string { return fmt.Sprintf("T%04x 'in", i) }, ""},
	{"given names with apostrophe", func(int) string { return "Ali'nin" }, ""},
	{"places with apostrophe", func(int) string { return "Ankara'nın" }, ""},
	{"non-persons with apostrophe", func(int) string { return "Türk'ün" }, " Kaya"},
	{"non-persons", func(int) string { return "Türk" }, " Kaya"},
	{"ve", func(i int) string { return fmt.Sprintf("T%04x ve", i) }, " Kurumu"},
	{"ve suffix", func(i int) string { return fmt.Sprintf("T%04x Kurumu ve", i) }, " Kurumu"},
	{"spaced hyphens", func(i int) string { return fmt.Sprintf("T%04x -", i) }, " Federasyonu"},
	{"hyphens", func(i int) string { return fmt.Sprintf("T%04x-", i) }, "İş"},
	{"titles", func(int) string { return "Başkanı" }, " Ali Kaya"},
	{"title modifiers", func(int) string { return "Genel" }, " Müdürü Ali Kaya"},
	{"modified titles", func(int) string { return "Genel Müdürü" }, " Ali Kaya"},
	{"titles and names", func(i int) string { return fmt.Sprintf("Bakan T%04x", i) }, ""},
	{"person suffixes", func(i int) string { return fmt.Sprintf("T%04x Bey", i) }, ""},
	{"places", func(int) string { return "Ankara" }, ""},
	{"multiword places", func(int) string { return "New York" }, ""},
	{"given names", func(int) string { return "Ali" }, ""},
	{"initials", func(i int) string { return fmt.Sprintf("%c.", 'A'+i%26) }, " Kaya"},
	{"English of", func(i int) string { return fmt.Sprintf("Bank of T%04x", i) }, ""},
	{"bylines", func(i int) string { return fmt.Sprintf("Neslihan CUY%c%c", 'A'+i%26, 'A'+i/26%26) }, ""},
}

// TestLinearRecognition counts the work of Find (words visited by the
// look-ups and range scans, doc.steps) on long runs of each hostile shape
// and requires it to grow linearly with the run: at most 5 times for four
// times the words (0.5k, 2k, 8k; 1k, 4k, 16k with NEARDUP_LONG), at most
// 20 times from the first size to the last. A rule that looks up every
// sub-span of a candidate, or scans the rest of a run at every word, grows
// 16 or 64 times per step instead.
func TestLinearRecognition(t *testing.T) {
	sizes := []int{500, 2000, 8000}
	if longtest.Enabled() {
		sizes = []int{1000, 4000, 16000}
	}
	if testing.Short() {
		sizes = sizes[:2]
	}
	recs := map[string]*Recognizer{
		"default":          New(Config{}),
		"JoinAtApostrophe": New(Config{JoinAtApostrophe: true}),
		"English":          New(Config{Language: language.English}),
		"Nested+WholeText": New(Config{Nested: true, WholeText: true}),
	}
	for _, sh := range hostileShapes {
		for name, r := range recs {
			t.Run(sh.name+"/"+name, func(t *testing.T) {
				var first, prev int
				for _, n := range sizes {
					var b strings.Builder
					b.WriteString("Ali Kaya geldi. ")
					for i := range n {
						if i > 0 {
							b.WriteByte(' ')
						}
						b.WriteString(sh.unit(i))
					}
					b.WriteString(sh.tail)
					steps := r.analyse(b.String()).steps
					if prev > 0 {
						require.LessOrEqual(t, steps, 5*prev, "%d units: %d steps, %d units: %d steps", n/4, prev, n, steps)
					} else {
						first = steps
					}
					prev = steps
				}
				t.Logf("steps: %d for %d units, %d for %d units", first, sizes[0], prev, sizes[len(sizes)-1])
				require.LessOrEqual(t, prev, 20*max(first, 1), "%d units: %d steps, %d units: %d steps", sizes[0], first, sizes[len(sizes)-1], prev)
			})
		}
	}
}
