// Package neardup finds near-duplicate and contained documents in streams of
// text, news first. Eleven published algorithms (the detectors of nine
// papers, plus weighted MinHash and LSH Ensemble containment) sit behind one
// small interface ([detector.Detector]: Add, Containers, Close), share one
// text pipeline ([textproc]) and one IDF table, and do no I/O of their own.
// [New] builds any of them by name ([Names] lists them), with Config fields
// as options, for services that read their detector from configuration.
//
// # Which detector for which job
//
// A document C contains a document A when a reader of C gains nothing from A
// (Varol 2012, ch. 1); near-duplicates contain each other.
//
//   - An article inside a longer one (round-ups, updates that add
//     paragraphs, truncated wire copies): a containment detector. codet is
//     built for it (sentence corpus tree, Varol et al. CIKM 2011); shingle's
//     full fingerprinting is exact and the most accurate in the CoDet study
//     but costs more; shingle's DSC and minhash's containment mode are
//     sampled and cheaper.
//   - The same story syndicated with small edits and different page
//     boilerplate: a near-duplicate detector. shingle's SpotSigs and
//     minhash (Jaccard or weighted, with LSH) are the accurate ones on web
//     pages; simhash is the most compact index; mrcosine compares fixed-size
//     signature vectors.
//   - Exact-ish copies at the lowest cost per document: imatch (IDF-filtered
//     digest) and tweezer (named-entity shingles digest, with its Turkish
//     named-entity recogniser in package ner).
//
// # Conventions
//
// Every detector package exports Config, New and Detector. A Config is a
// plain value (enums are named ints), so it can be printed, compared, stored
// and set field by field. Text fields mean the same in every Config:
// Language is a BCP 47 string such as "tr" or "en", parsed by
// [textproc.ParseLanguage]; "" is language-neutral text (no stopwords,
// Unicode lower-casing), as is any language without rules of its own
// (Chinese, Japanese, German, ...), and a bad tag is an error wrapping
// [detector.ErrInvalidConfig]. Stemming is a [textproc.Stemmer], whose zero
// value is the detector's documented default. Scripts written without
// spaces (Chinese, Japanese, Thai, ...) are tokenised into character
// bigrams by every detector.
// A caller's reference IDF table ([textproc.IDF]) is passed to a NewWithIDF
// constructor where the algorithm uses one; New keeps statistics online.
// Detectors compose: [detector.Cascade] puts a cheap detector in front of an
// exact pairwise check on per-document features, and [detector.Vote] reports
// what k of several detectors agree on. Each package also exports its
// per-document signature and pairwise check, callable without an index.
//
// The README has a table of every detector's measured quality and speed,
// with the commands that produced each figure.
package neardup
