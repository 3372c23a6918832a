// Package minhash implements MinHash near-duplicate detection with LSH
// banding (Broder, SEQUENCES 1997; Broder et al. STOC 1998), weighted MinHash
// with the phrase weightings of Alonso, Fetterly and Manasse (Duplicate
// news story detection revisited, MSR-TR-2013-60, §3, §4.3-4.5, Table 4)
// sampled by dart throwing (Christiani, DartMinHash: Fast Sketching for
// Weighted Sets, 2020) or by Ioffe's consistent weighted sampling (ICDM
// 2010), supershingles (Alonso et al. 2013 §3), and containment search
// partitioned by set size in the manner of LSH Ensemble (Zhu et al.,
// PVLDB 2016).
//
// One [Detector] type serves three modes ([Config].Mode):
//
//   - [Jaccard]: symmetric near-duplicates by the resemblance of word
//     n-gram shingle sets, |A∩B|/|A∪B|.
//   - [Weighted]: symmetric near-duplicates by the weighted Jaccard
//     Σmin/Σmax of 7-word phrases weighted by a function of Alonso et al.
//     2013 Table 4 of the first term's document frequency, cut to rare
//     phrases and optionally scaled by the phrase's IDF ([Config].Scale,
//     none by default; [Stats], [WeightedConfig]).
//   - [Containment]: asymmetric C ⊇ A by |A∩C|/|A|, estimated from the
//     signatures and the set sizes ([ContainmentOf]).
//
// The per-document part is callable without an index (for instance by the
// workers of a data-parallel pipeline): [Sketcher] signs a text (or, by
// [Sketcher.AppendHashSignature], any set of hashed features), [DartMinHash]
// and [ICWS] sample any weighted set, [Similarity] and [ContainmentOf] verify a pair,
// [Params] derives the banding and [AppendBandKeys] gives the LSH band keys
// (or supershingles) a distributed shuffle groups by. A Detector indexes
// signatures made elsewhere with [Detector.AddSignature].
//
// # When to use it
//
// Jaccard mode is the cheap, well-understood baseline for near-duplicate
// news and web pages; Weighted mode, whose rare phrases outweigh the
// boilerplate stories share, finds reposted stories with fewer false
// pairs (Alonso et al. 2013); Containment mode finds a text inside a
// larger one (a quoted or reused passage). Pick another detector for
// paraphrase: every mode compares word n-grams.
//
// # Signatures
//
// Unweighted signatures use one-permutation hashing (Li, Owen, Zhang, NIPS
// 2012) with optimal densification (Shrivastava, ICML 2017): one seeded
// hash per shingle picks one of K bins and competes for its minimum;
// empty bins copy a non-empty bin chosen by a document-independent probe
// sequence, marked by the top bit. [Similarity] reads a pair of
// signatures by the estimator of Li, Owen and Zhang over the bins
// non-empty in either. Classic K-hash MinHash stays available as [KHash].
// Values are 31 bits.
//
// Weighted signatures are drawn by [Config].Sampler: DartMinHash
// (Christiani 2020) in two layouts, [PackedDarts] (the default, see
// [PackedDartMinHash]) and [Darts] ([DartMinHash]), O(n + K log K) per
// document, or [IoffeICWS], Ioffe's ICWS as Alonso et al. 2013 §4.3
// restate it, O(n·K). For all three Pr[samples agree] equals the weighted
// Jaccard, so the estimate has the variance J(1−J)/K; signatures of
// different samplers never compare. A phrase that occurs in more than
// RarePercent of the documents weighs 0 (Alonso et al. 2013 §4.3, §4.5),
// except in a document most of whose phrases are that common, a copy of
// a story that fills much of the collection (not in the paper).
//
// # Guarantees
//
// Both false positives and false negatives. Candidates come from LSH bands
// and every candidate is verified by the signature estimate, so a reported
// pair's estimate reaches Config.Threshold; the estimate errs with
// standard deviation about √(J(1−J)/K). A pair of true similarity s is a
// candidate with probability 1 − (1 − s^r)^b, the banding chosen by
// [Params] to weigh false negatives above false positives. Exact
// duplicates are always reported, up to the cap. Containment estimates
// lose precision as |C|/|A| grows.
//
// # Cost
//
// Signing is O(n) in the text length plus O(K) (one-permutation), O(n·K)
// (KHash, ICWS) or O(n + K log K) (the dart samplers). Add, Query and
// Containers probe b band keys (Containment: up to four banding levels),
// at most the newest 1,024 groups per key, verify each candidate group in
// O(K) and read O(k log k) members for the k = MaxResults matches. Remove
// is O(b) for the last member of a group, O(log c) for one of c copies.
// A group of exact copies (equal signatures and sizes; in Weighted mode
// equal phrase sets) is one entry of the index: 4·K bytes of signature,
// and per band 8 bytes of chain links and a table slot; Weighted mode
// with online statistics also keeps each live document's distinct terms
// and phrases (8 bytes each, shared by equal copies). In Weighted mode a
// group takes the signature of its newest copy, O(b) per copy.
//
// # Measured on
//
// Gold Set dev news pages with their boilerplate, Clough-Stevenson graded
// reuse, Reuters-21578 wire copy and TTC-3600 Turkish news: every default
// is the best Gold Set pair F1 among settings that put no more than 20
// different Reuters stories in one cluster and miss no identical
// TTC-3600 pair. go run ./examples/evaluate -detector minhash (or
// minhash-weighted, minhash-containment) reproduces the quality figures,
// go run ./examples/defaults the choice of defaults; docs/minhash.md in
// the repository has the figures, docs/notes/minhash.md their history.
//
// # Lookups, snapshots and concurrency
//
// [Detector.Query] answers what Add would, without indexing the document
// or counting it into the online statistics; [Detector.Nearest] ranks the
// stored documents below the threshold too. [Detector.WriteTo] writes the
// live documents' IDs, each group's signature and size in the order the
// groups entered the band tables and, with online statistics, each
// document's terms and phrases; [Detector.ReadFrom] rebuilds the tables
// and statistics from it without signing, in linear time, and writing a
// loaded snapshot gives the same bytes (the layout: snapshot.go).
//
// A [Detector] and a [Stats] are safe for concurrent use. A Detector is
// the shell of package internal/engine: it signs outside its lock,
// searches under a shared lock and commits under an exclusive one; with
// online statistics each Add counts its document in a turn of its own and
// samples after it, and its answer is that of the Adds made one after
// another in turn order. A [Sketcher] is not safe for concurrent use;
// [DartMinHash], [ICWS], [Similarity], [ContainmentOf], [Params] and
// [AppendBandKeys] are pure functions.
package minhash
