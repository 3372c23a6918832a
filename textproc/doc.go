// Package textproc implements the text pipeline shared by every neardup
// detector (Varol 2012, seed 000 §2.1; DESIGN.md "The text pipeline"):
// Unicode normalisation, language-aware case folding, sentence splitting,
// tokens with byte offsets, Turkish apostrophe suffixes, stopwords, first-N
// prefix stemming, term interning, and the [IDF] table of seed 000 Eq. 2.1.
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
// per token once every term has been seen (terms are interned).
//
// # Parameters
//
//   - [DefaultPrefixLen] = 5: first-5 stemming, seed 000 §2.1.1.
//   - Turkish stopwords: the list of seed 000 Table 2.1; English: the
//     Snowball list ([Stopwords]).
//   - [FullConfig] is the preprocessing of every detector in seed 000 §5.1:
//     stopwords removed, first-5 stemming.
//
// # Concurrency
//
// An [Analyzer] is not safe for concurrent use (it reuses buffers); use one
// per goroutine. [IDF] is safe for concurrent use. [Words], [Sentences] and
// [Stopwords] are pure functions.
package textproc
