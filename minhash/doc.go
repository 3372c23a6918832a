// Package minhash implements MinHash near-duplicate detection with LSH
// banding (Broder, SEQUENCES 1997; Broder et al. STOC 1998), weighted MinHash
// by Ioffe's consistent weighted sampling with the phrase weightings of
// Alonso, Fetterly and Manasse (Duplicate news story detection revisited,
// MSR-TR-2013-60, §3, §4.3-4.5, Table 4), supershingles (Alonso et al.
// 2013 §3), and containment search partitioned by set size in the manner of
// LSH Ensemble (Zhu et al., PVLDB 2016).
//
// One [Detector] type serves three modes ([Config].Mode):
//
//   - [Jaccard]: symmetric near-duplicates by the resemblance of word
//     n-gram shingle sets, |A∩B|/|A∪B|.
//   - [Weighted]: symmetric near-duplicates by the weighted Jaccard
//     Σmin/Σmax of 7-word phrases weighted by a function of Alonso et al.
//     2013 Table 4 of the first term's document frequency, scaled by the
//     phrase's IDF and cut to rare phrases ([Stats], [WeightedConfig]).
//   - [Containment]: asymmetric C ⊇ A by |A∩C|/|A|, estimated from the
//     signatures and the set sizes ([ContainmentOf]).
//
// The per-document part is callable without an index (for instance by the
// workers of a data-parallel pipeline): [Sketcher] signs a text (or, by
// [Sketcher.AppendHashSignature], any set of hashed features), [ICWS]
// samples any weighted set, [Similarity] and [ContainmentOf] verify a pair,
// [Params] derives the banding and [AppendBandKeys] gives the LSH band keys
// (or supershingles) a distributed shuffle groups by. A Detector indexes
// signatures made elsewhere with [Detector.AddSignature].
//
// # Signatures
//
// Unweighted signatures use one-permutation hashing (Li, Owen, Zhang, NIPS
// 2012) with optimal densification (Shrivastava, ICML 2017): each shingle
// hash is mixed once by a seeded SplitMix64 finaliser; the high 32 bits pick
// one of K bins, the low 32 bits compete for that bin's minimum; empty bins
// copy a non-empty bin chosen by a document-independent probe sequence,
// marked by the top bit of the value. That is one hash per shingle instead
// of K. [Similarity] reads a pair of signatures by the estimator of Li,
// Owen and Zhang over the bins non-empty in either (densified bins serve
// only the LSH bands): unbiased, and at most K-hash MinHash's squared error
// (TestOnePermutationMatchesKHash measures 0.49-0.98×, lowest for sets
// smaller than K, where nearly every element has a bin of its own).
// Classic K-hash MinHash stays available as [KHash]. Values are 31 bits.
//
// Weighted signatures are Ioffe's ICWS (ICDM 2010), as Alonso et al. 2013
// §4.3 restates it: per sample and phrase, r, c ~ Gamma(2,1) and
// β ~ U(0,1) drawn from a hash of (seed, sample, phrase); t = ⌊ln w / r + β⌋;
// ln a = ln c − r(t − β + 1); the sample is the (phrase, t) of least a.
// Pr[samples agree] equals the weighted Jaccard (TestICWSUnbiased).
//
// # Guarantees
//
// Both false positives and false negatives. Candidates come from LSH bands
// and every candidate is verified by the signature estimate before it is
// reported, so a reported pair's estimate reaches Config.Threshold; the
// estimate itself errs with standard deviation about √(J(1−J)/K). A pair of
// true similarity s is a candidate with probability 1 − (1 − s^r)^b; the
// banding is chosen by [Params] to balance the two error integrals,
// weighted towards recall.
// Exact duplicates are always reported (equal texts have equal signatures;
// in Weighted mode an exact-set index covers weight drift and all-zero
// weights). Containment estimates lose precision as |C|/|A| grows (the
// Jaccard they are derived from becomes small).
//
// # Complexity
//
// Signing is O(n) in the text length for one-permutation hashing plus O(K)
// densification, O(n·K) for KHash and ICWS. Add and Containers probe b band
// maps (Containment: up to four banding levels) and verify each candidate
// in O(K). Memory per document is 4·K bytes for the signature, 24 bytes of
// bookkeeping and, per band, 12 bytes plus a map entry for each distinct
// band key. Per-document storage grows in chunks of 256 documents and never
// copies what it holds.
//
// # Parameters
//
//   - K = [DefaultNumHashes] = 128: datasketch's default, the peers'
//     setting.
//   - Shingle = [DefaultShingle] = 5 words (Jaccard, Containment):
//     exact 5-shingle Jaccard is the reference on goldset-dev; phrase length
//     [DefaultPhraseLen] = 7 in Weighted mode (Alonso et al. 2013 §4.4).
//   - Threshold: [DefaultThreshold] = 0.08 (Jaccard; best strict F1 on
//     goldset-dev, as for exact Jaccard), [DefaultWeightedThreshold] (Weighted),
//     [DefaultContainmentThreshold] = 0.4 (Containment; chosen by the
//     defaults procedure, see Defaults, where the shingling baselines of
//     Varol 2012, "CoDet: a new algorithm for containment and near duplicate
//     detection in text corpora", M.S. thesis, Bilkent, §4.1 use 0.6).
//   - Banding: [Params] with false negatives weighing four times false
//     positives ([DefaultFalsePositiveWeight] 0.5, as datasketch's,
//     [DefaultFalseNegativeWeight] 2): every candidate is verified, so a
//     false candidate costs time, a false negative a pair.
//   - Weighting: df⁴ ([DefaultWeighting], [DefaultPower]), rare phrases of the
//     bottom 50% ([DefaultRarePercent]), Alonso et al. 2013 §4.5 and §4.8.
//   - Supershingles: off; when on, [DefaultSupershingleMatches] = 2 equal
//     supershingles make a candidate (Fetterly et al. 2003).
//
// # Defaults
//
// Every default was chosen by one procedure over news pages with their
// boilerplate (Gold Set dev), graded reuse (Clough-Stevenson), clean wire
// copy (Reuters-21578) and Turkish news (TTC-3600): the best Gold Set pair
// F1 among the settings that put no more than 20 different Reuters stories
// in one cluster and miss no identical TTC-3600 pair (go run
// ./examples/defaults; the README says how). Each mode reads the main
// content ([DefaultContent]) and needs evidence beyond its threshold
// ([Config].MinOverlap). At the defaults, Gold Set dev strict F1: Jaccard
// 0.909, Weighted 0.897, Containment 0.904; largest Reuters cluster: 11, 8
// and 6 different stories, where without the evidence rule 698 documents
// join one cluster in Jaccard mode.
//
// # Concurrency
//
// A [Detector] and a [Stats] are safe for concurrent use by multiple
// goroutines; a Detector signs outside its lock. A [Sketcher] is not: use
// one per goroutine. [ICWS], [Similarity], [ContainmentOf], [Params] and
// [AppendBandKeys] are pure functions.
package minhash
