package dedup

import (
	"context"
	"slices"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
)

// Edge is an undirected edge of the pair graph, in the shuffle.
type Edge struct {
	U, V string
}

func init() {
	register.Combiner3[unionFind, Edge, []Label](&unionFindFn{})
	register.Function2x0(pairEdge)
	register.Function2x0(explodeLabels)
	register.Function3x0(bothWays)
	register.Function2x0(pairKV)
	register.DoFn4x0[context.Context, string, func(*string) bool, func(string, string)](&largeStarFn{})
	register.DoFn4x0[context.Context, string, func(*string) bool, func(string, string)](&smallStarFn{})
	register.DoFn4x0[context.Context, string, func(*string) bool, func(Label)](&starLabelFn{})
	register.Function3x0(smallerFirst)
	register.Emitter1[Edge]()
	register.Emitter1[Label]()
	register.Iter1[Edge]()
}

// Cluster metric names, in namespace [Namespace].
const (
	MetricStarChanges = "star_changes"     // edges a large-star or small-star round emitted that were not in its input
	MetricUnconverged = "star_unconverged" // nodes not yet in a star after the last round
)

// Clusters returns the connected components of the pair graph (a
// PCollection of [Pair]) as a PCollection of [Label], one per document that
// is in at least one pair, named by the smallest ID of its component.
//
// It runs union-find on one worker: a global combine whose accumulator is a
// union-find forest (union by smaller ID, path halving), so each bundle
// merges its edges before the shuffle and the last worker merges the
// forests. Memory on that worker is O(documents in pairs); beyond one
// worker's memory use [StarClusters].
func Clusters(s beam.Scope, pairs beam.PCollection) beam.PCollection {
	s = s.Scope("dedup.Clusters")
	edges := beam.ParDo(s, pairEdge, pairs)
	labels := beam.Combine(s, &unionFindFn{}, edges)
	return beam.ParDo(s, explodeLabels, labels)
}

func pairEdge(p Pair, emit func(Edge)) { emit(Edge{U: p.A, V: p.B}) }

func explodeLabels(ls []Label, emit func(Label)) {
	for _, l := range ls {
		emit(l)
	}
}

// unionFind is the combiner's accumulator: parent links, a root mapping
// to itself. The root of a component is its smallest ID.
type unionFind struct {
	Parent map[string]string
}

func (u *unionFind) find(x string) string {
	for {
		p, ok := u.Parent[x]
		if !ok || p == x {
			return x
		}
		gp := u.Parent[p]
		if gp != p {
			u.Parent[x] = gp // path halving
		}
		x = p
	}
}

func (u *unionFind) union(a, b string) {
	if u.Parent == nil {
		u.Parent = map[string]string{}
	}
	for _, x := range [2]string{a, b} {
		if _, ok := u.Parent[x]; !ok {
			u.Parent[x] = x
		}
	}
	ra, rb := u.find(a), u.find(b)
	switch {
	case ra < rb:
		u.Parent[rb] = ra
	case rb < ra:
		u.Parent[ra] = rb
	}
}

// unionFindFn is the union-find CombineFn of [Clusters].
type unionFindFn struct{}

func (unionFindFn) CreateAccumulator() unionFind {
	return unionFind{Parent: map[string]string{}}
}

func (unionFindFn) AddInput(u unionFind, e Edge) unionFind {
	u.union(e.U, e.V)
	return u
}

func (unionFindFn) MergeAccumulators(a, b unionFind) unionFind {
	if len(a.Parent) < len(b.Parent) {
		a, b = b, a
	}
	for x, p := range b.Parent {
		a.union(x, p)
	}
	return a
}

func (unionFindFn) ExtractOutput(u unionFind) []Label {
	out := make([]Label, 0, len(u.Parent))
	for x := range u.Parent {
		out = append(out, Label{ID: x, Cluster: u.find(x)})
	}
	slices.SortFunc(out, func(a, b Label) int {
		if a.ID < b.ID {
			return -1
		}
		if a.ID > b.ID {
			return 1
		}
		return 0
	})
	return out
}

// DefaultStarRounds is the number of (large-star, small-star) rounds of
// [StarClusters]: Kiveris et al. (SoCC 2014, §4) prove O(log² n) rounds and
// measured at most about a dozen on graphs of billions of edges (§6);
// synthetic and news near-duplicate graphs, whose components are small,
// converge in two or three.
const DefaultStarRounds = 6

// StarClusters returns the connected components of the pair graph as
// [Clusters] does, without holding the graph on one worker: rounds of the
// large-star and small-star operations of Kiveris, Lattanzi, Mirrokni,
// Rastogi and Vassilvitskii (Connected Components in MapReduce and Beyond,
// SoCC 2014, §3), each a GroupByKey over the edges. Node order is byte
// order of the IDs, so each component ends as a star around its smallest
// ID. rounds ≤ 0 means DefaultStarRounds.
//
// A Beam graph is fixed before it runs, so the rounds are unrolled. The
// last step counts, in MetricUnconverged, the nodes still not in a star
// (a node that is both a leaf and a centre, or a leaf of two centres);
// when it is not zero the labels are not final, and the caller runs more
// rounds (StarClusters again on the edges of this result). Each round
// shuffles every edge three times (twice into large-star, once into
// small-star: 3·(|U|+|V|) bytes per edge per round).
func StarClusters(s beam.Scope, pairs beam.PCollection, rounds int) beam.PCollection {
	if rounds <= 0 {
		rounds = DefaultStarRounds
	}
	s = s.Scope("dedup.StarClusters")
	edges := beam.ParDo(s, pairKV, pairs)
	for range rounds {
		// Large-star: every node u links the neighbours larger than
		// itself to the smallest of Γ(u) ∪ {u} (§3, Algorithm 1).
		edges = beam.ParDo(s, &largeStarFn{}, beam.GroupByKey(s, beam.ParDo(s, bothWays, edges)))
		// Small-star: every node u links itself and its neighbours not
		// larger than itself to the smallest of them (§3, Algorithm 2).
		edges = beam.ParDo(s, &smallStarFn{}, beam.GroupByKey(s, beam.ParDo(s, smallerFirst, edges)))
	}
	return beam.ParDo(s, &starLabelFn{}, beam.GroupByKey(s, beam.ParDo(s, bothWays, edges)))
}

func pairKV(p Pair, emit func(string, string)) { emit(p.A, p.B) }

func bothWays(u, v string, emit func(string, string)) {
	if u == v {
		return
	}
	emit(u, v)
	emit(v, u)
}

// smallerFirst keys an edge by its larger end, with the smaller as value.
func smallerFirst(u, v string, emit func(string, string)) {
	switch {
	case u < v:
		emit(v, u)
	case v < u:
		emit(u, v)
	}
}

func distinctNeighbours(iter func(*string) bool) []string {
	var ns []string
	var v string
	for iter(&v) {
		ns = append(ns, v)
	}
	slices.Sort(ns)
	return slices.Compact(ns)
}

type largeStarFn struct{ changes beam.Counter }

func (f *largeStarFn) Setup() { f.changes = beam.NewCounter(Namespace, MetricStarChanges) }

func (f *largeStarFn) ProcessElement(ctx context.Context, u string, iter func(*string) bool, emit func(string, string)) {
	ns := distinctNeighbours(iter)
	m := min(u, ns[0])
	var changed int64
	for _, v := range ns {
		if v > u {
			emit(v, m)
			if m != u {
				changed++
			}
		}
	}
	f.changes.Inc(ctx, changed)
}

type smallStarFn struct{ changes beam.Counter }

func (f *smallStarFn) Setup() { f.changes = beam.NewCounter(Namespace, MetricStarChanges) }

func (f *smallStarFn) ProcessElement(ctx context.Context, u string, iter func(*string) bool, emit func(string, string)) {
	ns := distinctNeighbours(iter) // all < u
	m := ns[0]
	emit(u, m)
	for _, v := range ns[1:] {
		emit(v, m)
	}
	if len(ns) > 1 {
		f.changes.Inc(ctx, int64(len(ns)-1))
	}
}

// starLabelFn labels each node from the final star edges and counts the
// nodes not yet in a star.
type starLabelFn struct{ unconverged beam.Counter }

func (f *starLabelFn) Setup() { f.unconverged = beam.NewCounter(Namespace, MetricUnconverged) }

func (f *starLabelFn) ProcessElement(ctx context.Context, u string, iter func(*string) bool, emit func(Label)) {
	ns := distinctNeighbours(iter)
	switch {
	case u < ns[0]: // a centre: every neighbour is a leaf
		emit(Label{ID: u, Cluster: u})
	case len(ns) == 1: // a leaf of one centre
		emit(Label{ID: u, Cluster: ns[0]})
	default:
		f.unconverged.Inc(ctx, 1)
		emit(Label{ID: u, Cluster: ns[0]})
	}
}
