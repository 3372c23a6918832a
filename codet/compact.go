package codet

// Giving memory back: the node array, the children table and the
// vocabulary would otherwise keep the size of their peak, and grow for
// good in a stream whose documents bring terms of their own. compact
// renumbers the live nodes and terms densely, amortised over the removals
// and new terms that made it due.

// compactSlack is the dead entries (free nodes, dead terms) below which
// compaction is never due: small detectors never pay for it.
const compactSlack = 1 << 14

// maybeCompact compacts when more than half of the node array is free,
// when the vocabulary grew by half (at least compactSlack terms) since the
// last compaction, or when the last document left. The caller holds the
// lock, and no node or term ID is held across the call.
func (d *index) maybeCompact() {
	live := d.nodes.len() - 1 - len(d.freeNodes)
	empty := d.live() == 0 && (len(d.freeNodes) > 0 || len(d.terms) > d.termsKept)
	if empty || len(d.freeNodes) > live+compactSlack || len(d.terms) > d.termsAt {
		d.compact()
	}
}

// compact renumbers the live nodes and terms: those of live nodes and
// near contents, and with online weights every term counted in more than
// one document (a term counted once is forgotten, and counts from 1 when
// seen again). Time O(nodes + terms + near contents' terms).
func (d *index) compact() {
	// Nodes: the root and every node a live group visits.
	nodeMap := make([]uint32, d.nodes.len())
	var nodes nodeStore
	for i := range uint32(d.nodes.len()) {
		if nd := d.nodes.at(i); i == 0 || nd.refs > 0 {
			nodeMap[i] = nodes.push(*nd)
		}
	}
	// Terms.
	used := make([]bool, len(d.terms))
	for i := 1; i < nodes.len(); i++ {
		used[nodes.at(uint32(i)).term] = true
	}
	for i := range d.nears {
		for _, t := range d.nears[i].terms {
			used[t] = true
		}
	}
	for t, n := range d.df {
		if n > 1 {
			used[t] = true
		}
	}
	n := 0
	for _, ok := range used {
		if ok {
			n++
		}
	}
	termMap := make([]uint32, len(d.terms))
	terms := make([]string, 0, n)
	var df []int64
	if d.df != nil {
		df = make([]int64, 0, n)
	}
	for t, ok := range used {
		if !ok {
			continue
		}
		termMap[t] = uint32(len(terms))
		terms = append(terms, d.terms[t])
		if df != nil {
			df = append(df, 0)
			if t < len(d.df) {
				df[len(df)-1] = d.df[t]
			}
		}
	}
	vocab := make(map[string]uint32, len(terms))
	for i, t := range terms {
		vocab[t] = uint32(i)
	}
	children := makeChildTable(nodes.len())
	for i := 1; i < nodes.len(); i++ {
		nd := nodes.at(uint32(i))
		nd.parent = nodeMap[nd.parent]
		nd.term = termMap[nd.term]
		children.put(nd.parent, nd.term, uint32(i))
	}
	for i := range d.groups {
		for k, e := range d.groups[i].ends {
			d.groups[i].ends[k] = nodeMap[e]
		}
	}
	for i := range d.nears {
		for k, t := range d.nears[i].terms {
			d.nears[i].terms[k] = termMap[t]
		}
	}
	d.nodes, d.freeNodes, d.children = nodes, nil, children
	d.terms, d.vocab, d.df = terms, vocab, df
	if d.seen != nil {
		d.seen = make([]uint32, len(terms))
	}
	d.termsAt = len(terms) + max(len(terms)/2, compactSlack)
	d.termsKept = len(terms)
	d.epoch = d.alg.epochs.Add(1) // every worker's cache of term IDs is stale
	d.alg.pool.vocab.Store(int64(len(terms)))
}
