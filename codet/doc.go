// Package codet implements CoDet, sentence-based containment detection with
// the corpus tree (Varol, Can, Aykanat, Kaya, CIKM 2011, §3; Varol 2012
// M.S. thesis, ch. 3 and 5).
//
// Each sentence of a document is reduced to its terms (stopwords removed,
// first-5 stemming), sorted by idf, descending, and inserted word by word
// into a prefix tree shared by the whole stream, the corpus tree. When a
// new document reaches a node at depth k with label w, every earlier
// visitor gains idf(w)·k^DSP of containment similarity with it (Alg. 2-3),
// so that over a whole document
//
//	CS(d_C, d_A) = Σ_{s_i ∈ S_C} Σ_{s_j ∈ S_A} cs(s_i, s_j)                 (Eq. 3.1)
//	cs(s_i, s_j) = Σ_{k=1}^{len f(s_i,s_j)} k × idf(w_{f,k})                  (Eq. 3.2)
//
// with f the longest common word prefix of the sorted sentences, truncated
// at the depth threshold DT. d_C contains d_A when CS(d_C, d_A)/SCS(d_A) >
// ETL, SCS being the self-containment similarity (Eq. 3.3), and d_C is not
// itself a part of d_A: a long article that repeats a short one contains
// it, not the reverse. Both directions are decided when the newer
// document is inserted: [Detector.Add] returns the earlier documents that
// contain it, and those it contains see it in their [Detector.Containers].
// [detector.Match].Score is CS/SCS of the contained document, above ETL, 1 for an
// exact duplicate, and can exceed 1 (§3.1). [Detector.Matched] gives the
// sentences found, as byte offsets; [Sequences] and [Score] are the
// per-document and pairwise parts, pure functions callable without the
// index.
//
// Use it to find news articles inside longer ones (round-ups, updates,
// pages that quote a story) with sentence-level evidence, where a measure
// over whole documents misses a short text inside a long one. An Add of a
// text of L bytes with s sentences costs O(L + s·PSC·DT·NodeLimit) plus
// the output; memory is linear in the live documents. Quality was
// measured on the Gold Set development pairs, Clough-Stevenson and a
// containment set built from BBC and Reuters-21578 articles, speed and
// memory on Reuters-21578 and a synthetic stream: docs/codet.md in the
// repository gives every figure with the command that regenerates it,
// and docs/notes/codet.md the longer account this documentation used to
// carry (readings of the papers, bounds, arrival order, snapshots).
//
// # Reading of the papers
//
// The pseudo-code is fixed where it needs it: a new document never scores
// against itself; nodes deeper than DT are never created; a node visited
// n times by one document and m times by another adds its impact min(n, m)
// times in [ModeTree] (n·m, Eq. 3.1 over all sentence pairs, in
// [ModePairwise]); SCS uses the tree's own scoring, so a copy scores 1
// (up to floating-point rounding where it is scored, with [CollapseOff]).
// Fig. 3.1 is reproduced by TestFig31. Two departures from the thesis's
// defaults, each an option: terms are weighed by a frozen reference table
// of the language (English: Reuters-21578 and BBC News; Turkish:
// TTC-3600), as the thesis's experiments did (§5.1.3), else online
// ([IDFOnline]); and unless Config.BothDirections is set, C does not
// contain A when at least 0.9 of C's self-similarity is found in A but
// not 0.9 of A's in C (so the first two thirds of an article do not
// contain it). The thesis's setting is Config{IDF: IDFOnline,
// BothDirections: true} with an ETL of one's choice.
//
// # Guarantees and bounds
//
// CoDet is a heuristic, with false positives (sentences sharing their
// rarest words) and false negatives (a sentence edited among its DT rarest
// words). It is deterministic, and with frozen weights the relations among
// live documents do not depend on their arrival order except through
// removals, the samples of deactivated nodes and [CollapseNear]'s choice of
// representative (TestOrderIndependence). With [CollapseExact] (the
// default) and [CollapseNear] an exact duplicate of a live document is
// always reported, both ways, with Score 1, unless its content weighs
// nothing (every term at idf 0 in a caller's table, an empty one say:
// such a text matches nothing, though [Detector.Copies] lists its copies);
// a copy costs its analysis, a map lookup and the output, and adds nothing
// to the tree. [CollapseNear] also represents a near-duplicate (CS/SCS ≥
// CollapseThreshold both ways) by the live content it copies, with
// relations derived from it.
//
// Node deactivation (Alg. 2) bounds every visitor list by NodeLimit; a
// deactivated node keeps its NodeLimit most recent visitors as a sample
// that still relates near-duplicates, so the copies of a story keep
// finding each other. With frozen weights in [ModeTree], lists whose
// whole contribution cannot reach the least CS a relation needs are left
// unscanned, with answers identical to the last bit (TestSetAsideExact).
// Config.MaxResults caps the output of Add, Containers, Query and
// Nearest. A stream runs in a time window through [Detector.Remove],
// Config.Window or [Detector.Expire]; removal frees visitor entries,
// relations and unused nodes, and the node array and vocabulary are
// compacted when half dead, so memory stays flat over an endless
// windowed stream.
//
// [Detector.Query] returns what Add would return without storing
// anything; [Detector.Nearest] ranks live documents by CS(C, text)/
// SCS(text), the containment of the text in C; [Detector.WriteTo] and
// [Detector.ReadFrom] save and load the index, after which the detector
// answers exactly as the saved one would (format: docs/snapshot.md).
//
// # Parameters
//
//   - DT = [DefaultDepthThreshold] = 5: §5.2.2, Fig. 5.2.
//   - DSP = [DefaultDepthScorePower] = 1: Table 5.1, Eq. 3.2.
//   - PSC = [DefaultSuffixCount] = 1: §5.2.1 (PSC barely matters).
//   - First-5 stemming and stopword removal: §5.1.1-5.1.2.
//   - ETL = [DefaultETL], MinScore = [DefaultMinScore], NodeLimit =
//     [DefaultNodeLimit], CollapseThreshold = [DefaultCollapseThreshold]:
//     not stated in the papers; chosen as their doc comments say.
//
// # Concurrency
//
// A [Detector] is safe for concurrent use. With frozen weights, Add
// analyses its text and builds its sequences before it takes the
// exclusive lock, so concurrent Adds overlap for most of their work; the
// answers and snapshot bytes are those of sequential Adds in the order
// they took the lock (TestConcurrentAddsAreSequential).
package codet
