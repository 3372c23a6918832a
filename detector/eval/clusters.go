package eval

import "slices"

// Cluster is a group of near-duplicate documents, as a news portal shows
// them ("10 sources for this story"; Uyar 2009, "Near-duplicate news
// detection using named entities", M.S. thesis, Bilkent, ch. 4).
type Cluster struct {
	// Representative is the earliest document of the cluster.
	Representative string
	// Members are all documents of the cluster in arrival order,
	// Representative first.
	Members []string
	// Contains lists the documents outside the cluster that some member
	// contains (containment edges are kept apart from the symmetric ones).
	Contains []string
}

// Clusters groups documents by the symmetric relations among them: the
// connected components (union-find) of the edges reported in both
// directions, or of every edge when symmetric is true (a near-duplicate
// detector). order gives the arrival order, which picks representatives;
// documents related to nothing form singleton clusters. One-way edges
// (C ⊇ A only) do not merge clusters; they are listed in the container's
// cluster's Contains.
func Clusters(order []string, edges []Edge, symmetric bool) []Cluster {
	pos := make(map[string]int, len(order))
	for i, id := range order {
		pos[id] = i
	}
	parent := make([]int, len(order))
	for i := range parent {
		parent[i] = i
	}
	find := func(x int) int {
		for parent[x] != x {
			parent[x] = parent[parent[x]]
			x = parent[x]
		}
		return x
	}
	union := func(a, b int) {
		ra, rb := find(a), find(b)
		if ra == rb {
			return
		}
		if rb < ra {
			ra, rb = rb, ra
		}
		parent[rb] = ra // the earliest document stays the root
	}
	directed := map[[2]string]bool{}
	for _, e := range edges {
		directed[[2]string{e.Container, e.Contained}] = true
	}
	var oneWay []Edge
	for _, e := range edges {
		a, okA := pos[e.Container]
		b, okB := pos[e.Contained]
		if !okA || !okB {
			continue
		}
		if symmetric || directed[[2]string{e.Contained, e.Container}] {
			union(a, b)
		} else {
			oneWay = append(oneWay, e)
		}
	}
	byRoot := map[int]*Cluster{}
	var roots []int
	for i, id := range order {
		r := find(i)
		c, ok := byRoot[r]
		if !ok {
			c = &Cluster{Representative: order[r]}
			byRoot[r] = c
			roots = append(roots, r)
		}
		c.Members = append(c.Members, id)
	}
	for _, e := range oneWay {
		c := byRoot[find(pos[e.Container])]
		if find(pos[e.Container]) != find(pos[e.Contained]) && !slices.Contains(c.Contains, e.Contained) {
			c.Contains = append(c.Contains, e.Contained)
		}
	}
	out := make([]Cluster, 0, len(roots))
	for _, r := range roots {
		c := byRoot[r]
		slices.Sort(c.Contains)
		out = append(out, *c)
	}
	return out
}
