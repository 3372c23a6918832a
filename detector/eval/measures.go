package eval

import (
	"cmp"
	"maps"
	"math"
	"slices"
)

// MissRate returns M = c/(a+c) (Uyar 2009 §6.1, Table 6.1: a
// duplicates retrieved, c duplicates not retrieved).
func (c Counts) MissRate() float64 { return ratio(c.FN, c.TP+c.FN, 0) }

// FalseAlarmRate returns F = b/(b+d) (Uyar 2009 §6.1: b non-duplicates
// retrieved, d non-duplicates not retrieved). It needs TN.
func (c Counts) FalseAlarmRate() float64 { return ratio(c.FP, c.FP+c.TN, 0) }

// DefaultPDuplicate is the prior of a duplicate of Uyar 2009 §6.1
// ("P(duplicate) = 0.07 (7%) is used in the study").
const DefaultPDuplicate = 0.07

// CDup returns the normalised duplicate-detection cost of Uyar 2009 §6.1,
// adapted from the TDT cost function with cost_fa = cost_m = 1:
//
//	C_dup = (cost_fa·F·(1−P(dup)) + cost_m·M·P(dup)) / min(cost_m·P(dup), cost_fa·(1−P(dup)))
//
// which for P(dup) = 0.07 is 13.29·F + M. Lower is better.
func CDup(falseAlarm, miss, pDuplicate float64) float64 {
	return (falseAlarm*(1-pDuplicate) + miss*pDuplicate) / min(pDuplicate, 1-pDuplicate)
}

// MCC returns the Matthews correlation coefficient (Alonso, Fetterly and
// Manasse 2013, "Duplicate news story detection revisited", MSR-TR-2013-60,
// §4.7):
//
//	MCC = (TP·TN − FP·FN) / sqrt((TP+FP)(TP+FN)(TN+FP)(TN+FN))
//
// in [−1, 1]; 0 when a marginal is empty. It needs TN.
func (c Counts) MCC() float64 {
	tp, tn, fp, fn := float64(c.TP), float64(c.TN), float64(c.FP), float64(c.FN)
	den := math.Sqrt((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn))
	if den == 0 {
		return 0
	}
	return (tp*tn - fp*fn) / den
}

// WithNegatives returns c with TN set from the number of candidate pairs n:
// TN = n − TP − FP − FN. For a collection of N documents, n = N(N−1)/2.
func (c Counts) WithNegatives(n int) Counts {
	c.TN = max(n-c.TP-c.FP-c.FN, 0)
	return c
}

// Kappa returns Cohen's κ for two annotators on a binary decision (Varol
// 2012, "CoDet: a new algorithm for containment and near duplicate detection
// in text corpora", M.S. thesis, Bilkent, §2.1.4, Eq. 2.3):
// κ = (P(a) − P(c)) / (1 − P(c)), from the contingency
// counts yy (both yes), yn (first yes, second no), ny and nn.
func Kappa(yy, yn, ny, nn int) float64 {
	n := float64(yy + yn + ny + nn)
	if n == 0 {
		return 0
	}
	pa := float64(yy+nn) / n
	firstYes, secondYes := float64(yy+yn)/n, float64(yy+ny)/n
	pc := firstYes*secondYes + (1-firstYes)*(1-secondYes)
	if pc == 1 {
		return 1
	}
	return (pa - pc) / (1 - pc)
}

// Pool returns the union of the pairs nominated by several runs, sorted:
// the pooling of Varol 2012 §4.2, where permissive runs of several detectors
// nominate candidate pairs for human judgement.
func Pool(runs ...map[Pair]float64) []Pair {
	seen := map[Pair]bool{}
	for _, r := range runs {
		for p := range r {
			seen[p] = true
		}
	}
	return slices.SortedFunc(maps.Keys(seen), func(a, b Pair) int {
		return cmp.Or(cmp.Compare(a.A, b.A), cmp.Compare(a.B, b.B))
	})
}
