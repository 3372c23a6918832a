// Package detector defines the interface every neardup detector implements,
// the sentinel errors they return, and small types shared by all of them.
//
// # Containment and near-duplicates
//
// A document C contains a document A (written C ⊇ A) when a reader of C gains
// nothing from reading A as well: every piece of news in A is already in C
// (Varol 2012, ch. 1). Containment is asymmetric: a long article that quotes a
// short report in full contains it, but the report does not contain the
// article. Two documents are near-duplicates when each contains the other;
// near-duplicate is therefore the symmetric special case of containment.
//
// Detectors come in two kinds:
//
//   - Asymmetric (containment) detectors decide C ⊇ A without implying A ⊇ C:
//     codet (corpus tree), shingle's full fingerprinting and DSC, and
//     minhash in containment mode.
//   - Symmetric (near-duplicate) detectors report a relation that holds both
//     ways: imatch, simhash, tweezer, shingle's SpotSigs, minhash in Jaccard and
//     weighted modes, and mrcosine.
//
// For a symmetric detector, [Detector.Add] returns the near-duplicates of the
// new document and [Detector.Containers] the near-duplicates of a stored one.
//
// # The contract
//
// Every implementation honours these rules; package
// [github.com/seed-9ef9c1df/neardup/detector/detectortest] checks them:
//
//   - A document never contains itself; an exact duplicate is always reported,
//     both ways.
//   - Results are deterministic: the same documents added in the same order
//     give the same answers, ordered by descending score with ties broken by
//     ascending ID ([SortMatches]).
//   - Errors wrap the sentinels below and are tested with [errors.Is]. No
//     input makes a detector panic; invalid UTF-8 is repaired, never fatal.
//   - A document with no indexable terms is accepted and matches nothing.
//   - Detectors are safe for concurrent use by multiple goroutines. When
//     several goroutines Add the same new ID at once, exactly one succeeds
//     and is fully indexed; the others fail with [ErrDuplicateID].
//     The detectors of this module analyse and sign outside their locks
//     and hold the exclusive lock only to commit a document
//     (docs/concurrency.md in the repository).
//   - Detectors implement [Remover] so a stream can run in a bounded window.
//
// # Optional interfaces
//
// Beyond [Remover], a detector may implement [Querier] (look a document
// up without indexing it), [Persister] (snapshots: WriteTo and ReadFrom,
// or [WriteSnapshot] and [ReadSnapshot], with a [Journal] of the Adds and
// Removes since that names its snapshot and [ReplayContext] to apply it)
// and [CopyLister] (the exact copies it collapsed). Discover them with a
// type assertion.
//
// # Combinators
//
// [Cascade] puts a cheap detector in front of an exact pairwise check on
// per-document features; [Vote] reports what k of several detectors agree
// on; [NewWindow] keeps the last N documents of a detector, or those not
// before a caller-supplied position, and hands each evicted document's
// final containers to a hook. Each returns a detector that implements each
// optional interface ([Remover], [Querier], [Persister], [CopyLister])
// exactly when every detector it wraps does, so a type assertion tells the
// truth; the exceptions are stated on the constructors (a Window always
// removes, a Cascade persists only features it can encode and never lists
// copies). Every combinator has a Len method. Their constructors reject
// nil or repeated members with an error wrapping [ErrInvalidConfig], and
// their errors name the combinator ("detector: Cascade: ...", "detector:
// Vote: ...", "detector: Window: ...") before the member's own context.
// Measured figures and snapshot layouts: docs/detector.md in the
// repository.
package detector
