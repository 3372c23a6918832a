// Package tweezer implements Tweezer, near-duplicate news detection with
// named-entity-centred shingles (Uyar 2009, "Near-duplicate news detection
// using named entities", M.S. thesis, Bilkent, ch. 4, Figs. 4.1, 4.2).
//
// A document's signature ([Signer.Sign]) is built from its named entities,
// found by package ner (TuNER for Turkish, the same engine with English
// lists for English):
//
//  1. For every maximal entity, a pNEs shingle: the p words before it, its
//     canonical form (apostrophe suffixes stripped: "Bursa'nın Orhangazi
//     İlçesi'nde" → "Bursa Orhangazi İlçesi"), the s words after it, joined
//     by single spaces; context words are kept as written, punctuation is
//     dropped, windows are cut at the ends of the text (§4.1, Fig. 4.1).
//  2. The shingles sorted in ascending order, duplicates removed (Fig. 4.2
//     steps 2-3).
//  3. A 128-bit xxh3 digest of the list, each shingle length-prefixed
//     (hashtab.AppendField), in place of the SHA1 of step 4.
//  4. A document without entities uses its first 20 and last 20 words, or
//     all of them under 40 words, as its one shingle (§4.2).
//
// In [Exact] mode, as published, documents with equal digests are
// near-duplicates (Fig. 4.2 step 6) and [Detector.Cluster] returns the
// equal-digest group. [Jaccard] and [Overlap] mode, an extension, treat the
// shingles as features and report documents whose shingle sets are similar
// enough, through an inverted index.
//
// Only the body text is signed: the thesis leaves out title and description
// (Appendix D); callers pass the body as Doc.Text.
//
// # Guarantees
//
// Exact duplicates always have equal signatures and are always reported, in
// every mode. Exact mode has few false positives but many false negatives:
// any change inside a window (a number, a word) changes the digest (the
// thesis's Fig. A.10 pair), and pages that carry different navigation text
// around the same story never match. The set modes trade a few false
// positives for far fewer false negatives.
//
// Named entities are found by their capitals, so a copy of a text written
// all in lower case or all in capitals has none (or others). Such a
// caseless text ([Signature].Caseless) is signed by its fallback words
// folded to lower case, and it matches every document whose folded
// fallback words are the same ([Signature].Key, dotted and dotless i as one
// letter): a text and its lower-case and upper-case copies, made by Turkish
// or by language-blind rules, are reported together in every mode.
//
// Measured figures (Gold Set pairs by mode and threshold, TTC-3600
// duplicates and case copies, speed, memory), each with the command that
// regenerates it: docs/tweezer.md in the repository.
//
// # Complexity
//
// Sign is O(n) in the length of the text (named-entity recognition
// dominates) plus O(m log m) for m shingles. Add costs one Sign plus, in
// Exact mode, one hash-table probe (the thesis's O(d) for d documents
// overall); in the set modes, the total length of the posting lists of the
// document's shingles. Containers and Query cost the same without the
// Sign and with it. Memory is two digests per distinct signature, plus
// one 64-bit hash per distinct shingle and posting entry in the set modes,
// and 4 bytes per document beside its ID (a further copy of a signature
// adds a heap entry and a position map entry). Remove gives the memory of a
// document back: its posting lists are deleted when it was their last
// document, and an index map that has fallen to a quarter of the most keys
// it held is rebuilt at its size, so memory follows the live documents,
// not the history of the stream. The heap a document keeps is its
// signature, a few shingles around each distinct named entity (or 40
// fallback words): under 0.01 byte per byte of a multi-megabyte text.
// Signing allocates about 13 bytes per byte of text, given back when Add
// returns. Named-entity recognition takes time linear in the text (package
// ner); keep Config.MaxTextBytes to the size of the texts a service
// expects.
//
// # Floods of copies
//
// Documents with equal signatures (exact copies as Tweezer reads them:
// the same shingles, Key and case) share one entry of the index, a group
// whose members are kept as a heap ordered by ID. A further copy of a live
// document costs its Sign plus O(log c) for c copies: no posting list
// grows. Add, Containers and Query return at most Config.MaxResults
// matches (detector.DefaultMaxResults by default), the strongest by
// detector.SortMatches, and read only the members of each related group
// that can make that cut, O(k log k) for k = MaxResults, so a flood of
// thousands of identical copies costs the same per Add as the first copy.
// [Detector.Copies] lists a document's copies, uncapped; removing any copy
// (the group's first included) leaves the others indexed as they were.
// Below the cap, answers are those of a detector without groups.
//
// # Persistence and lookups
//
// [Detector.WriteTo] writes a snapshot of the live documents: their IDs
// and what the index keeps of their signatures, grouped as in the index,
// not their texts; [Detector.ReadFrom] loads it into an empty Detector
// made with the same Config and rebuilds the index without signing
// anything (the format: docs/snapshot.md in the repository). Snapshots are
// canonical: writing a loaded snapshot gives the same bytes. With the
// detector.Journal of the Adds and Removes after it, a snapshot restores a
// Detector exactly. [Detector.Query] answers what Add would, without
// indexing the document.
//
// # Parameters
//
//   - [DefaultContext] p = s = 5: Uyar 2009 §4.1, Table 4.1.
//   - [DefaultFallbackWords] = 20: Uyar 2009 §4.2.
//   - Windows run across sentence ends unless Config.ClipSentences (the
//     thesis does not say, and its Fig. 4.1 fits both readings).
//   - Only maximal entities make shingles (Fig. 4.1 has none for the nested
//     "Bursa"); adjacent entities give overlapping shingles, all kept.
//   - [DefaultJaccardThreshold] = 0.02, [DefaultOverlapThreshold] = 0.06:
//     empirical, the best strict pair-level F1 on the development part of
//     the SpotSigs Gold Set (Theobald, Siddharth, Paepcke, SIGIR 2008).
//
// # Defaults
//
// The defaults were chosen by one procedure over news pages with their
// boilerplate (the Gold Set), graded reuse, clean wire copy
// (Reuters-21578) and Turkish news (go run ./examples/defaults; the README
// says how): the main content ([DefaultContent]), the [Overlap] mode at
// [DefaultOverlapThreshold] with [DefaultMinOverlap] = 2 shared shingles of
// evidence. The published [Exact] mode finds few of the Gold Set's pairs;
// Overlap without the evidence rule finds more, but joins Reuters
// money-market notices written from one template, which share their few
// entities and the words around them.
//
// # Concurrency
//
// A [Signer] is immutable and safe for concurrent use by multiple
// goroutines. A [Detector] is safe for concurrent use: Add refuses a closed
// detector, an empty ID, a text over the size limit and a duplicate ID
// before it reads the text, signs outside its lock, and indexes under a
// sync.RWMutex after checking the ID again, so that of several Adds of one
// new ID exactly one succeeds and the others return an error wrapping
// detector.ErrDuplicateID. Query signs outside the lock and reads under
// its read lock; WriteTo encodes under the read lock (a consistent
// snapshot) and writes after releasing it; ReadFrom decodes and builds
// the new index before it takes the lock to install it.
package tweezer
