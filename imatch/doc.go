// Package imatch implements I-Match (Chowdhury, Frieder, Grossman, McCabe,
// ACM TOIS 2002; as described by Uyar 2009, "Near-duplicate news detection
// using named entities", M.S. thesis, Bilkent, §2.2.3 Fig. 2.4, and adapted
// by Varol 2012, "CoDet: a new algorithm for containment and near duplicate
// detection in text corpora", M.S. thesis, Bilkent, §4.1.3), with the
// lexicon randomisation of Kołcz, Chowdhury and Alspector (KDD 2004).
//
// A document is reduced to a few "significant" terms chosen by collection
// statistics (idf), the unique terms are sorted, and their sorted list is
// hashed into one 128-bit digest. Documents with equal digests are
// near-duplicates and form a cluster ([Detector.Cluster]).
//
// Two selections are offered ([Selection]):
//
//   - [SelectRank], CoDet's adaptation (Varol 2012 §4.1.3): rank the
//     document's unique terms by idf, drop the 2 highest (likely
//     misspellings), keep the next 10.
//   - [SelectBand], the normalised-idf band of the I-Match literature: keep
//     every term with 0.2 ≤ ln((N+1)/df)/ln(N+1) ≤ 0.85 (the I-Match mode of
//     the SpotSigs release; the original paper's cut-offs are not
//     available).
//
// With Config.Lexicons = K > 0 each document also gets one digest per random
// sub-lexicon (each keeps a LexiconKeep fraction of the terms, chosen by a
// seeded hash), and two documents match when any digest agrees (Kołcz et al.
// 2004): one changed significant term no longer breaks the match.
//
// [Signer] computes the signatures of one text without an index, for a
// worker of a distributed deduplication: documents sharing a [Key] are
// near-duplicates.
//
// # Guarantees
//
// Both false positives and false negatives. Documents that select the same
// terms collide whatever else differs (a false positive when the selection is
// small or dominated by boilerplate); one differing selected term separates
// near-duplicates (a false negative that lexicon randomisation reduces).
// Exact duplicates (equal term sequences) are always reported, both ways:
// with a frozen IDF table they select the same terms; with an online table
// the Detector also indexes an exact-content digest (see [Detector]). A
// document that selects fewer than MinTerms terms under a lexicon gets no
// signature under it, so near-empty documents do not all collide; a document
// with no terms matches nothing. Distinct term lists collide only through a
// 128-bit hash collision, unless Encoding is [EncodeConcat].
//
// # Complexity
//
// Signing a text of n tokens with u unique terms costs O(n) analysis plus
// O(u·(K+1)) selection (O(u·log u) sorting for SelectBand). Add is one
// signature plus K+1 hash-table probes; Containers is K+1 probes; both also
// pay for the size of the matching groups.
//
// # Memory
//
// Memory follows the live documents, not everything ever added:
//
//   - The index holds O(K+1) keys of 24 bytes plus one posting per document
//     and key (and the exact-content key when the table is online).
//   - The online table of [New] counts the live documents only: Remove
//     uncounts a document, and a term whose last live document goes leaves
//     the table. Each live document keeps its distinct terms, packed (their
//     bytes plus one per term), to be uncounted. When the counted term
//     occurrences fall below a quarter of their peak (and the peak is over
//     65,536), the table is rebuilt from the live documents, so the space a
//     huge removed document took is given back.
//   - Each [Signer] (the Detector keeps at most GOMAXPROCS idle ones)
//     interns at most max(65,536, 2 × recurring terms) terms and analyses at
//     most 16 times that many tokens before it starts a fresh vocabulary
//     (see [Signer]); buffers grown by one huge document are let go after
//     it.
//
// # Parameters
//
//   - Skip = [DefaultSkip] (2) and Keep = [DefaultKeep] (10): Varol 2012
//     §4.1.3.
//   - BandLow = [DefaultBandLow] (0.2), BandHigh = [DefaultBandHigh] (0.85):
//     SpotSigs release I-Match mode; Alonso et al. 2013 §4.1.
//   - MinTerms = [DefaultMinTerms] (5): not in the papers; without a
//     minimum, documents with (almost) no selected terms would all collide.
//   - Lexicons = 0 (plain I-Match); Kołcz et al. do not state their K
//     (we suggest 10). LexiconKeep = [DefaultLexiconKeep] (0.7):
//     FreeDiscovery's default.
//   - Preprocessing: stopwords removed and first-5 stemming (Varol 2012
//     §2.1, §5.1).
//   - Encoding: length-prefixed terms ([EncodeLengthPrefixed]); the SpotSigs
//     release concatenates terms with no separator ([EncodeConcat]).
//   - Digest: 128-bit xxh3 instead of SHA1 (only digest equality matters;
//     128 bits make accidental collisions negligible).
//   - Ties in the idf ranking are broken by ascending term.
//
// # Defaults
//
// The content filter ([DefaultContent]) was chosen by one procedure over
// news pages with their boilerplate, graded reuse, clean wire copy and
// Turkish news; on pages it lifts recall severalfold. I-Match reports a pair
// only when the selected terms of the two texts agree exactly, so pages
// whose stories were edited differently stay apart; it has no threshold to
// lower.
//
// Measured figures (quality by selection and lexicons, speed, memory) are
// in docs/imatch.md in the repository, with the commands that regenerate
// them.
//
// # Concurrency
//
// A [Detector] is safe for concurrent use by multiple goroutines; Adds
// analyse their texts in parallel, outside the Detector's lock (see
// [Detector]). A [Signer] is not; use one per goroutine.
//
// # Errors
//
// Constructors return errors wrapping detector.ErrInvalidConfig that name
// the field; Add, Containers, Cluster, Signature and Remove return errors
// wrapping the sentinels of package detector (ErrEmptyID, ErrTooLarge,
// ErrDuplicateID, ErrUnknownID, ErrClosed).
package imatch
