// Package shingle implements full fingerprinting and DSC (Broder, Glassman,
// Manasse, Zweig, WWW6 1997, as adapted to containment by Varol 2012, "CoDet:
// a new algorithm for containment and near duplicate detection in text
// corpora", M.S. thesis, Bilkent, §4.1.1-4.1.2) and SpotSigs (Theobald,
// Siddharth, Paepcke, SIGIR 2008, as described by Alonso, Fetterly, Manasse
// 2013, "Duplicate news story detection revisited", MSR-TR-2013-60, §3-4):
// three word-shingle detectors over one inverted index of integer posting
// lists.
//
// One [Detector] type runs the algorithm its [Config.Method] names:
//
//   - [FullFingerprint] (the zero Method): every word 4-gram is hashed, and
//     C ⊇ A when C holds at least Threshold of A's shingles, with
//     MinOverlap shared shingles of evidence (the thesis's rule, "if
//     document d_C contains 60% of d_A's hash values, then d_C ⊇ d_A",
//     Varol 2012 §4.1.2, with 0.25 and 30 as defaults, see Defaults).
//     Asymmetric; the score is |S(A) ∩ S(C)| / |S(A)|. Varol 2012
//     found it the most accurate of its detectors (Table 5.2, F1 0.85) and
//     quadratic; here it is exact and as fast as a prefix filter allows.
//   - [DSC]: the same containment rule on a sample of the shingles, chosen by
//     [Config.Sampling]: Broder's MOD_m (the default), MIN_s, or every third
//     shingle by position (Varol 2012's "three overlapping substrings",
//     read as 4-word shingles taken with stride 3). [Config.SuperShingle]
//     turns on DSC-SS candidate generation. Asymmetric.
//   - [SpotSigs]: each document is the multiset of its spot signatures: for
//     every antecedent word ("is", "the", "said", "was"), a chain of the
//     next ChainLength non-stopwords SpotDistance words apart. Signatures
//     outside a band of normalised signature idf are dropped, and two
//     documents are near-duplicates when the multiset Jaccard similarity of
//     what remains is at least τ, or when their texts are the same word for
//     word. Symmetric; the score is the Jaccard similarity (1 for exact
//     duplicates).
//
// One type with a Method field, rather than three types, keeps the house
// rule of one Detector, one Config and one New per package
// while the three share their text pipeline, shingle hashing, posting
// lists, ID bookkeeping and Remove; and one Config of plain fields lets a
// generic tool set any of them by name. Fields that do not apply to the
// chosen Method are ignored.
//
// The per-document part is available without an index: [Extract] returns a
// document's [Features], and [Containment] and [Jaccard] compare two.
//
// Use full fingerprinting for exact containment (a text inside a longer
// one) where an index of every shingle fits in memory, DSC for a cheaper,
// sampled estimate of the same over long documents, and SpotSigs for web
// pages whose boilerplate would fool word shingles. An Add costs the
// analysis of its text plus the postings of its rarest shingles (or its
// signatures) and a check per candidate (see Complexity); memory is one
// posting per feature of each group of exact copies. Quality was measured
// on the Gold Set development pairs and Clough-Stevenson, against the
// reference Java code of SpotSigs too, speed and memory on Reuters-21578
// and a synthetic stream: docs/shingle.md in the repository gives every
// figure with the command that regenerates it (quality: go run
// ./examples/evaluate -detector ffp, dsc or spotsigs), and
// docs/notes/shingle.md the figures this documentation used to carry.
//
// # Guarantees
//
// Full fingerprinting is exact: it reports precisely the pairs whose
// shingle containment reaches Threshold (checked against an exhaustive
// reference, TestFFPDifferential). DSC estimates the same ratio from
// samples, with false positives and false negatives: MOD_m and stride
// samples are compared as sets, MIN_s sketches on the part of A's sketch
// below the top of C's, where membership in C's sketch equals membership
// in C. DSC-SS adds false negatives: documents that share no super-shingle
// are never compared. Stride sampling is positional, so a contained text
// that starts at a different word offset is missed (TestStrideIsPositional);
// it is an option for fidelity to Varol 2012, not a default.
//
// SpotSigs is exact with respect to its filtered multisets: the inverted
// index search with early termination returns exactly the pairs, and
// scores, of an exhaustive multiset-Jaccard comparison at the same τ
// (TestSpotPruningNeverDrops). It corrects two bounds of the reference
// release (the authors' Java code): its pairwise exit (max−D)/max < τ, which
// rejects pairs with J ≥ τ, and its posting-list break δ + |A| − |B| >
// (1−τ)|A|, which skips them (TestSpotReleaseBreakBug). The idf band
// depends on the whole collection; the index keeps every signature's place
// against it under the live document frequencies, updated by each Add and
// Remove, so Add and Containers both answer under the live statistics:
// Add's answer is what Containers returns right after it, and the relation
// is symmetric (for a collection added and then queried, as
// eval.Relations does, this is the release's batch algorithm). A document
// the band's upper edge would leave with fewer than MinSignatures
// signatures (a story copied more often than N^(1−MinIDF) times, whose own
// signatures all become "too common") keeps its too-common signatures, so
// near-copies of a flooded story keep finding each other.
//
// # Exact copies, floods and the result cap
//
// Documents whose features are equal (for full fingerprinting the shingle
// set, for DSC the sample and the number of shingles it was drawn from,
// for SpotSigs the token sequence, and so the signature multiset) are
// exact copies as the Method reads them: they share one group, and the
// index (posting lists, super-shingles, SpotSigs' signature table) holds
// the group once. A further copy joins its group in O(log c) for c copies:
// no posting list grows and it is compared with nothing. SpotSigs' idf
// statistics still count every copy, as they count any document (N and
// each of the copy's signatures' document frequencies grow by one, O(n)
// for n signatures, plus any band-edge crossing, which visits groups,
// not copies). [Detector.Copies] lists a document's copies.
//
// Add, Containers and Query return at most [Config].MaxResults matches
// (detector.DefaultMaxResults unless set), the first by
// [detector.SortMatches]: highest score, then smallest ID. A group's
// members are a heap by ID, and only the members that can make the cut
// are read, so an Add in a flood of N identical copies costs the same for
// every N: O(n) for its signatures or shingles plus O(M log M) for the M =
// MaxResults matches it returns. Copies is not capped.
//
// # Query
//
// [Detector.Query] returns what Add would return for a document at that
// moment, without indexing it or changing anything a later call observes.
// For SpotSigs the answer depends on the idf band the Add would move (N
// and the document frequencies of the text's signatures one higher): the
// query works out the places and masses that change in its own scratch,
// at the cost of an Add, and leaves the index as it was. Queries share the
// read lock with other searches.
//
// # Snapshots
//
// [Detector.WriteTo] and [Detector.ReadFrom] save and load the live
// documents (the layout is in snapshot.go's source; the framing in
// docs/snapshot.md in the repository). Stored: each group of exact copies
// once, with its members' IDs and its features: the shingle hashes or DSC
// sample and the number of shingles it was drawn from, or SpotSigs' token
// digest and raw signature multiset (hashes and multiplicities); and the
// IDs of documents without words. Rebuilt on load: posting lists,
// DSC-SS super-shingles, and all of SpotSigs' idf statistics, which are a
// pure function of the live multisets and the number of copies of each
// (document frequencies, N, every signature's place against the band and
// every document's masses), so a loaded detector answers every later call
// exactly as the original would. No text is stored, and the package has
// no caller-owned table to fingerprint. The header carries the effective
// Config, which must equal the loading detector's.
//
// # Complexity
//
// Let n be a text's shingles (or signatures) and N the live documents.
// Full fingerprinting's Add and Containers cost O(n log n) to order the
// text's shingles by posting length, plus the postings of its n − ⌈θn⌉ + 1
// rarest shingles (the prefix filter: a container shares at least ⌈θn⌉
// shingles, so at least one of any n − ⌈θn⌉ + 1), plus an intersection per
// candidate that stops once the unexamined shingles cannot reach ⌈θn⌉.
// Candidate counting uses a stamped array, not a map. Without candidates
// the cost does not depend on N except through memory latency; every
// true containment costs O(n + |C|). DSC costs the same on its sample (1/m
// of the shingles). SpotSigs visits signatures by ascending posting length
// and stops when the mass visited exceeds (1−τ)|A|; documents outside
// [τ|A|, |A|/τ] are skipped. An Add or Remove moves the document
// frequencies of its own signatures and the band's edges by at most one
// step each: its cost is O(n) plus, for each signature that crosses an
// edge, the groups holding it (about N^0.2 at the lower edge and
// N^(1−MinIDF) at the upper one, rarely); no step costs O(total
// signatures). A flood of k near-copies of one story that are not exact
// copies costs O(k·n) per Add to score them (exact copies cost O(1) each,
// see below); the answer then keeps MaxResults of them. Memory is one sorted
// []uint64 (FFP, DSC) or []uint32 pair (SpotSigs) per group of exact
// copies, one posting entry per feature of a group, a few words per
// document for its ID and group, and one 12-byte table slot per distinct
// live feature in a table at most 3/4 full; a feature held by one
// group stores it in its slot (FFP, DSC) or posting slot (SpotSigs). A
// removed document's features leave the tables, which halve below an
// eighth full (the posting lists are renumbered below a quarter of their
// peak), and text analysis keeps no vocabulary, so memory follows the
// live documents.
//
// # Parameters
//
//   - Shingle 4 words ([DefaultShingle]): Varol 2012 §4.1.1-4.1.2.
//     Containment 0.25 ([DefaultContainment]) with evidence of 30 shared
//     shingles, 10 sampled ones for DSC ([DefaultMinOverlap],
//     [DefaultDSCMinOverlap]), where the thesis uses 0.6: see "Defaults"
//     below. The text pipeline is the thesis's (§5.1: stopwords removed,
//     first-5 stemming);
//     [Config.KeepStopwords] with [Config.Stemmer] textproc.StemNone turns
//     both off, which scores better on English news (docs/shingle.md).
//     The zero Language is neutral: no stopwords to remove.
//   - DSC modulus m = 4 ([DefaultModulus]; Broder used 25 on web pages,
//     Uyar 2009 Fig. 2.2), MIN_s size 64, stride 3 (the thesis's wording).
//   - SpotSigs: antecedents is, the, said, was ([DefaultAntecedents]: the
//     Gold Set's best set, Alonso et al. 2013 §4.8 and Table 5), chain length
//     c = 3 and spot distance d = 2 (the paper's best setting, Alonso et al.
//     2013 §4.4), at least 4 signatures and the idf band [0.2, 0.8] (the
//     release's spotsigs.config), τ = 0.1 (chosen on goldset-dev; the
//     paper's τ is not available and the release's 0.85 finds few of the
//     pairs). The stopwords skipped in chains are textproc's list for the
//     Language, or the antecedents for a language without one.
//     [Config.ReleaseChains] reproduces the release's chain walk.
//
// # Defaults
//
// Every default was chosen by one procedure over news pages with their
// boilerplate (Gold Set dev), graded reuse (Clough-Stevenson), clean wire
// copy (Reuters-21578) and Turkish news (TTC-3600): the best Gold Set pair
// F1 among the settings that put no more than 20 different Reuters stories
// in one cluster, miss no identical TTC-3600 pair and, for containment,
// report no unrelated Clough-Stevenson answer beyond 5% (go run
// ./examples/defaults; the README says how). Every Method reads the main
// content ([DefaultContent]) and needs evidence beyond its threshold
// ([Config].MinOverlap). The figures each default was chosen on are in
// docs/shingle.md.
//
// # Concurrency
//
// A [Detector] is safe for concurrent use by multiple goroutines; it is
// the detector shell of package internal/engine around this package's
// index. Add checks the document (closed, ID, size) before any work and
// analyses the text without holding the index's lock; SpotSigs then looks
// up the IDs of the signatures the index already holds under the read
// lock. The insertion and the search for the answer run under the
// exclusive lock, so an Add's answer is the one a single goroutine making
// the same calls in the order of those commits would get. Containers,
// Copies, Query and WriteTo share the read lock; Remove and Close hold it
// exclusively. Of concurrent Adds of one new ID exactly one succeeds and
// the others return detector.ErrDuplicateID. [Extract], [Containment] and
// [Jaccard] are pure functions.
package shingle
