// Package simhash implements Charikar's SimHash (STOC 2002) with IDF
// weights, as adapted by Varol 2012, "CoDet: a new algorithm for
// containment and near duplicate detection in text corpora", M.S. thesis,
// Bilkent, §4.1.4, and the Hamming-distance index of permuted sorted tables
// of Manku, Jain, Das Sarma (WWW 2007 §3).
//
// A document's weighted features (φ, w) are hashed to 64 bits; a vector V of
// 64 counters adds w where bit i of h(φ) is 1 and subtracts it where it is 0;
// bit i of the fingerprint is 1 iff V_i > 0 ([Fingerprint]). Similar
// documents get fingerprints at a small Hamming distance, and two documents
// are near-duplicates when the distance is at most K.
//
// The default follows Varol 2012 §4.1.4 (the terms, with the two
// highest-idf terms dropped) but weighs each term by tf·idf where that
// paper weighs each unique term by its idf ([WeightIDF]): on every
// collection the defaults were chosen on, tf·idf reports more true pairs
// and ranks better. Other features (word n-grams, character n-grams) and
// weights (unit, tf, idf) are options ([Features], [Weights]). [Signer] fingerprints one text without an
// index; [Index] is the exact online Hamming index; [Detector] joins them
// on the detector shell of package internal/engine.
//
// Use it for near-exact copies at one 64-bit fingerprint per document: at
// the defaults (K = 3 over tf·idf-weighted words) it reports few pairs and
// almost only true ones; over spot signatures with unit weights at K = 20
// (the root registry's simhash-spots) it finds near-duplicate web pages
// but joins short wire copy into one cluster. An Add costs one analysis
// and signing of its text and one Hamming index probe; a document's
// memory is mostly its ID, its packed distinct terms and the online
// table. Quality was measured on the SpotSigs Gold Set dev pages, memory
// on Reuters-21578: docs/simhash.md in the repository has the figures with
// the commands that regenerate them (go run ./examples/evaluate -detector
// simhash), docs/notes/simhash.md the history.
//
// # Guarantees
//
// Both false positives and false negatives with respect to the similarity
// SimHash estimates (the angle between weighted feature vectors): documents
// whose fingerprints differ in more than K bits are missed, and unrelated
// documents can fall within K bits. The [Index] itself is exact: it returns
// precisely the stored fingerprints within distance K, never fewer, for
// every K from 0 to 64. Exact duplicates are always reported, both ways (see
// [Detector] for the online IDF case). A document with no features has no
// fingerprint and matches nothing, so empty documents do not all collide on
// fingerprint 0.
//
// # Complexity
//
// Signing a text of n tokens with u unique features costs O(n) analysis,
// O(u·64) accumulation and O(u·SkipTop) to find the dropped features, with
// no allocation in the steady state. Add and Containers are one
// [Index.Query]: O(t·(log N + N/2^p)) for N stored fingerprints and t tables
// of p-bit keys (default K = 3: 4 tables of 16 bits), plus the matches
// returned.
//
// # Exact copies and floods
//
// Documents with the same terms in the same order (after case folding,
// stopword removal and stemming: equal 128-bit content digests) and the
// same fingerprint are exact copies as the [Detector] reads them: every
// later answer treats them alike. They share one entry of the [Index] (and
// of the digest index, when the table is online); the others are kept in a
// heap by ID. A further copy costs one heap insertion, O(log c) for c
// copies, and grows no table of the index. Add, Containers and Query
// return at most Config.MaxResults matches (detector.DefaultMaxResults,
// 100, by default), the strongest by detector.SortMatches (nearest first,
// ties by smallest ID), and read only the members of each group that can
// make that cut: in a flood of N identical copies each Add costs the same
// whatever N, instead of returning (and the caller storing) every earlier
// copy. [Detector.Copies] lists every copy of a document, uncapped. With an
// online table, copies added while the table weighs their terms
// differently may get different fingerprints: each distinct fingerprint is
// a group of its own, and Copies lists them all (in a flood the weights
// settle, and the groups are few).
//
// # Query
//
// [Detector.Query] returns what Add would return for a document at that
// moment without indexing it or counting it in the online table: it weighs
// the document's terms as the table would once it were counted. Queries
// run in parallel with each other and with Adds, and take no turn.
//
// # Snapshots
//
// [Detector.WriteTo] and [Detector.ReadFrom] save and load the live
// documents (docs/snapshot.md in the repository has the framing). A
// snapshot stores, per group of exact copies, the fingerprint, the content
// digest and the member IDs, and the IDs of the documents without terms;
// for a Detector from [New] that keeps its own online table, also each
// group's distinct terms, which ReadFrom counts once per member to rebuild
// the table exactly (the same document frequencies, so the same weights
// and fingerprints for every later Add). The index and the digest lists
// are rebuilt; no text is kept or analysed. The fingerprints are stored
// because with an online table they depend on the table as it was when
// each document came. A caller's table ([NewWithIDF]) is not stored: the
// snapshot holds its fingerprint (textproc's IDF.Fingerprint), and ReadFrom
// requires a Detector built with a table of the same content, the same
// Config and the same constructor. The format is canonical: a loaded
// snapshot writes back byte for byte.
//
// # Memory
//
// Memory follows the live documents, not everything ever added:
//
//   - The index holds 12 bytes per group of exact copies and table (48
//     for K = 3); the engine adds 64 bytes per group (its fingerprint,
//     digest and packed terms) and 4 bytes per document (8 with its own
//     online table: the document's handle there), the ID table, a digest
//     map entry per group when its IDF table is online, and a heap slot
//     and position-map entry per member of a group of two or more copies.
//   - The online table of [New] counts the live documents only: Remove
//     uncounts a document, and a term whose last live document goes leaves
//     the table. Each live document keeps its distinct terms, packed (their
//     bytes plus one per term), to be uncounted; exact copies share one
//     packed string. When the counted term occurrences fall below a quarter
//     of their peak (and the peak is over 65,536), the table is rebuilt
//     from the live documents, so the space a huge removed document took is
//     given back.
//   - Each [Signer] (the Detector keeps at most 4·GOMAXPROCS idle ones)
//     interns at most max(65,536, 2 × recurring terms) terms and analyses at
//     most 16 times that many tokens before it starts a fresh vocabulary
//     (see [Signer]); buffers grown by one huge document are let go after
//     it.
//
// # Parameters
//
//   - 64-bit fingerprints and K = [DefaultK] (3): Manku et al. 2007 §3
//     (Varol 2012 §4.1.4 reports pairs at distance < 3, i.e. K = 2).
//   - Features: words weighted by tf·idf ([WeightTFIDF]; Varol 2012
//     §4.1.4 and Table 4.2 weigh each unique word by its idf,
//     [WeightIDF]), the [DefaultSkipTop] (2) highest-idf words dropped, as
//     there.
//   - Ties: V_i = 0 gives bit 0, as in Table 4.2; equal idf among the
//     dropped features is broken by ascending feature hash.
//   - Index: K+1 blocks (Manku's 4-table design for K = 3) while blocks are
//     at least 5 bits wide, one scanned table beyond (see [NewIndex]).
//   - Preprocessing: stopwords removed and first-5 stemming (Varol 2012
//     §2.1, §5.1).
//   - Feature hash: seeded 64-bit xxh3 (Varol 2012 used SHA1; only the bit
//     pattern's uniformity matters, and xxh3 is faster).
//   - [FeatureSpots] chain length [DefaultSpotN] (1): the SpotSigs release
//     configuration. On pages that keep their navigation and boilerplate
//     (the SpotSigs Gold Set) spot features (unit or tf weights) are what
//     makes a 64-bit fingerprint separate stories rather than site
//     templates; such near-duplicates lie at distances well above 3 bits.
//
// # Defaults
//
// The content filter ([DefaultContent]) was chosen by one procedure over
// news pages with their boilerplate, graded reuse, clean wire copy and
// Turkish news; the Hamming distance K and the features were kept: a 64-bit
// fingerprint has no notion of how much evidence two texts share, and every
// setting that finds the Gold Set's near-duplicate pages (spot-signature
// features at a large K) also joins hundreds of unrelated short wire notices
// into one cluster. At the defaults it finds near-exact copies, with high
// precision and low recall on pages.
//
// Measured figures (quality by K and configuration, speed, memory) are in
// docs/simhash.md in the repository, with the commands that regenerate
// them.
//
// # Concurrency
//
// A [Detector] is safe for concurrent use by multiple goroutines. What an
// Add runs under which lock:
//
//   - no lock: the checks that need no analysis (under a read lock),
//     the analysis (tokens, distinct terms, content digest), and signing
//     (weights, features, fingerprint);
//   - with the Detector's own online table, the read lock before the turn:
//     the packed terms of a live copy (or a new packing), and the table's
//     cells of the terms new to the Add's Signer;
//   - then a turn (a lock of the Adds and Removes only): the document is
//     checked again and counted, which gives the document frequencies of
//     its terms, one increment per term; weighing and signing follow,
//     outside every lock;
//   - the Detector's lock, exclusive, in turn order: the insert and the
//     Index query.
//
// Every result is that of the Adds run one by one in the order they took
// their turn (or, with a caller's table, the lock). Containers, Copies,
// Fingerprint, Len, Query and WriteTo take the read lock only, never the
// turn. A
// [Signer] is not safe for concurrent use; use one per goroutine. An
// [Index] allows concurrent Queries but needs exclusive access for Add and
// Remove.
//
// # Errors
//
// Constructors return errors wrapping detector.ErrInvalidConfig that name
// the field; Add, Query, Containers, Copies and Remove return errors
// wrapping the sentinels of package detector (ErrEmptyID, ErrTooLarge,
// ErrDuplicateID, ErrUnknownID, ErrClosed); ReadFrom returns errors
// wrapping ErrSnapshot (or ErrClosed) and leaves the Detector empty.
package simhash
