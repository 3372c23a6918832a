package simhash

import (
	"strings"

	"github.com/seed-9ef9c1df/neardup/internal/dataset"
)

// synthText returns about size bytes of synthetic news text.
func synthText(size int) string {
	var b strings.Builder
	for _, d := range dataset.SynthDocs(1+size/200, dataset.SynthConfig{Seed: 7}) {
		b.WriteString(d.Text)
		b.WriteString("\n\n")
		if b.Len() >= size {
			break
		}
	}
	s := b.String()
	if len(s) > size {
		s = s[:size]
	}
	return s
}
