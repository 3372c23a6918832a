package textproc

import (
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/language"

	"github.com/seed-9ef9c1df/neardup/internal/enum"
)

// Content selects which part of a text the pipeline reads.
type Content uint8

const (
	// ContentDefault is the zero value. In a [Config] it means ContentAll; a
	// detector Config resolves it to that detector's measured default.
	ContentDefault Content = iota
	// ContentAll reads the whole text.
	ContentAll
	// ContentMain reads the main-content blocks only: navigation, menus,
	// bylines, template lines and other boilerplate blocks are skipped (see
	// [ContentFilter]).
	ContentMain
)

// String returns "default", "all" or "main".
func (c Content) String() string {
	return enum.String("Content", int(c), "default", "all", "main")
}

// Valid reports whether c is one of the defined values.
func (c Content) Valid() bool { return c <= ContentMain }

// block classes of the content filter.
const (
	classBad uint8 = iota
	classShort
	classNearGood
	classGood
)

// block is one blank-line-separated block of a text with its shallow
// features.
type block struct {
	Span
	words int // words in the block
	stops int // of which stopwords
	caps  int // of which start with an upper-case letter
	seps  int // menu separators: | • · » › « ‹ ¦ ► ▸ ▪ ■ ◦ ●
	terms int // sentence terminators followed by space or the block's end
	class uint8

	// Context, filled in by smooth.
	prevGB, nextGB, resolved uint8
}

// contentThresholds are the content filter's thresholds.
type contentThresholds struct {
	// shortWords: a block of fewer words is "short" and takes the class of
	// its neighbours.
	shortWords int
	// stopLow and stopHigh bound the stopword share of "near-good" and
	// "good" blocks.
	stopLow, stopHigh float64
	// maxSeps: more menu separators than this share of the words makes a
	// block boilerplate.
	maxSeps float64
	// maxCaps: more words starting in upper case than this share
	// (title-case menus, headline lists) makes a block boilerplate.
	maxCaps float64
}

// defaultContent holds the thresholds (rerun the measurement with
// NEARDUP_LONG=1 go test ./textproc -run TestContentSweep -v), chosen on
// news pages with their
// boilerplate kept (the Gold Set of Theobald, Siddharth and Paepcke, SIGIR
// 2008: 37 of its clusters; exact word 5-shingle Jaccard over all pairs,
// best pair F1 0.844 on whole pages, 0.910 on the filtered ones, and 0.50
// against 0.81 at Jaccard 0.3) and checked on clean news, where they keep
// 97-100% of the text (Reuters-21578, BBC, TTC-3600, Clough-Stevenson);
// the figures are in docs/textproc.md.
var defaultContent = contentThresholds{
	shortWords: 10,
	stopLow:    0.25,
	stopHigh:   0.30,
	maxSeps:    0.1,
	maxCaps:    0.5,
}

// turkishStopLow and turkishStopHigh replace stopLow and stopHigh for
// Turkish.
const turkishStopLow, turkishStopHigh = 0.03, 0.06

// ContentFilter finds the main-content blocks of a text, at text level with
// no markup: an adaptation of the jusText algorithm (Pomikálek, Removing
// Boilerplate and Duplicate Content from Web Corpora, PhD thesis, Masaryk
// University 2011, ch. 3), with shallow features in the spirit of
// Kohlschütter, Fankhauser and Nejdl, Boilerplate Detection using Shallow
// Text Features (WSDM 2010).
//
//  1. The text is cut into blocks at blank lines (a line of white space
//     only), the paragraph structure that extracted page text keeps.
//  2. Each block is classified by its own features: fewer than 10 words is
//     short; a block whose menu separators ("|", "•", "»", ...) exceed 10%
//     of its words, or with no sentence ending and more than half of its
//     words starting in upper case (menus, headline lists; only in a text
//     that has lower case at all), is bad;
//     otherwise a block whose stopword share is at least 30% is good, at
//     least 25% near-good, and the rest bad. Turkish, whose function
//     words are mostly suffixes, takes 6% and 3%: its news prose has about
//     a third of the stopword share of English news prose (figures in
//     docs/textproc.md in the repository). For a language without a
//     stopword list, a block with a sentence ending is good and one without
//     bad.
//  3. Context decides the rest, after jusText: a near-good block is good
//     unless the nearest good-or-bad blocks on both sides (the text's edges
//     count as bad) are bad. A short block is good only between two good
//     blocks (a quoted line, a subheading); jusText's wider rule, which
//     looks past other short blocks, kept headline lists and links beside
//     the story on news pages.
//
// The good blocks are the main content. A text with a single block, or in
// which no block is good, is read whole: a filter never empties a document.
//
// The zero ContentFilter is ready to use and language-neutral (it has no
// stopword list), like NewContentFilter(language.Und). A ContentFilter is
// not safe for concurrent use (it reuses buffers): use one per goroutine.
// In the steady state it allocates nothing, and it keeps no buffer a huge
// text grew beyond about 1 MiB.
type ContentFilter struct {
	th      contentThresholds
	stop    map[string]struct{}
	maxStop int // longest stopword in bytes
	turkish bool
	lower   caseUse // whether the text being filtered has lower-case letters
	blocks  []block
	spans   []Span
	buf     []byte
}

// NewContentFilter returns a filter for lang, whose stopword list (see
// [Stopwords]) measures how much a block reads like prose.
func NewContentFilter(lang language.Tag) *ContentFilter {
	f := &ContentFilter{th: defaultContent}
	switch RuleSet(lang) {
	case "tr": // and Azerbaijani
		f.turkish = true
		f.stop = turkishStopSet()
		// Turkish is agglutinative: function words are suffixes, so its
		// prose has a third of the stopword share of English prose
		// (TTC-3600 blocks: median 12%, tenth percentile 5%; BBC: 41%, 30%).
		f.th.stopLow, f.th.stopHigh = turkishStopLow, turkishStopHigh
	case "en":
		f.stop = englishStopSet()
	}
	for w := range f.stop {
		f.maxStop = max(f.maxStop, len(w))
	}
	return f
}

var (
	turkishStopSet = sync.OnceValue(func() map[string]struct{} { return stopSet(turkishStopwords) })
	englishStopSet = sync.OnceValue(func() map[string]struct{} { return stopSet(englishStopwords) })
)

func stopSet(words []string) map[string]struct{} {
	m := make(map[string]struct{}, len(words))
	for _, w := range words {
		m[w] = struct{}{}
	}
	return m
}

// Spans appends to dst the spans of text's main-content blocks, in order,
// and returns it. It appends the whole text, Span{0, len(text)}, when the
// text has one block or no block is good; an empty text gives no span.
func (f *ContentFilter) Spans(dst []Span, text string) []Span {
	if len(text) == 0 {
		return dst
	}
	if f.th == (contentThresholds{}) {
		f.th = defaultContent // the zero ContentFilter
	}
	defer f.releaseScratch()
	f.lower = caseUnknown
	f.segment(text)
	if len(f.blocks) <= 1 {
		return append(dst, Span{0, len(text)})
	}
	for i := range f.blocks {
		f.measure(text, &f.blocks[i])
	}
	f.smooth()
	n := len(dst)
	for i, b := range f.blocks {
		if b.class != classGood {
			continue
		}
		// Adjacent good blocks merge into one span, so the blank lines
		// between them stay in it (a sentence splitter sees the paragraph
		// breaks).
		if i > 0 && f.blocks[i-1].class == classGood {
			dst[len(dst)-1].End = b.End
			continue
		}
		dst = append(dst, b.Span)
	}
	if len(dst) == n {
		return append(dst, Span{0, len(text)})
	}
	return dst
}

// maxScratchBlocks is the largest block buffer kept between calls.
const maxScratchBlocks = maxScratchBytes / 64

// releaseScratch drops the buffers a huge text left behind.
func (f *ContentFilter) releaseScratch() {
	f.blocks = release(f.blocks, maxScratchBlocks)
	f.buf = release(f.buf, maxScratchBytes)
}

// Text returns the main content of text: its main-content blocks (see
// [ContentFilter.Spans]) joined by blank lines, or text itself when it is
// read whole (then nothing is allocated). For stages that need one string
// and no offsets into the original.
func (f *ContentFilter) Text(text string) string {
	f.spans = f.Spans(release(f.spans, maxScratchSpans), text)
	if len(f.spans) == 1 && f.spans[0] == (Span{0, len(text)}) || len(f.spans) == 0 {
		return text
	}
	n := 0
	for _, s := range f.spans {
		n += s.End - s.Start + 2
	}
	var b strings.Builder
	b.Grow(n)
	for i, s := range f.spans {
		if i > 0 {
			b.WriteString("\n\n")
		}
		b.WriteString(text[s.Start:s.End])
	}
	return b.String()
}

// segment cuts text into blocks at blank lines.
func (f *ContentFilter) segment(text string) {
	f.blocks = f.blocks[:0]
	start, end := -1, -1 // the open block's start and the end of its last non-blank line
	for i := 0; i < len(text); {
		j := i
		for j < len(text) && text[j] != '\n' {
			j++
		}
		// text[i:j] is one line without its newline.
		if a, b := trimSpace(text, i, j); a < b {
			if start < 0 {
				start = a
			}
			end = b
		} else if start >= 0 {
			f.blocks = append(f.blocks, block{Span: Span{start, end}})
			start = -1
		}
		i = j + 1
	}
	if start >= 0 {
		f.blocks = append(f.blocks, block{Span: Span{start, end}})
	}
}

// trimSpace returns text[i:j] without leading and trailing white space.
func trimSpace(text string, i, j int) (int, int) {
	for i < j {
		r, w := decode(text, i)
		if !unicode.IsSpace(r) {
			break
		}
		i += w
	}
	for j > i {
		r, w := utf8.DecodeLastRuneInString(text[i:j])
		if !unicode.IsSpace(r) {
			break
		}
		j -= w
	}
	return i, j
}

// measure counts b's features and gives it its context-free class.
func (f *ContentFilter) measure(text string, b *block) {
	t := text[:b.End]
	for i := b.Start; i < b.End; {
		c := t[i]
		if c < utf8.RuneSelf && !asciiWord[c] {
			switch c {
			case '|':
				b.seps++
			case '.', '!', '?':
				if i+1 == len(t) || t[i+1] == ' ' || t[i+1] == '\n' || t[i+1] == '"' || t[i+1] == '\'' || t[i+1] == ')' {
					b.terms++
				}
			}
			i++
			continue
		}
		r, w := decode(t, i)
		if !isWordRune(r) {
			switch r {
			case '•', '·', '»', '›', '«', '‹', '¦', '►', '▸', '▪', '■', '◦', '●':
				b.seps++
			case '…', '。', '！', '？':
				b.terms++
			}
			i += w
			continue
		}
		sp, _ := nextWord(t, i)
		b.words++
		if unicode.IsUpper(r) {
			b.caps++
		}
		if f.stop != nil && sp.End-sp.Start <= f.maxStop && f.isStop(t[sp.Start:sp.End]) {
			b.stops++
		}
		i = sp.End
	}
	b.class = f.classify(b, text)
}

// isStop reports whether word, lower-cased, is a stopword. Lower-casing is
// rune by rune with the language's dotted/dotless i rule (enough for
// stopwords, which are short and common).
func (f *ContentFilter) isStop(word string) bool {
	buf := f.buf[:0]
	for _, r := range word {
		switch {
		case r < utf8.RuneSelf:
			if 'A' <= r && r <= 'Z' {
				if r == 'I' && f.turkish {
					buf = append(buf, "ı"...)
					continue
				}
				r += 'a' - 'A'
			} else if r == '`' {
				r = '\''
			}
			buf = append(buf, byte(r))
			continue
		case isApostrophe(r):
			r = '\''
		case f.turkish:
			r = unicode.TurkishCase.ToLower(r)
		default:
			r = unicode.ToLower(r)
		}
		buf = utf8.AppendRune(buf, r)
	}
	f.buf = buf
	_, ok := f.stop[string(buf)]
	return ok
}

// classify gives the context-free class of a measured block of text.
func (f *ContentFilter) classify(b *block, text string) uint8 {
	th := &f.th
	switch {
	case b.words < th.shortWords:
		return classShort
	case float64(b.seps) > th.maxSeps*float64(b.words):
		return classBad
	case b.terms == 0 && float64(b.caps) > th.maxCaps*float64(b.words) && !noLower(text, &f.lower):
		// Title case marks menus and headline lists only in a text that
		// has lower case: in one written all in capitals (an upper-cased
		// copy) every word starts with one.
		return classBad
	}
	if f.stop == nil {
		// No stopword list: prose is told by its sentence endings.
		if b.terms == 0 {
			return classBad
		}
		return classGood
	}
	share := float64(b.stops) / float64(b.words)
	switch {
	case share >= th.stopHigh:
		return classGood
	case share >= th.stopLow:
		return classNearGood
	}
	return classBad
}

// smooth resolves near-good blocks, then short ones, by their neighbours.
func (f *ContentFilter) smooth() {
	bs := f.blocks
	// prevGB and nextGB: the class of the nearest good-or-bad block before
	// and after, skipping short and near-good blocks; the text's edges
	// count as bad.
	f.near(func(b *block, gb uint8) { b.prevGB = gb }, false)
	f.near(func(b *block, gb uint8) { b.nextGB = gb }, true)
	for i := range bs {
		if b := &bs[i]; b.class == classNearGood {
			b.class = classGood
			if b.prevGB == classBad && b.nextGB == classBad {
				b.class = classBad
			}
		}
	}
	// A short block is good only inside the main text, between two good
	// blocks: a quoted line or a subheading. jusText also keeps short blocks
	// whose nearest long neighbours are good across other short ones; on
	// news pages that keeps headline lists and links beside the story
	// (Gold Set dev, exact 5-shingle Jaccard: best pair F1 0.899 against
	// 0.911), so runs of short blocks stay out.
	for i := range bs {
		b := &bs[i]
		if b.class != classShort {
			continue
		}
		b.resolved = classBad
		if i > 0 && i+1 < len(bs) && bs[i-1].class == classGood && bs[i+1].class == classGood {
			b.resolved = classGood
		}
	}
	for i := range bs {
		if bs[i].class == classShort {
			bs[i].class = bs[i].resolved
		}
	}
}

// near calls set for every block with the class of the nearest good-or-bad
// block before it (or after it, when backward), or bad at the text's edge.
func (f *ContentFilter) near(set func(b *block, gb uint8), backward bool) {
	gb := classBad
	n := len(f.blocks)
	for k := range n {
		i := k
		if backward {
			i = n - 1 - k
		}
		b := &f.blocks[i]
		set(b, gb)
		if c := b.class; c == classGood || c == classBad {
			gb = c
		}
	}
}
