package testkit

import (
	"reflect"
	"strings"
	"testing"
)

func TestFloodStream(t *testing.T) {
	texts := []string{"Alpha beta", "gamma delta", "", "Eps zeta", "eta", "theta", "iota", "kappa"}
	for _, tc := range []struct {
		name     string
		variants []func(string) string
	}{
		{"copies only", nil},
		{"upper", []func(string) string{strings.ToUpper}},
		{"lower and upper", []func(string) string{strings.ToLower, strings.ToUpper}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ops := FloodStream(texts, 7, 1, 2, 5, tc.variants...)
			if !reflect.DeepEqual(ops, FloodStream(texts, 7, 1, 2, 5, tc.variants...)) {
				t.Fatal("the same arguments give another stream")
			}
			live := map[string]bool{}
			known := map[string]bool{"": true}
			for _, tx := range texts {
				known[tx] = true
				for _, v := range tc.variants {
					known[v(tx)] = true
				}
			}
			adds := 0
			for _, o := range ops {
				if o.Remove {
					if !live[o.ID] {
						t.Fatalf("removes %s, which is not live", o.ID)
					}
					delete(live, o.ID)
					continue
				}
				if live[o.ID] || !known[o.Text] {
					t.Fatalf("adds %+v: an ID in use or an unknown text", o)
				}
				live[o.ID] = true
				adds++
			}
			if adds <= len(texts) {
				t.Errorf("%d adds for %d texts: no flood", adds, len(texts))
			}
		})
	}
}
