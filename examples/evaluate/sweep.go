package main

import (
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/detector/eval"
	"github.com/seed-9ef9c1df/neardup/examples/internal/cli"
	"github.com/seed-9ef9c1df/neardup/examples/internal/plot"
	"github.com/seed-9ef9c1df/neardup/examples/internal/registry"
	"github.com/seed-9ef9c1df/neardup/internal/dataset"
)

// maxSweepPoints bounds a sweep: each point is a whole run over the data.
const maxSweepPoints = 200

// sweep is a parsed -sweep flag: Key takes every value from From to To
// (inclusive) Step apart.
type sweep struct {
	Key            string
	From, To, Step float64
}

// parseSweep parses "Key=FROM:TO:STEP". Errors wrap
// detector.ErrInvalidConfig and say what is wrong.
func parseSweep(s string) (sweep, error) {
	bad := func(format string, args ...any) (sweep, error) {
		return sweep{}, fmt.Errorf("-sweep %q: %s (want Key=FROM:TO:STEP, e.g. Threshold=0.1:0.9:0.05): %w",
			s, fmt.Sprintf(format, args...), detector.ErrInvalidConfig)
	}
	key, rng, ok := strings.Cut(s, "=")
	key = strings.TrimSpace(key)
	if !ok || key == "" {
		return bad("no option name")
	}
	parts := strings.Split(rng, ":")
	if len(parts) != 3 {
		return bad("%d values after '=', want 3", len(parts))
	}
	var v [3]float64
	for i, p := range parts {
		x, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
			return bad("%q is not a finite number", p)
		}
		v[i] = x
	}
	sw := sweep{Key: key, From: v[0], To: v[1], Step: v[2]}
	switch {
	case sw.Step <= 0:
		return bad("STEP must be positive")
	case sw.From > sw.To:
		return bad("FROM (%g) is above TO (%g)", sw.From, sw.To)
	case (sw.To-sw.From)/sw.Step+1 > maxSweepPoints:
		return bad("more than %d points", maxSweepPoints)
	}
	return sw, nil
}

// Values returns the values swept, FROM first, TO last when a whole number
// of steps reaches it.
func (sw sweep) Values() []float64 {
	n := int(math.Floor((sw.To-sw.From)/sw.Step + 1e-9))
	out := make([]float64, 0, n+1)
	for i := 0; i <= n; i++ {
		v := sw.From + float64(i)*sw.Step
		r, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'g', 12, 64), 64) // drop float noise: 0.30000000000000004
		out = append(out, r)
	}
	return out
}

// option returns e's option that the sweep sets, as e spells it, or an
// error when e has none by that name or set names it too.
func (sw sweep) option(e registry.Entry, set map[string]string) (string, error) {
	if i := slices.IndexFunc(e.Fixed, func(o string) bool { return strings.EqualFold(o, sw.Key) }); i >= 0 {
		return "", fmt.Errorf("-sweep: %s fixes %s by its name; sweep another detector: %w", e.Name, e.Fixed[i], detector.ErrInvalidConfig)
	}
	i := slices.IndexFunc(e.Options, func(o string) bool { return strings.EqualFold(o, sw.Key) })
	if i < 0 {
		return "", fmt.Errorf("-sweep: %s has no option %s (its options: %s): %w",
			e.Name, sw.Key, strings.Join(e.Options, ", "), detector.ErrInvalidConfig)
	}
	for k := range set {
		if strings.EqualFold(k, sw.Key) {
			return "", fmt.Errorf("-sweep %s and -set %s both set it: %w", sw.Key, k, detector.ErrInvalidConfig)
		}
	}
	return e.Options[i], nil
}

// point is one value of a sweep.
type point struct {
	value   float64
	pairs   int
	counts  eval.Counts
	elapsed time.Duration
}

// scorer returns how a sweep scores reported edges on recs, and its name:
// strict pair scores where the data has clusters, otherwise cut and light
// answers as positives where it has graded containment.
func scorer(recs []dataset.Record) (func([]eval.Edge) eval.Counts, string, error) {
	clusters := eval.ClusterTruth{}
	cont := eval.ContainmentTruth{Category: map[string]string{}, Task: map[string]string{}}
	for _, r := range recs {
		if r.Cluster != "" {
			clusters[r.ID] = r.Cluster
		}
		if r.Category != "" && r.Task != "" {
			cont.Category[r.ID], cont.Task[r.ID] = r.Category, r.Task
		}
	}
	switch {
	case len(clusters) > 0:
		return func(edges []eval.Edge) eval.Counts { return clusters.Score(eval.Pairs(edges), false) }, "strict pairs", nil
	case len(cont.Category) > 0:
		return func(edges []eval.Edge) eval.Counts {
			_, c := cont.Rates(edges, "cut", "light")
			return c
		}, "cut+light contained in their source", nil
	}
	return nil, "", fmt.Errorf("-sweep: the data has neither \"cluster\" nor \"category\"/\"task\" labels to score: %w", detector.ErrInvalidConfig)
}

// runSweep runs every entry at every value of sw over recs, prints a table
// per entry on stdout and, if svgPath is set, draws precision, recall and
// F1 against the value there.
func runSweep(stdout io.Writer, p *cli.Progress, o options, sw sweep, entries []registry.Entry, build builder, recs []dataset.Record, path string) error {
	score, measure, err := scorer(recs)
	if err != nil {
		return err
	}
	docs := dataset.Docs(recs)
	values := sw.Values()
	var charts []plot.Chart
	for _, e := range entries {
		key, err := sw.option(e, build.set)
		if err != nil {
			return err
		}
		var points []point
		for i, v := range values {
			val := strconv.FormatFloat(v, 'f', -1, 64)
			what := fmt.Sprintf("%s %s=%s (%d/%d)", e.Name, key, val, i+1, len(values))
			d, err := build.with(e, key, val)
			if err != nil {
				return fmt.Errorf("%s %s=%s: %w", e.Name, key, val, err)
			}
			start := time.Now()
			edges, err := eval.Relations(d, docs, p.Docs(what, len(docs)))
			elapsed := time.Since(start)
			d.Close()
			if err != nil {
				return fmt.Errorf("%s: %w", what, err)
			}
			pt := point{value: v, pairs: len(eval.Pairs(edges)), counts: score(edges), elapsed: elapsed}
			points = append(points, pt)
			p.Stage("%s: F1 %.3f", what, pt.counts.F1())
		}
		printSweep(stdout, e, key, path, measure, build.set, points)
		charts = append(charts, sweepChart(e, key, path, measure, points))
	}
	if o.svg == "" {
		return nil
	}
	f, err := os.Create(o.svg)
	if err != nil {
		return err
	}
	if err := plot.WriteSVG(f, charts...); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "\nchart written to %s\n", o.svg)
	return nil
}

// printSweep prints one entry's sweep as a table and its best F1.
func printSweep(w io.Writer, e registry.Entry, key, path, measure string, set map[string]string, points []point) {
	name := e.Name
	if len(set) > 0 {
		name += " " + settings(set)
	}
	fmt.Fprintf(w, "\n%s, %s swept on %s (%s):\n\n", name, key, path, measure)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "%s\tpairs\tprecision\trecall\tF1\tTP\tFP\tFN\ttime\t\n", key)
	best := 0
	for i, pt := range points {
		c := pt.counts
		precision := "–" // nothing reported: precision is undefined
		if c.TP+c.FP > 0 {
			precision = fmt.Sprintf("%.3f", c.Precision())
		}
		fmt.Fprintf(tw, "%g\t%d\t%s\t%.3f\t%.3f\t%d\t%d\t%d\t%s\t\n", pt.value, pt.pairs, precision, c.Recall(), c.F1(),
			c.TP, c.FP, c.FN, pt.elapsed.Round(time.Millisecond))
		if c.F1() > points[best].counts.F1() {
			best = i
		}
	}
	tw.Flush()
	fmt.Fprintf(w, "best F1 %.3f at %s=%g\n", points[best].counts.F1(), key, points[best].value)
}

// sweepChart draws precision, recall and F1 of one entry's sweep.
func sweepChart(e registry.Entry, key, path, measure string, points []point) plot.Chart {
	x := make([]float64, len(points))
	var p, r, f1 []float64
	for i, pt := range points {
		x[i] = pt.value
		prec := pt.counts.Precision()
		if pt.counts.TP+pt.counts.FP == 0 {
			prec = math.NaN() // undefined: left out of the line
		}
		p, r, f1 = append(p, prec), append(r, pt.counts.Recall()), append(f1, pt.counts.F1())
	}
	name := path[strings.LastIndexAny(path, `/\`)+1:]
	return plot.Chart{
		Title:  fmt.Sprintf("%s on %s (%s)", e.Name, name, measure),
		XLabel: key, YLabel: "score", YRange: [2]float64{0, 1},
		Series: []plot.Series{{Name: "F1", X: x, Y: f1}, {Name: "precision", X: x, Y: p}, {Name: "recall", X: x, Y: r}},
	}
}
