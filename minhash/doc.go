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
//     2013 Table 4 of the first term's document frequency, scaled by the
//     phrase's IDF and cut to rare phrases ([Stats], [WeightedConfig]).
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
// (TestOnePermutationMatchesKHash).
// Classic K-hash MinHash stays available as [KHash]. Values are 31 bits.
//
// Weighted signatures are drawn by [Config].Sampler. Both dart samplers
// are DartMinHash (Christiani 2020): each phrase owns the points of a
// Poisson process on (weight, rank) under its weight, fixed by a hash of
// the phrase; every point falls into one of K slots, and each slot keeps
// its point of least rank. Only ranks below a θ chosen for about
// K(ln K + 1) points are generated, by dyadic weight columns cut into
// cells along the rank, so a document costs O(n + K log K) hashes instead
// of ICWS's O(n·K) hashes and logarithms. The default, PackedDarts
// ([PackedDartMinHash]), has cells of four expected points, a first round
// of K(ln K + 2) points, and keeps each slot's least point as one integer
// (rank above value) so that no point costs a branch; Darts
// ([DartMinHash]) has cells of one point and a slot record compared per
// point, and takes about 1.4 times PackedDarts' CPU time per Add on
// Reuters stories. IoffeICWS is Ioffe's ICWS (ICDM 2010), as Alonso et
// al. 2013 §4.3 restates it, the option faithful to that paper: per
// sample and phrase, r, c ~ Gamma(2,1) and β ~ U(0,1) drawn from a hash
// of (seed, sample, phrase); t = ⌊ln w / r + β⌋; ln a = ln c − r(t − β +
// 1); the sample is the (phrase, t) of least a. For all three,
// Pr[samples agree] equals the weighted Jaccard and the K samples are
// independent, so the estimate has the variance J(1−J)/K
// (TestDartMatchesICWS compares the bias and squared error of the three
// on the same weighted sets over many seeds; TestICWSUnbiased,
// TestDartUnbiased, TestPackedDartUnbiased). Signatures of different
// samplers never compare.
//
// The default sampler is the fastest per Add of the samplers that hold on
// every input the defaults are chosen on (Gold Set dev pair F1 within
// 0.005 of the best, the same Clough-Stevenson shares, no Reuters cluster
// of more than 20 stories, every identical TTC-3600 pair found):
// PackedDarts, at Gold Set F1 0.902 against Darts' 0.905 at the default
// seed (over twelve seeds 0.9026 against 0.9039, a difference within the
// seeds' spread). Darts was the default before it; a snapshot written
// then stores Sampler 0 and still loads into a Detector whose Config says
// Darts (measured figures: docs/minhash.md in the repository).
//
// A phrase that occurs in more than RarePercent of the documents weighs 0
// (Alonso et al. 2013 §4.3, §4.5), except in a document most of whose
// phrases are that common: such a document is a copy of a story that fills
// much of the collection, and cutting its phrases would blind the Detector
// to a flood of near-copies (not in the paper).
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
// Exact duplicates are always reported, up to the cap (equal texts share
// a group; in Weighted mode the group is found by the phrase set, which
// covers weight drift and all-zero weights). Containment estimates lose
// precision as |C|/|A| grows (the Jaccard they are derived from becomes
// small).
//
// # Complexity
//
// Signing is O(n) in the text length for one-permutation hashing plus O(K)
// densification, O(n·K) for KHash and ICWS, O(n + K log K) for Darts and
// PackedDarts. Add,
// Query and Containers probe b band tables (Containment: up to four
// banding levels), at most the newest 1,024 groups of exact copies per
// band key, and verify each candidate group in O(K); a flood of
// near-copies sharing band keys therefore costs each query a bounded
// number of candidates. Remove is O(b) for the last member of a group,
// O(log c) for a member of a group of c copies.
// Memory per group of exact copies is 4·K bytes for the signature, 16
// bytes of bookkeeping, an entry of the exact-copy map and, per band, 8
// bytes of chain links plus a table slot (8 bytes, at least a quarter
// full) for each distinct band key (band keys are computed again from the
// signature where needed, not stored); each document adds its ID, 4 bytes, and in a group
// of several 4 bytes of heap and a position entry. Weighted mode with
// online statistics keeps each live document's distinct terms and phrases
// (8 bytes each; copies with the same ones share one array) to take them
// out of the statistics on Remove. Tables shrink as documents leave;
// signing scratch grown by a document over 65,536 shingles is dropped
// after it.
//
// # Floods of copies
//
// Documents whose content, as the Detector reads it, is identical share
// one entry of the index, a group: in Jaccard and Containment modes equal
// signatures and set sizes (exact copies of a text, or of its shingle
// set), in Weighted mode equal phrase sets. A further copy of a live
// document costs its signing plus O(log c) for c copies (its group keeps
// its members as a heap ordered by ID): no band table, signature or map
// grows. Add, Containers and Query return at most Config.MaxResults
// matches (detector.DefaultMaxResults by default), the strongest by
// detector.SortMatches (equal scores by smallest ID), and read only the
// members of each related group that can make that cut, O(k log k) for
// k = MaxResults, so a flood of thousands of identical copies costs the
// same per Add as the first copy. [Detector.Copies] lists a document's
// copies, uncapped; removing any copy leaves the others indexed as they
// were. In Weighted mode, whose online weights drift, a group takes the
// signature of its newest copy, O(bands) per copy to move it in the band
// tables (on the Gold Set this finds a few more pairs than keeping every
// copy's own signature did; docs/minhash.md in the repository). Below the
// cap, answers are those of a detector without groups that compares every
// pair sharing a band key (TestFloodMatchesReference).
//
// # Lookups and snapshots
//
// [Detector.Query] answers what Add would, without indexing the document
// or counting it into the online statistics. [Detector.WriteTo] writes a
// snapshot of the live documents: their IDs, the signature and set size of
// each group in the order the groups entered the band tables, and in
// Weighted mode with online statistics each document's distinct terms and
// phrases; not their texts. [Detector.ReadFrom] loads it into an empty Detector made
// with the same Config and rebuilds the band tables, the exact-copy map
// and the online statistics without signing anything, in time linear in
// the snapshot. Statistics given to [NewWithStats] are the caller's: a
// snapshot holds only their fingerprint and loads only into a Detector
// given statistics with the same counts. Snapshots are canonical: writing
// a loaded snapshot gives the same bytes. With the detector.Journal of
// the Adds and Removes after it, a snapshot restores a Detector exactly
// (the format: docs/snapshot.md in the repository; the sections:
// snapshot.go).
//
// # Parameters
//
//   - K = [DefaultNumHashes] = 128: datasketch's default, the peers'
//     setting.
//   - Shingle = [DefaultShingle] = 5 words (Jaccard, Containment):
//     the best setting of exact Jaccard on news pages; phrase length
//     [DefaultPhraseLen] = 7 in Weighted mode (Alonso et al. 2013 §4.4).
//   - Threshold: [DefaultThreshold] = 0.08 (Jaccard; where exact Jaccard
//     peaks on news pages), [DefaultWeightedThreshold] (Weighted),
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
//   - Sampler: [PackedDarts] (DartMinHash with packed slots), as accurate
//     as ICWS and the fastest sampler that holds on the defaults' inputs;
//     [Darts] is DartMinHash in its first layout; [IoffeICWS] is the
//     sampler of Alonso et al. 2013 §4.3.
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
// ([Config].MinOverlap). Measured figures (quality at the defaults,
// speed, signature error): docs/minhash.md in the repository.
//
// # Concurrency
//
// A [Detector] and a [Stats] are safe for concurrent use by multiple
// goroutines. A Detector checks a document before any work and analyses
// and signs it outside its locks. Add then searches the index under a
// shared (read) lock, so that the searches of several Adds run at once,
// and holds the exclusive lock only to commit: register the ID, bring its
// search up to date with the groups created, removed or re-signed since
// it began (each judged directly against the document; a search that
// fell far behind, or read a band chain to its cap, is made again), join
// or create the document's group and collect the answer. A new group is
// linked into the band tables after the exclusive lock is released,
// shard by shard (sixteen bands each, under each shard's own lock, in the
// order the insertions were issued). Every Add's answer, and the
// Detector's state after it, are those of the same calls one after
// another in the order the Adds committed (in Weighted mode with online
// statistics, the order they counted their documents into the
// statistics, in which they also commit). That counting runs outside the
// Detector's lock too: the document frequencies are split by hash into
// eight parts, each counted into in that order under a turn of its own,
// so that while one Add counts in a part the next counts in the one
// before, and each document still sees exactly the counts of the
// documents before it. An Add that waits for its turn to commit throws
// darts for the document ahead of it, when that one's sampling has
// elements left to give away; the slots merge by minimum, so the
// signature is the same whoever threw them. Query signs outside the lock
// too (in Weighted mode with online statistics it reads the statistics
// under the lock, samples outside it, and samples under it after two
// attempts that concurrent Adds made void). Containers, Copies and Remove
// hold the exclusive lock. WriteTo encodes under the lock and writes
// after releasing it; ReadFrom decodes and builds the new index before it
// takes the lock to install it. A [Sketcher] is not safe for
// concurrent use: use one per goroutine. [DartMinHash], [ICWS],
// [Similarity], [ContainmentOf], [Params] and [AppendBandKeys] are pure
// functions.
package minhash
