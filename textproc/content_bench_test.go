package textproc_test

import (
	"testing"

	"golang.org/x/text/language"

	"github.com/seed-9ef9c1df/neardup/internal/dataset"
	"github.com/seed-9ef9c1df/neardup/internal/testkit"
	"github.com/seed-9ef9c1df/neardup/textproc"
)

// BenchmarkContent compares the full analyzer with and without the content
// filter against the floor, on clean wire copy (Reuters), Turkish news
// (TTC-3600) and news pages with their boilerplate (Gold Set dev).
func BenchmarkContent(b *testing.B) {
	for _, c := range []struct {
		name string
		docs func(testing.TB) []string
		lang language.Tag
	}{
		{"Reuters", func(tb testing.TB) []string { return dataset.Texts(dataset.Reuters(tb, 5000)) }, language.English},
		{"TTC3600", func(tb testing.TB) []string { return dataset.Texts(dataset.ForTest(tb, "ttc3600.jsonl")) }, language.Turkish},
		{"Goldset", func(tb testing.TB) []string { return dataset.Texts(dataset.ForTest(tb, "goldset-dev.jsonl")) }, language.English},
	} {
		b.Run(c.name, func(b *testing.B) {
			docs := c.docs(b)
			main := textproc.FullConfig(c.lang)
			main.Content = textproc.ContentMain
			b.Run("Floor", func(b *testing.B) { testkit.Run(b, docs) })
			b.Run("Full", func(b *testing.B) { benchAnalyzer(b, textproc.FullConfig(c.lang), docs) })
			b.Run("FullMain", func(b *testing.B) { benchAnalyzer(b, main, docs) })
			b.Run("FilterOnly", func(b *testing.B) {
				f := textproc.NewContentFilter(c.lang)
				total := 0
				for _, t := range docs {
					total += len(t)
				}
				b.SetBytes(int64(total))
				b.ReportAllocs()
				var spans []textproc.Span
				for b.Loop() {
					for _, t := range docs {
						spans = f.Spans(spans[:0], t)
					}
				}
			})
		})
	}
}
