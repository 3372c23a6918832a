package detector

import (
	"errors"
	"fmt"
	"sync"
)

// PairFunc decides whether the text container contains the text contained
// (for a symmetric measure: whether they are near-duplicates) and scores the
// relation. Detector packages export their pairwise verification in this
// shape so it can run without an index, for instance as the verification
// stage of a data-parallel pipeline.
type PairFunc func(container, contained string) (score float64, ok bool)

// Cascade returns a detector in which propose, a cheap detector, nominates
// candidates and an exact pairwise check confirms them. features computes a
// document's features once, when it is added (for a plain PairFunc on texts,
// pass [Identity]); verify decides whether the container contains the
// contained document from their features. Only confirmed candidates are
// reported, with verify's score. Verdicts are cached until a document is
// removed.
//
// The cascade finds no relation that propose misses: its recall is at most
// propose's, its precision that of verify on the candidates. It implements
// Remover when propose does.
//
// The detector is safe for concurrent use if propose is and features and
// verify are safe to call from several goroutines.
func Cascade[F any](propose Detector, features func(text string) F, verify func(container, contained F) (score float64, ok bool)) *CascadeDetector[F] {
	return &CascadeDetector[F]{propose: propose, features: features, verify: verify, feats: map[string]F{}, verdict: map[[2]string]verdict{}}
}

// Identity returns its argument: the features function of a Cascade whose
// verify is a [PairFunc] on texts.
func Identity(text string) string { return text }

// CascadeDetector is the detector Cascade returns.
type CascadeDetector[F any] struct {
	propose  Detector
	features func(string) F
	verify   func(container, contained F) (float64, bool)

	mu      sync.Mutex
	feats   map[string]F
	verdict map[[2]string]verdict // (container, contained) → verdict
}

type verdict struct {
	score float64
	ok    bool
}

var _ Detector = (*CascadeDetector[string])(nil)
var _ Remover = (*CascadeDetector[string])(nil)

// confirm keeps the candidates verify accepts as containers of id.
func (c *CascadeDetector[F]) confirm(id string, cands []Match) []Match {
	out := cands[:0:0]
	for _, m := range cands {
		key := [2]string{m.ID, id}
		c.mu.Lock()
		v, cached := c.verdict[key]
		contained, okA := c.feats[id]
		container, okC := c.feats[m.ID]
		c.mu.Unlock()
		if !okA || !okC {
			continue // removed meanwhile
		}
		if !cached {
			v.score, v.ok = c.verify(container, contained)
			c.mu.Lock()
			_, liveA := c.feats[id]
			_, liveC := c.feats[m.ID]
			if liveA && liveC {
				c.verdict[key] = v
			}
			c.mu.Unlock()
		}
		if v.ok {
			out = append(out, Match{ID: m.ID, Score: v.score})
		}
	}
	SortMatches(out)
	return out
}

// Add implements Detector.
func (c *CascadeDetector[F]) Add(d Doc) ([]Match, error) {
	f := c.features(d.Text)
	// Store the features first: once propose has indexed d, a concurrent
	// Containers may nominate it and must find them.
	c.mu.Lock()
	_, exists := c.feats[d.ID]
	if !exists {
		c.feats[d.ID] = f
	}
	c.mu.Unlock()
	cands, err := c.propose.Add(d)
	if err != nil {
		if !exists {
			c.mu.Lock()
			delete(c.feats, d.ID)
			c.mu.Unlock()
		}
		return nil, err
	}
	return c.confirm(d.ID, cands), nil
}

// Containers implements Detector.
func (c *CascadeDetector[F]) Containers(id string) ([]Match, error) {
	cands, err := c.propose.Containers(id)
	if err != nil {
		return nil, err
	}
	return c.confirm(id, cands), nil
}

// Remove implements Remover; it fails with ErrInvalidConfig if propose
// cannot remove.
func (c *CascadeDetector[F]) Remove(id string) error {
	r, ok := c.propose.(Remover)
	if !ok {
		return fmt.Errorf("detector: Cascade: %T does not implement Remover: %w", c.propose, ErrInvalidConfig)
	}
	if err := r.Remove(id); err != nil {
		return err
	}
	c.mu.Lock()
	delete(c.feats, id)
	for k := range c.verdict {
		if k[0] == id || k[1] == id {
			delete(c.verdict, k)
		}
	}
	c.mu.Unlock()
	return nil
}

// Close implements Detector.
func (c *CascadeDetector[F]) Close() error {
	err := c.propose.Close()
	c.mu.Lock()
	c.feats, c.verdict = map[string]F{}, map[[2]string]verdict{}
	c.mu.Unlock()
	return err
}

// Vote returns a detector that feeds every document to each of ds and
// reports a relation when at least k of them report it, scored by the mean
// score of those that do. Vote(1, ds...) is their union and Vote(len(ds),
// ds...) their intersection. It panics if k is not in 1..len(ds).
//
// If one detector rejects a document the others accepted, Vote removes it
// from those (when they implement Remover) and returns the error. Vote is
// safe for concurrent use if each of ds is; a lock orders Adds so that all
// detectors see documents in the same order.
func Vote(k int, ds ...Detector) *VoteDetector {
	if k < 1 || k > len(ds) {
		panic(fmt.Sprintf("detector: Vote: k (%d) must be in 1..%d", k, len(ds)))
	}
	return &VoteDetector{k: k, ds: ds}
}

// VoteDetector is the detector Vote returns.
type VoteDetector struct {
	k  int
	ds []Detector
	mu sync.Mutex
}

var _ Detector = (*VoteDetector)(nil)
var _ Remover = (*VoteDetector)(nil)

func (v *VoteDetector) tally(results [][]Match) []Match {
	count := map[string]int{}
	sum := map[string]float64{}
	var order []string
	for _, ms := range results {
		for _, m := range ms {
			if count[m.ID] == 0 {
				order = append(order, m.ID)
			}
			count[m.ID]++
			sum[m.ID] += m.Score
		}
	}
	var out []Match
	for _, id := range order {
		if count[id] >= v.k {
			out = append(out, Match{ID: id, Score: sum[id] / float64(count[id])})
		}
	}
	SortMatches(out)
	return out
}

// Add implements Detector.
func (v *VoteDetector) Add(d Doc) ([]Match, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	results := make([][]Match, 0, len(v.ds))
	for i, det := range v.ds {
		ms, err := det.Add(d)
		if err != nil {
			for _, done := range v.ds[:i] {
				if r, ok := done.(Remover); ok {
					_ = r.Remove(d.ID)
				}
			}
			return nil, err
		}
		results = append(results, ms)
	}
	return v.tally(results), nil
}

// Containers implements Detector.
func (v *VoteDetector) Containers(id string) ([]Match, error) {
	results := make([][]Match, 0, len(v.ds))
	for _, det := range v.ds {
		ms, err := det.Containers(id)
		if err != nil {
			return nil, err
		}
		results = append(results, ms)
	}
	return v.tally(results), nil
}

// Remove implements Remover: it removes id from every detector and returns
// the first error.
func (v *VoteDetector) Remove(id string) error {
	v.mu.Lock()
	defer v.mu.Unlock()
	var errs []error
	for _, det := range v.ds {
		r, ok := det.(Remover)
		if !ok {
			errs = append(errs, fmt.Errorf("detector: Vote: %T does not implement Remover: %w", det, ErrInvalidConfig))
			continue
		}
		if err := r.Remove(id); err != nil {
			errs = append(errs, err)
		}
	}
	if len(errs) > 0 {
		return errs[0]
	}
	return nil
}

// Close implements Detector: it closes every detector.
func (v *VoteDetector) Close() error {
	var errs []error
	for _, det := range v.ds {
		errs = append(errs, det.Close())
	}
	return errors.Join(errs...)
}
