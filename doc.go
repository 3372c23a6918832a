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
// (Varol 2012, ch. 1); near-duplicates contain each other. The containment
// detectors (codet, ffp, dsc, minhash-containment) report the documents that
// contain a new one, the others its near-duplicates. By job, the detector to
// start with:
//
//   - Updates and round-ups that contain earlier articles: codet, which
//     compares sentences (Varol, Can, Aykanat, Kaya, "CoDet:
//     sentence-based containment detection in news corpora", CIKM 2011,
//     §3); dsc samples shingles and costs less, but finds less reworded
//     reuse.
//   - Pages with boilerplate: spotsigs, whose signatures are anchored at
//     stopwords, which prose has and navigation text mostly lacks
//     (Theobald, Siddharth, Paepcke, "SpotSigs: robust and efficient near
//     duplicate detection in large web collections", SIGIR 2008, abstract).
//   - Wire copy: minhash, which keeps notices written from one template
//     apart; minhash-containment for copies cut short.
//   - Smallest memory or snapshot: tweezer (named-entity shingles);
//     tweezer-exact holds less but finds exact-ish copies only.
//   - Fastest: spotsigs, on English text (its default antecedents are
//     English words).
//   - Turkish: codet with Language "tr" (it ships a Turkish reference IDF
//     table) for containment, minhash or tweezer for copies; spotsigs at its
//     default antecedents finds no edited copy of a Turkish text.
//   - Chinese or Japanese: codet or minhash with Language "zh" or "ja",
//     which read such text as character bigrams; spotsigs, simhash,
//     minhash-weighted and mrcosine at their defaults miss small edits.
//
// simhash, imatch and tweezer-exact find near-exact copies only; mrcosine
// gives fixed-size numeric signatures for a vector index. The README's
// "Which detector" section gives the measured figure behind each choice
// (quality on labelled collections, documents per second, bytes per
// document) and the command that reproduces it.
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
// # One service value
//
// [NewIndex] returns a named detector as an [Index]: Add, Containers,
// Close, Remove, Query, Nearest ([detector.Ranker]: the stored documents
// nearest to a text, best first, below the threshold too), Copies,
// WriteTo and ReadFrom, with no type assertion.
//
// # Inside
//
// The detector packages share one shell, the internal engine package: it
// owns document IDs, groups of exact copies (indexed once, members kept
// by ID), capped and sorted results, one lock and the snapshot sections
// every detector has, and runs every Add one way: cheap checks under the
// read lock, features outside every lock, a turn for online statistics
// where the algorithm keeps them, then one exclusive commit. A package
// supplies its algorithm: how it reads a text, its exact-copy key, its
// index and how it ranks; an index that keeps state per document (codet's
// corpus tree: arrival order, a time window) does so through the engine's
// optional hooks.
package neardup
