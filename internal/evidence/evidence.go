// Package evidence holds the two rules every threshold of the library is
// paired with, so that the detectors apply them alike:
//
//   - Enough: a pair must share a minimum amount of features (shingles,
//     signatures, sentence-tree score), or, when the smaller document is
//     short, most of its own. Short notices written from one template
//     (dividends, bond issues, daily balances) reach any low threshold
//     through the template alone; long texts at a low threshold share far
//     more.
//   - PartOf: a part does not contain its whole. A document C lying 90%
//     inside A does not contain A unless A also lies 90% inside C; at low
//     containment thresholds the first half of a text would otherwise
//     contain the whole text.
package evidence

// NearCopyShare is the share of a short document's features another must
// share with it when the document has fewer than least/NearCopyShare
// ([Enough]).
const NearCopyShare = 0.8

// PartShare is the share of C inside A from which C counts as a part of A.
const PartShare = 0.9

// Enough reports whether shared features are evidence enough of copying
// between two documents the smaller of which has small features: at least
// least of them, or NearCopyShare of the smaller's when that is below
// least/NearCopyShare. Sums computed in another order (another arrival order)
// may differ in their last bits, hence the tolerance.
func Enough(shared, small, least float64) bool {
	need := least
	if s := NearCopyShare * small; s < need {
		need = s
	}
	return shared >= need-1e-9
}

// PartOf reports whether a document C of c features that shares m with a
// document A of a features is a part of A: at least PartShare of C inside
// A while A is not PartShare inside C.
func PartOf(m, c, a float64) bool {
	return m >= PartShare*c && m < PartShare*a
}
