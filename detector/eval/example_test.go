package eval_test

import (
	"fmt"

	"github.com/seed-9ef9c1df/neardup/detector/eval"
)

// Varol 2012 (CoDet thesis), Table 2.2: two annotators agree on 40 containments and 30
// non-containments out of 100 pairs.
func ExampleKappa() {
	fmt.Printf("%.1f\n", eval.Kappa(40, 20, 10, 30))
	// Output: 0.4
}

func ExampleClusterTruth_Score() {
	truth := eval.ClusterTruth{"a1": "Storm2", "a2": "Storm2", "b1": "Storm3", "c1": "Bank"}
	found := map[eval.Pair]float64{
		eval.NewPair("a1", "a2"): 0.9,
		eval.NewPair("a2", "b1"): 0.4, // a related story
	}
	fmt.Println("strict: ", truth.Score(found, false))
	fmt.Println("lenient:", truth.Score(found, true))
	// Output:
	// strict:  P 0.500 R 1.000 F1 0.667 (TP 1 FP 1 FN 0)
	// lenient: P 1.000 R 1.000 F1 1.000 (TP 1 FP 0 FN 0)
}

func ExampleClusters() {
	order := []string{"wire", "copy", "update", "other"}
	edges := []eval.Edge{
		{Container: "wire", Contained: "copy"}, {Container: "copy", Contained: "wire"},
		{Container: "wire", Contained: "update"}, // the update is contained, one way
	}
	for _, c := range eval.Clusters(order, edges, false) {
		fmt.Println(c.Representative, c.Members, c.Contains)
	}
	// Output:
	// wire [wire copy] [update]
	// update [update] []
	// other [other] []
}
