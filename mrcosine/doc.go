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
// indexes them with random-hyperplane LSH (Charikar 2002) and checks the
// exact signature cosine of the candidates. [Config].Exhaustive restores the
// all-pairs comparison.
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
// signatures (all signatures are non-negative, so the cosine of unrelated
// texts is already high, about 0.76 on news pages; [Config].Centered
// measures from the collection's center instead), and a document none of
// whose trigrams occurs in the reference text (a few words at most, with
// the default reference) has the zero signature and matches nothing, even
// an exact copy of itself. The index adds false negatives only: it never reports a
// pair whose signature cosine is below T2, and it misses a pair of cosine
// exactly T2 with probability at most MissRate (see [Bands]); measured loss
// against exhaustive comparison is under 0.1% of the pairs at or above T2 on
// goldset-dev and Reuters (TestIndexRecall). Scores are exact signature
// cosines in both modes.
//
// # Complexity
//
// [Reference.Signature] is O(|D| + Genes) through a trigram → parts table.
// [Detector.Add] adds O(Bands·Rows·Parts) for the band keys and O(C·Parts)
// for C candidates; [Detector.Containers] costs the same without the
// signature; Exhaustive makes both O(N·Parts) for N live documents.
// Memory is 4·Parts + 8·Bands bytes per document plus the bucket lists.
// [Train] costs O(Population·(Genes + Parts·SampleDocs)·SampleDocs) per
// generation.
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
//   - [DefaultT1], [DefaultT2]: "determined empirically" (§3.5); tuned on
//     goldset-dev.jsonl (TestGoldSetSweep): T2 = 0.88 maximises strict F1
//     (0.61), T1 = 0.98 is where precision reaches 0.98.
//     [DefaultCenteredT1] and [DefaultCenteredT2] likewise for
//     [Config].Centered (T2 = 0.67, F1 0.66; T1 = 0.95, precision 0.99).
//   - [DefaultRows], [DefaultCenteredRows], [DefaultMissRate]: the index,
//     ours; [Bands] derives the number of bands from T2.
//
// # Concurrency
//
// A [Detector] is safe for concurrent use by multiple goroutines. A
// [Reference] is immutable and safe for concurrent use (UnmarshalBinary
// excepted, which must not run while the Reference is in use). [Train] uses
// Workers goroutines of its own and returns only when they have finished.
package mrcosine
