package ner

import (
	"strings"
	"testing"

	"golang.org/x/text/language"

	"github.com/seed-9ef9c1df/neardup/internal/testkit"
)

// benchText returns about n bytes of Turkish news text: the NER corpus
// when the shared data is present, else the examples of Uyar 2009
// (Fig. 3.1, 4.1) repeated.
func benchText(b *testing.B, n int) string {
	var src string
	if path := nerCorpus(); path != "" {
		var sb strings.Builder
		for _, d := range loadNERCorpus(b, path) {
			if sb.Len() >= n {
				break
			}
			sb.WriteString(d.text)
			sb.WriteString("\n\n")
		}
		src = sb.String()
	}
	if src == "" {
		src = strings.Repeat(fig31+"\n\n"+fig41+"\n\n", n/(len(fig31)+len(fig41))+1)
	}
	if len(src) > n {
		src = src[:n]
	}
	return src
}

// BenchmarkFind measures NER throughput (MB/s) on Turkish news documents
// of 4 KB and 100 KB.
func BenchmarkFind(b *testing.B) {
	for _, size := range []struct {
		name string
		n    int
	}{{"4KB", 4 << 10}, {"100KB", 100 << 10}} {
		b.Run(size.name, func(b *testing.B) {
			text := benchText(b, size.n)
			r := New(Config{})
			b.ReportAllocs()
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				r.Find(text)
			}
		})
	}
}

// BenchmarkFloor runs the floor benchmark (internal/testkit) on the
// texts of BenchmarkFind, so that NER throughput is reported as a ratio to
// the floor measured in the same run.
func BenchmarkFloor(b *testing.B) {
	for _, size := range []struct {
		name string
		n    int
	}{{"4KB", 4 << 10}, {"100KB", 100 << 10}} {
		b.Run(size.name, func(b *testing.B) {
			testkit.Run(b, []string{benchText(b, size.n)})
		})
	}
}

// BenchmarkNew measures building a Recognizer with the default embedded
// gazetteer (the lists are parsed once per process; maps are built per New).
func BenchmarkNew(b *testing.B) {
	for _, tag := range []language.Tag{language.Turkish, language.English} {
		b.Run(tag.String(), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_ = New(Config{Language: tag})
			}
		})
	}
}
