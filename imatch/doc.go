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
// Use it for the cheapest grouping of exact and almost exact copies: a few
// 128-bit digests per document, one hash-table probe per digest per Add.
// It reports a pair only when the selected terms agree exactly, so its
// precision is high and its recall on edited copies low. Its quality was
// measured on the SpotSigs Gold Set dev news pages and its speed and
// memory on Reuters-21578; docs/imatch.md in the repository has the
// figures and the commands that regenerate them (go run
// ./examples/evaluate -detector imatch for quality).
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
// pay for the groups sharing a key and O(r log r) for the r results they
// return.
//
// # Exact copies, floods and the result cap
//
// Documents of one analysed term sequence (the same text up to case,
// punctuation, stopwords and stemming: the exact-content digest) are exact
// copies. Copies that were given the same keys share one group in the
// index: a further copy costs O(log c) for a group of c (a heap insertion
// by ID), grows no posting list, and is compared with nothing. With a
// frozen table all copies of a text have the same keys. With a table that
// changes (the online table of [New], or an unfrozen caller table), a copy
// added after the table moved may select other terms: it then starts a
// second group of the same content, tied to the first by the
// exact-content key, so a flood costs one group per distinct selection
// rather than one per copy. In a flood with no other documents between
// the copies, rank selection keeps its selection (every term of the text
// gains the same count), and band selection changes it at most twice per
// distinct term (each copy lowers every term's normalised idf, which
// crosses each band edge once).
//
// Add, Containers and Query return at most Config.MaxResults matches
// (default detector.DefaultMaxResults, 100), the strongest first and ties
// to the smallest IDs (detector.SortMatches), and read only the members of
// a group that can make that cut: in a flood of N identical copies an Add
// costs O(MaxResults · log MaxResults + log N), not O(N). [Detector.Copies]
// lists every copy of a document; [Detector.Cluster] is not capped.
//
// # Query and snapshots
//
// [Detector.Query] returns what Add would return for a document at that
// moment without indexing it: with the online table of [New] it weighs the
// document as the table would after counting it, and counts nothing.
//
// [Detector.WriteTo] and [Detector.ReadFrom] save and load the live
// documents (the format is described in docs/snapshot.md in the
// repository). A snapshot stores each document's ID and, once per group of
// copies, its keys and content digest; for a Detector of [New] it also
// stores the distinct terms of each content once, from which ReadFrom
// rebuilds the online table exactly (its document frequencies and N), so
// that the restored Detector signs later documents as the original would.
// Posting lists, groups and the table are rebuilt on load; texts are never
// stored. The caller's table of [NewWithIDF] is not stored: the snapshot
// names it by fingerprint (textproc.IDF.Fingerprint) and its frozen state,
// and loads only into a Detector built with the same.
//
// # Memory
//
// Memory follows the live documents, not everything ever added:
//
//   - The index holds, per group of copies, its O(K+1) keys of 24 bytes
//     (and the exact-content key when the table can change), its content
//     digest and one posting per key; per document, its ID and a few
//     bytes (a copy adds a heap slot, and no key or posting).
//   - The online table of [New] counts the live documents only: Remove
//     uncounts a document, and a term whose last live document goes leaves
//     the table. Each live document keeps its distinct terms, packed (their
//     bytes plus one per term), to be uncounted; copies share one packed
//     list. When the counted term occurrences fall below a quarter of their
//     peak (and the peak is over 65,536), the table is rebuilt from the
//     live documents, so the space a huge removed document took is given
//     back.
//   - Each [Signer] (the Detector keeps at most 4·GOMAXPROCS idle ones)
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
// The content filter ([DefaultContent]) reads the main content of a page,
// its boilerplate skipped; docs/imatch.md in the repository says how the
// default was chosen and what it was measured to give. I-Match has no
// threshold to lower.
//
// # Concurrency
//
// A [Detector] is safe for concurrent use by multiple goroutines; it runs
// on the detector shell of package internal/engine. What an Add runs under
// which lock:
//
//   - no lock: the analysis (tokens, distinct terms, content digest), and
//     the selection of terms and the digests of each lexicon;
//   - the read lock: the checks that need no analysis and, with the
//     Detector's own table, the lookup of a live copy's packed terms and
//     of the terms new to the Add's Signer;
//   - with the Detector's own online table, a turn (a lock of the Adds,
//     Removes, Queries and ReadFrom only): the document is checked again
//     and counted, which gives the document frequencies of its terms; a
//     term the Add's Signer has met before costs one increment;
//   - the Detector's lock, exclusive, in turn order: the ID checked again,
//     the group found or made, the posting lists and the result.
//
// Every result is that of the Adds run one by one in the order they took
// their turn (or, with a caller's table, the lock). Containers, Copies,
// Cluster, Signature, Len and WriteTo take the read lock only, never the
// turn. A [Signer] is not safe for concurrent use; use one per goroutine.
//
// # Errors
//
// Constructors return errors wrapping detector.ErrInvalidConfig that name
// the field; Add, Query, Containers, Copies, Cluster, Signature and Remove
// return errors wrapping the sentinels of package detector (ErrEmptyID,
// ErrTooLarge, ErrDuplicateID, ErrUnknownID, ErrClosed); ReadFrom's wrap
// detector.ErrSnapshot (naming the differing Config field or table) or
// detector.ErrClosed.
package imatch
