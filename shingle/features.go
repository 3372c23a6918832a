package shingle

import "fmt"

// Features is the per-document part of a detector: what a worker of a
// data-parallel engine computes for one text without any index.
// Compare two with [Containment] or [Jaccard].
type Features struct {
	// Method and Sampling are the Config fields that decide how features
	// compare; features made under different Configs are not comparable.
	Method   Method
	Sampling Sampling
	// Hashes are the document's features, sorted ascending and distinct:
	// every shingle hash (FullFingerprint), the sample (DSC), or the spot
	// signatures (SpotSigs).
	Hashes []uint64
	// Counts holds the multiplicity of each spot signature (SpotSigs only).
	Counts []uint32
	// Shingles is the number of distinct shingles DSC's sample was drawn
	// from (len(Hashes) for FullFingerprint).
	Shingles int
	// Super holds DSC-SS super-shingles when Config.SuperShingle > 0: two
	// documents are compared only if they share one.
	Super []uint64
}

// Extract returns the features of text under cfg. It returns an error only
// for an invalid cfg (see [New]). SpotSigs features are the raw signature
// multiset: the idf band filter needs collection statistics, which the
// caller applies (the Detector keeps them).
//
// Extract builds a text pipeline on every call; a Detector reuses its own.
func Extract(cfg Config, text string) (Features, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return Features{}, err
	}
	e, err := newExtractor(cfg)
	if err != nil {
		return Features{}, err
	}
	f := e.read(cfg, text)
	out := Features{Method: cfg.Method, Hashes: f.set, Counts: f.cnt, Shingles: f.size, Super: f.super}
	switch cfg.Method {
	case DSC:
		out.Sampling = cfg.Sampling
	case SpotSigs:
		out.Shingles = len(f.set)
	}
	return out, nil
}

// Containment returns how much of a the document c contains: the fraction
// of a's shingles (or DSC sample) found in c's, |S(A) ∩ S(C)| / |S(A)|
// (Varol 2012 §4.1.1-4.1.2), 0 when a has none. For SampleMin sketches it
// is the bottom-s estimate the Detector uses. Time is O(|a| + |c|).
//
// Containment panics if a and c come from different Methods or Samplings,
// or are SpotSigs features: that is a programming error.
func Containment(a, c Features) float64 {
	if a.Method != c.Method || a.Sampling != c.Sampling || a.Method == SpotSigs {
		panic(fmt.Sprintf("shingle: Containment of %v and %v features", a.Method, c.Method))
	}
	if len(a.Hashes) == 0 {
		return 0
	}
	if a.Method == DSC && a.Sampling == SampleMin {
		return minContainment(a.Hashes, c.Hashes, c.Shingles)
	}
	return float64(intersect(a.Hashes, c.Hashes, 0)) / float64(len(a.Hashes))
}

// Jaccard returns the multiset Jaccard similarity Σmin/Σmax of two SpotSigs
// feature multisets (Theobald et al. 2008), 0 when both are empty. The
// Detector computes it after its idf band filter; this function compares
// whatever multisets it is given. Time is O(|a| + |b|).
//
// Jaccard panics unless both features come from SpotSigs.
func Jaccard(a, b Features) float64 {
	if a.Method != SpotSigs || b.Method != SpotSigs {
		panic(fmt.Sprintf("shingle: Jaccard of %v and %v features", a.Method, b.Method))
	}
	smin, smax := 0, 0
	i, j := 0, 0
	for i < len(a.Hashes) || j < len(b.Hashes) {
		switch {
		case j >= len(b.Hashes) || i < len(a.Hashes) && a.Hashes[i] < b.Hashes[j]:
			smax += int(a.Counts[i])
			i++
		case i >= len(a.Hashes) || b.Hashes[j] < a.Hashes[i]:
			smax += int(b.Counts[j])
			j++
		default:
			smin += int(min(a.Counts[i], b.Counts[j]))
			smax += int(max(a.Counts[i], b.Counts[j]))
			i++
			j++
		}
	}
	if smax == 0 {
		return 0
	}
	return float64(smin) / float64(smax)
}
