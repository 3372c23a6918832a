// Package textproc implements the text pipeline shared by every neardup
// detector (Varol 2012, *CoDet: A New Algorithm for Containment and Near
// Duplicate Detection in Text Corpora*, §2.1): Unicode normalisation,
// language-aware case folding, sentence splitting, tokens with byte
// offsets, Turkish apostrophe suffixes, stopwords, first-N prefix stemming,
// term interning, and the [IDF] table of Eq. 2.1. It is the only code of
// the module that does these things: every detector parses its Config's
// Language with [ParseLanguage], takes its stemming as a [Stemmer], and
// folds text with an [Analyzer] or a [Folder].
//
// # Languages
//
// A language is a BCP 47 tag. Turkish (and Azerbaijani) and English have
// rules of their own ([RuleSet]); every other language, and the empty
// Language of a detector Config, is processed as language-neutral text:
// Unicode default lower-casing, no stopwords, no apostrophe rule. A
// language without a stopword list (German, Chinese, Japanese, ...) is
// accepted and processed this way. Scripts written without spaces between
// words (Han, Hiragana, Katakana, Thai, Lao, Khmer, Myanmar) are tokenised
// into overlapping character bigrams under every language, as Lucene's CJK
// bigram analysis does.
//
// # Main content
//
// Pages keep navigation, menus, headline lists and footers around their
// story; two pages of one site about different stories share most of those
// words, and one story under two site templates shares few. With
// [Config].Content = [ContentMain] an Analyzer reads only a text's
// main-content blocks, found by a [ContentFilter] at text level (blank-line
// blocks classified by stopword share, menu separators and capitalisation,
// then by their neighbours, after jusText). Every detector sets it from its
// own Config's Content field, and reads the main content by default. On
// clean text the filter is nearly the identity, and it reads a text with
// one block, or with no block it judges good, whole.
//
// # Guarantees
//
// Offsets always index the original text, whatever normalisation does to a
// term, so a detector can point at the passage that matched. Invalid UTF-8 is
// never fatal: invalid bytes separate words. Case folding follows the
// language: Turkish folds "İ" to "i" and "I" to "ı" ("KADIN" → "kadın"),
// English and the neutral default fold "I" to "i".
//
// # Complexity
//
// [Analyzer.Analyze] is O(n) in the length of the text, with no allocation
// per token once every term has been seen (terms are interned); the content
// filter adds one pass over the text's words, also without allocation.
// A caller that hashes terms rather than interning them iterates
// [Analyzer.Terms]: O(n), no allocation once its buffers have grown, and a
// word of ASCII letters and digits is found and folded in one pass over
// its bytes.
//
// Memory: an Analyzer's vocabulary grows with the distinct terms it has
// seen (about 60 bytes per term plus the term) until [Analyzer.Reset]; an
// [IDF] holds about 40 bytes per live term plus a copy of the term. No
// other buffer that one huge text grows is kept: scratch space above about
// 1 MiB is released after the call, so an outlier costs neither lasting
// memory nor lasting time.
//
// Measured figures (content filter, memory and speed after outliers, case
// copies): docs/textproc.md in the repository.
//
// # Parameters
//
//   - [DefaultPrefixLen] = 5: first-5 stemming, Varol 2012 §2.1.1.
//   - Turkish stopwords: the list of Varol 2012 Table 2.1; English: the
//     Snowball list ([Stopwords]); none for other languages.
//   - [FullConfig] is the preprocessing of every detector in Varol 2012
//     §5.1: stopwords removed, first-5 stemming.
//   - Scripts without spaces: character bigrams (Lucene's CJKBigramFilter;
//     Kwok 1997, "Comparing representations in Chinese information
//     retrieval", SIGIR '97, finds bigrams as effective as words).
//
// # Concurrency
//
// An [Analyzer] and a [ContentFilter] are not safe for concurrent use (they
// reuse buffers); use one per goroutine. [IDF] and [Folder] are safe for
// concurrent use. [Words], [TermSpans], [Sentences], [Stopwords],
// [ParseLanguage] and [RuleSet] are pure functions.
//
// # Zero values
//
// The zero value of every type is usable: the zero [Analyzer] is the one of
// the zero [Config] (language-neutral, no stopwords, no stemming), the zero
// [ContentFilter] and [Folder] are language-neutral, the zero [IDF] is an
// empty unsmoothed table.
package textproc
