// Package mrcosine implements multireference cosine signatures with a
// genetically trained reference text (Mohammadi and Khasteh, "A fast text
// similarity measure for large document collections using multireference
// cosine and genetic algorithm", Turk J Elec Eng & Comp Sci 2020, §3).
//
// A reference text is a sequence of character-trigram genes split into
// contiguous parts ([Reference]). The signature of a document is the vector
// of cosines between the document's trigram vector and each part (§3.4), so
// a document of any length becomes a vector of [DefaultParts] numbers. Two
// documents are compared by the cosine of their signatures (§3.5): at or
// above T1 they are duplicate candidates, at or above T2 near-duplicate
// candidates. [Train] builds a reference text from a collection with the
// genetic algorithm of §3.6, whose fitness is how closely the signature
// cosine follows the full trigram cosine (Eq. 1). [Default] is a reference
// trained by this package on Reuters-21578, embedded so a [Detector] works
// out of the box.
//
// The paper compares every pair of signatures; the [Detector] instead
// indexes them with random-hyperplane LSH (Charikar 2002) over the
// signature minus the reference's center, and checks the exact signature
// cosine of the candidates. [Config].Exhaustive restores the all-pairs
// comparison.
//
// Use it where a document's whole text should count and a fixed-size
// signature per document is wanted (4·Parts bytes, about 600 with the
// default reference): it compares documents as character-trigram profiles,
// so it tolerates spelling and inflection changes, but it reports
// symmetric similarity, not containment, and on newswire its bands prune
// weakly, so an Add costs up to one sketch comparison per distinct live
// signature. Its quality was measured on the news pages of the SpotSigs
// Gold Set (goldset-dev) and the Clough-Stevenson plagiarism corpus, its
// speed and index loss on Reuters-21578; the figures, with the commands
// that regenerate them (go run ./examples/evaluate -detector mrcosine, and
// the tests they name), are in docs/mrcosine.md and docs/notes/mrcosine.md
// in the repository.
//
// Where the paper is silent this package chooses a reading, each with its
// alternatives as options:
//
//   - text → trigrams: NFC, language-aware lower case, runs of non-word
//     characters → one space, overlapping trigrams with stride 1
//     ([Normalized]; [LettersOnly] and [Raw] are the alternatives);
//   - a reference is a list of trigram genes, not a string, so no junction
//     trigram the GA never chose takes part;
//   - parts are contiguous, of near-equal size, longer parts first;
//   - the part cosine is a term-frequency cosine over all of the document's
//     trigrams ([TextConfig].Binary selects set cosine);
//   - the "true" cosine of Eq. 1 is the full trigram cosine of the same
//     representation ([Reference.TrigramCosine]);
//   - GA: (μ+λ) selection of the lowest error, λ = μ children from random
//     parent pairs, every child mutated, N = 200 sample documents drawn
//     once ([TrainConfig].Resample redraws them every generation; the
//     fixed sample measured better), pool ranked by the sum of a trigram's
//     TF-IDF over the documents ([RankMax], the highest TF-IDF, is the
//     other plausible reading; the sum measured better).
//
// # Guarantees
//
// Both false positives and false negatives. The signature is a lossy
// projection of the trigram vector: unrelated documents can have close
// signatures (all signatures are non-negative, so the plain cosine of
// unrelated news texts is already high; [Config].Centered measures from
// the collection's center instead), and a document none of
// whose trigrams occurs in the reference text (a few words at most, with
// the default reference) has the zero signature and is no near-duplicate
// of anything; only its exact copies (the same characters as the detector
// reads them) are reported, with score 1. The index adds false negatives
// only: it never reports a pair whose signature cosine is below T2. Under
// Centered it misses a pair of cosine exactly T2 with probability about
// MissRate (see [Bands]; bands share signs, so this is a model figure);
// for plain signatures the bound holds for pairs whose centered vectors
// are not both short (see [PlainSlack]). The loss against exhaustive
// comparison is measured on real news pages and newswire and kept under 1%
// of the pairs at or above T2 by a test. Scores are exact signature
// cosines in both modes.
//
// # Complexity
//
// [Reference.Signature] is O(|D| + Genes) through a trigram → parts table.
// [Detector.Add] adds O(Parts·log Parts) for the signs of its pseudo-random
// rotations and O(Bands·Rows) for its band keys (both with no lock),
// O(Bands) bucket lookups, O(C) sketch comparisons for C candidate
// signatures and O(E·Parts) for the E candidates whose sketch passes, and
// O(k log k) for the k ≤ MaxResults documents it reports;
// [Detector.Containers] and [Detector.Query] cost the same without the
// insertion (Containers without the signature); Exhaustive makes them
// O(G·Parts) for G distinct live signatures. The bands prune weakly on
// newswire, so C grows with the live collection (see [Detector]). Memory
// is about 4·Parts + 12·Bands + 135 bytes per distinct signature: the unit
// signature (4·Parts), its band keys (8·Bands), its sketch (64), a bucket
// entry per band (4·Bands) and the bucket table, and the engine's group
// entry and a few words of bookkeeping (and 4 bytes in the scratch of each query that read the
// buckets, one scratch per concurrent caller); an exact copy of a live
// document costs its ID and a heap entry. The bucket table shrinks when
// documents are removed; the per-signature arrays keep the size of the
// largest live set. [Train]
// costs O(Population·(Genes + Parts·SampleDocs)·SampleDocs) per
// generation.
//
// # Exact copies, floods and the cap
//
// Documents whose compared vectors (the unit signature, or the unit
// centered signature under Centered) are identical bit for bit, such as the
// same text, or the same text in other case or spacing under Normalized
// text, are exact copies as the detector reads them: every score against
// them is the same, so they share one entry of the index. Everything the
// index keeps of a document (sketch, band keys, bucket entries) belongs to
// that entry; the copies are a min-heap by ID. A further copy adds no
// bucket entry and no comparison per earlier copy: O(log c) ID comparisons
// for c copies, after the signature and the query every Add makes.
// [Detector.Copies] lists the copies of a live document.
//
// Add, Containers and Query return at most [Config].MaxResults matches
// ([detector.DefaultMaxResults] by default), the strongest by
// [detector.SortMatches], ties broken by the smallest ID; of a group of
// copies they read only the members that can make the cut, so an Add in a
// flood of N identical copies does work independent of N. Without the cap
// each Add of the flood would return every earlier copy.
//
// # Query
//
// [Detector.Query] returns what Add would return at that moment without
// storing the document or changing anything a later call observes (the
// detector keeps no online statistic); it signs outside the lock and is
// safe under concurrent Adds.
//
// # Snapshots
//
// [Detector.WriteTo] writes the live documents' IDs and compared vectors
// (exact float32 bits, once per group of copies, about 4·Parts bytes plus
// the IDs), not their texts; [Detector.ReadFrom] loads them into an empty
// Detector of the same Config and reference text and rebuilds the hashed
// vectors, sketches, band keys and bucket table from the vectors, so the
// loaded detector answers every later call as the saved one would, scores
// included. The reference text is the caller's ([NewWithReference]; New
// uses [Default]): the snapshot identifies it by a fingerprint of its
// binary encoding (genes, parts, TextConfig, center) and does not hold it.
// The layout is documented in snapshot.go.
//
// # Parameters
//
//   - [DefaultGenes] = 1000 genes in [DefaultParts] = 150 parts:
//     Table 4 (lowest MAE, 0.1047) and every experiment of §4.
//   - [DefaultPopulation] = 100 (Table 1), [DefaultGenerations] = 50 (§4.2),
//     [DefaultPoolSize] = 9000 top-TF-IDF trigrams (§3.6.1),
//     [DefaultMutationRate] = 10% of genes (§3.6.2), 80/20 split with the
//     winner chosen on the 20% ([DefaultHoldout], §4.2).
//   - [DefaultSampleDocs] = 200: not in the paper, whose 20 s a generation
//     (Table 1) rules out all pairs of its 8,000 training documents.
//   - [DefaultT1], [DefaultT2]: "determined empirically" (§3.5); chosen
//     on labelled near-duplicate news pages of the SpotSigs Gold Set
//     (Theobald, Siddharth and Paepcke 2008): T2 for F1, T1 for high
//     precision. [DefaultCenteredT1] and [DefaultCenteredT2] likewise for
//     [Config].Centered.
//   - [DefaultRows], [DefaultMissRate], [PlainSlack]: the index, ours;
//     [Bands] derives the number of bands from the index threshold.
//
// # Concurrency
//
// A [Detector] is safe for concurrent use by multiple goroutines. It is a
// shell of package internal/engine around the index: Add checks the
// document before any work, signs and hashes it with no lock, and takes
// the exclusive lock to check the ID again, search the index (bucket
// lookups or the sequential sketch pass, exact cosines, the group of an
// exact copy) and insert it; of several concurrent Adds of one new ID
// exactly one succeeds, and every Add's answer, and the detector's state
// afterwards, are those of Adds and Removes run one at a time in the
// order they took that lock. Query signs with no lock and searches under
// the shared lock, as do Containers, Copies, Len and WriteTo (WriteTo
// encodes under it and writes after it is released); Remove, Close and
// the installation of a loaded snapshot take the exclusive one.
//
// A [Reference] is immutable and safe for concurrent use (UnmarshalBinary
// excepted, which must not run while the Reference is in use); [Default]
// returns a new value each call, so replacing one changes nothing else.
// [Train] uses Workers goroutines of its own and returns only when they
// have finished.
//
// # Errors
//
// New and NewWithReference wrap [detector.ErrInvalidConfig]; Add,
// Containers, Query, Copies and Remove wrap the sentinels of package
// detector (ErrClosed, ErrEmptyID, ErrTooLarge, ErrDuplicateID,
// ErrUnknownID); ReadFrom wraps [detector.ErrSnapshot] or ErrClosed, and
// WriteTo ErrClosed or the writer's error; [Reference.UnmarshalBinary]
// wraps [ErrFormat].
package mrcosine
