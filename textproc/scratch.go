package textproc

// Scratch space that outlives a call is bounded: a buffer that one huge
// document grew is released instead of kept for the next, so an outlier
// costs neither lasting memory nor lasting time (clearing or scanning a
// buffer sized by the outlier on every later call).
const (
	// maxScratchBytes is the largest byte buffer kept between calls.
	maxScratchBytes = 1 << 20
	// maxScratchSpans is the largest Span buffer kept between calls.
	maxScratchSpans = maxScratchBytes / 16
	// maxSurface bounds the Analyzer's cache of surface forms: news
	// vocabularies have a few tens of thousands of them.
	maxSurface = 1 << 16
)

// release returns s emptied, or nil when its capacity exceeds limit elements.
func release[S ~[]E, E any](s S, limit int) S {
	if cap(s) > limit {
		return nil
	}
	return s[:0]
}
