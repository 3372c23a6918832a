package testkit

import (
	"math/rand/v2"
	"slices"
	"strconv"
)

// FloodStream returns a stream that adds every text (IDs "d0", "d1", ...
// in arrival order) and, after each text whose index is a multiple of
// every, a flood of 1 to copies further documents. Each document of a
// flood is, with probability 1/4 each, one of variants applied to the
// text (case changes that the detector reads as exact copies, say), and
// otherwise an exact copy of a random text so far. After each text a
// random live document, the first of a group included, is removed with
// probability 1/3. The stream is a function of its arguments: the random
// source is PCG(seed, stream), and a stream without variants draws no
// number to choose one.
func FloodStream(texts []string, seed, stream uint64, every, copies int, variants ...func(string) string) []Op {
	rng := rand.New(rand.NewPCG(seed, stream))
	var ops []Op
	var live []string
	n := 0
	add := func(text string) {
		id := "d" + strconv.Itoa(n)
		n++
		ops = append(ops, Op{ID: id, Text: text})
		live = append(live, id)
	}
	for i, text := range texts {
		add(text)
		if i%every == 0 {
			for range rng.IntN(copies) + 1 {
				if len(variants) > 0 {
					if v := rng.IntN(4); v < len(variants) {
						add(variants[v](text))
						continue
					}
				}
				add(texts[rng.IntN(i+1)])
			}
		}
		if len(live) > 0 && rng.IntN(3) == 0 {
			k := rng.IntN(len(live))
			ops = append(ops, Op{ID: live[k], Remove: true})
			live = slices.Delete(live, k, k+1)
		}
	}
	return ops
}
