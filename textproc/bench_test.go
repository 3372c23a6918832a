package textproc_test

import (
	"strconv"
	"testing"

	"golang.org/x/text/language"

	"github.com/seed-9ef9c1df/neardup/internal/dataset"
	"github.com/seed-9ef9c1df/neardup/internal/testkit"
	"github.com/seed-9ef9c1df/neardup/textproc"
)

func benchAnalyzer(b *testing.B, cfg textproc.Config, docs []string) {
	a, err := textproc.NewAnalyzer(cfg)
	if err != nil {
		b.Fatal(err)
	}
	total, tokens := 0, 0
	for _, t := range docs {
		total += len(t)
		tokens += len(a.Analyze(t).Tokens) // warm the vocabulary: steady state
	}
	b.SetBytes(int64(total))
	b.ReportAllocs()
	for b.Loop() {
		for _, t := range docs {
			a.Analyze(t)
		}
	}
	b.ReportMetric(float64(len(docs))*float64(b.N)/b.Elapsed().Seconds(), "docs/s")
	b.ReportMetric(float64(tokens)/float64(len(docs)), "tokens/doc")
}

// BenchmarkReuters compares the analyzer with the floor on the English
// Reuters-21578 bodies (first 5000 in date order).
func BenchmarkReuters(b *testing.B) {
	docs := dataset.Texts(dataset.Reuters(b, 5000))
	b.Run("Floor", func(b *testing.B) { testkit.Run(b, docs) })
	b.Run("TokenizeLower", func(b *testing.B) { benchAnalyzer(b, textproc.Config{Language: language.English}, docs) })
	b.Run("Full", func(b *testing.B) { benchAnalyzer(b, textproc.FullConfig(language.English), docs) })
}

// BenchmarkTTC3600 does the same on the Turkish TTC-3600 news.
func BenchmarkTTC3600(b *testing.B) {
	docs := dataset.Texts(dataset.ForTest(b, "ttc3600.jsonl"))
	b.Run("Floor", func(b *testing.B) { testkit.Run(b, docs) })
	b.Run("TokenizeLower", func(b *testing.B) { benchAnalyzer(b, textproc.Config{Language: language.Turkish}, docs) })
	b.Run("Full", func(b *testing.B) { benchAnalyzer(b, textproc.FullConfig(language.Turkish), docs) })
}

// BenchmarkSizes measures the full Turkish analyzer on documents of 100 B,
// 4 KB and 100 KB (STYLE.md rule 23).
func BenchmarkSizes(b *testing.B) {
	para := "Başbakan Ankara'da 1.500 kişinin katıldığı toplantıda konuştu. Dr. Ayşe Kaya, İSTANBUL'DAN gelen heyeti karşıladı! "
	for _, n := range []int{100, 4 << 10, 100 << 10} {
		text := ""
		for len(text) < n {
			text += para
		}
		text = text[:n]
		b.Run(byteSize(n), func(b *testing.B) {
			benchAnalyzer(b, textproc.FullConfig(language.Turkish), []string{text})
		})
	}
}

func byteSize(n int) string {
	if n >= 1<<10 {
		return strconv.Itoa(n>>10) + "KB"
	}
	return strconv.Itoa(n) + "B"
}

// BenchmarkCJK measures the full analyzer on Chinese and Japanese news
// text, which it tokenises into character bigrams, against the floor
// (which takes each run of letters as one word).
func BenchmarkCJK(b *testing.B) {
	para := "北京地铁十七号线北段将于本月底开通试运营。该线路全长约二十公里，共设车站九座。" +
		"東京都は来年度の予算案を発表した！新しい交通計画では、バスの運行本数を増やす。"
	text := ""
	for len(text) < 4<<10 {
		text += para
	}
	docs := []string{text}
	b.Run("Floor", func(b *testing.B) { testkit.Run(b, docs) })
	b.Run("Full", func(b *testing.B) { benchAnalyzer(b, textproc.FullConfig(language.Und), docs) })
}
