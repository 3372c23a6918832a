// Package dedup runs neardup's detectors as Apache Beam pipelines, for
// collections that outgrow one process: MinHash near-duplicate pairs with
// LSH banding (Broder, SEQUENCES 1997; Broder et al., STOC 1998), their
// clusters by connected components (union-find on one worker, or the
// large-star/small-star rounds of Kiveris, Lattanzi, Mirrokni, Rastogi and
// Vassilvitskii, Connected Components in MapReduce and Beyond, SoCC 2014),
// and containment by full fingerprinting or DSC (Broder, Glassman, Manasse,
// Zweig, WWW6 1997, as adapted to containment by Varol 2012, CoDet,
// §4.1.1-4.1.2) through an inverted index.
//
// The package imports no runner: a program picks one (Prism in process,
// Dataflow, Flink, Spark) by importing it, usually through beamx. Every
// per-document step is the core library's own pure function
// (minhash.Sketcher, minhash.AppendBandKeys, minhash.Similarity,
// minhash.Params, shingle.Extract), so the pipelines report what the
// in-memory detectors report.
//
//   - [MinHashPairs]: PCollection of [Doc] → PCollection of [Pair].
//   - [Clusters], [StarClusters]: PCollection of [Pair] → PCollection of [Label].
//   - [Containment]: PCollection of [Doc] → PCollection of [Contained].
//   - [ReadDocs]: JSONL files → PCollection of [Doc].
//
// # Guarantees
//
// With no bucket capped, MinHashPairs reports exactly the pairs and scores
// of a minhash.Detector of the same Config (both false positives and false
// negatives of MinHash with LSH, none added by distribution); with
// MaxBucket engaged it reports a subset, every pair still verified.
// Containment with no shingle capped reports exactly the triples of a
// shingle.Detector's Containers (exact for full fingerprinting). Both
// apply their detector's evidence rules (Config.MinOverlap; for
// containment also "a part does not contain its whole") from the same
// resolved config. A capped shingle can only lose overlap, so capping
// adds false negatives and lowers scores; the one decision it can turn the
// other way is the part-of rule, when a part's overlap with its whole
// falls below 90% of the part through capped shingles alone. Clusters is exact;
// StarClusters is exact once MetricUnconverged is zero.
//
// # Complexity
//
// For N documents of n shingles, K signature values and b bands:
// signing is O(n) per document; the shuffles carry, per document, one
// signature (4K bytes) to collapse exact copies and b band records; per
// candidate pair, two joins of one signature each; and per pair within a
// band bucket of m ≤ MaxBucket members one candidate record (m(m−1)/2 per
// bucket, m−1 beyond MaxBucket). Containment shuffles one posting per
// distinct shingle and one record per pair of documents per shared
// shingle of document frequency ≤ MaxDF (combined per worker before the
// shuffle). Clusters holds O(documents in pairs) on one worker;
// StarClusters shuffles every edge twice per round, O(log² N) rounds in
// the worst case (Kiveris et al. 2014, §4).
//
// # Parameters
//
//   - MinHash: the defaults of minhash.Config (K = 128, 5-word shingles,
//     banding by minhash.Params, MinOverlap 50, main content only);
//     DefaultMaxBucket = 1000.
//   - Containment: the defaults of shingle.Config as a shingle.Detector
//     resolves them (4-word shingles, θ = 0.25, DSC modulus 4, MinOverlap
//     30 shingles or 10 DSC samples, main content only); DefaultMaxDF =
//     1000.
//   - StarClusters: DefaultStarRounds = 6.
//
// # Concurrency
//
// The pipeline-building functions may be called from several goroutines
// on distinct Scopes; a runner executes the DoFns in parallel, each DoFn
// instance (and so each minhash.Sketcher) on one goroutine at a time.
//
// # Metrics
//
// Counters in namespace [Namespace] report documents, skipped and empty
// documents, exact copies, band records, capped buckets and shingles,
// distinct candidates and the payload bytes each stage writes into its
// shuffle (Metric* constants).
package dedup
