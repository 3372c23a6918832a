// Package plot writes line charts as SVG files a browser opens: axes with
// ticks and labels, one polyline per series and a legend. It is the small
// plotter the example programs share; it knows nothing of detectors.
package plot

import (
	"bufio"
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// Series is one line of a chart: Y[i] at X[i]. A point whose X or Y is
// NaN or infinite is left out and breaks the line.
type Series struct {
	Name string
	X, Y []float64
}

// Chart is one panel: a title, axis labels and its series.
type Chart struct {
	Title, XLabel, YLabel string
	Series                []Series
	// XRange and YRange, when their first value is below the second, fix
	// an axis's range; otherwise it is the data's, widened to whole ticks.
	XRange, YRange [2]float64
	// YFromZero starts a data-derived y axis at 0 when the data are
	// non-negative (rates, sizes).
	YFromZero bool
}

// Layout of one panel, in SVG user units (pixels).
const (
	width        = 760
	height       = 340
	marginLeft   = 72
	marginRight  = 180 // the legend sits here
	marginTop    = 36
	marginBottom = 52
)

// palette colours the series in order, distinguishable in colour and grey.
var palette = []string{"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#17becf", "#7f7f7f"}

// Axis is an axis's range and its ticks, every Step from From to To.
type Axis struct {
	From, To, Step float64
}

// Ticks returns the tick values of a.
func (a Axis) Ticks() []float64 {
	var out []float64
	n := int(math.Round((a.To - a.From) / a.Step))
	for i := 0; i <= n; i++ {
		out = append(out, clean(a.From+float64(i)*a.Step))
	}
	return out
}

// NiceAxis returns an axis covering [lo, hi] with about five ticks a
// round step apart (1, 2 or 5 times a power of ten), its ends on ticks. A
// single value or an empty range gets an axis around it.
func NiceAxis(lo, hi float64) Axis {
	if math.IsNaN(lo) || math.IsNaN(hi) || math.IsInf(lo, 0) || math.IsInf(hi, 0) {
		return Axis{0, 1, 0.2}
	}
	if hi < lo {
		lo, hi = hi, lo
	}
	if hi == lo {
		d := math.Max(math.Abs(lo)/10, 1e-9)
		if lo == 0 {
			d = 1
		}
		lo, hi = lo-d, hi+d
	}
	raw := (hi - lo) / 5
	pow := math.Pow(10, math.Floor(math.Log10(raw)))
	step := 10 * pow
	for _, m := range []float64{1, 2, 5} {
		if m*pow >= raw {
			step = m * pow
			break
		}
	}
	from := clean(math.Floor(lo/step+1e-9) * step)
	to := clean(math.Ceil(hi/step-1e-9) * step)
	return Axis{from, to, step}
}

// clean rounds away the float noise of tick arithmetic (0.30000000000000004).
func clean(v float64) float64 {
	r, err := strconv.ParseFloat(strconv.FormatFloat(v, 'g', 12, 64), 64)
	if err != nil {
		return v
	}
	return r
}

// axes returns the chart's x and y axes.
func (c Chart) axes() (Axis, Axis) {
	xlo, xhi, ylo, yhi := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	for _, s := range c.Series {
		for i := range min(len(s.X), len(s.Y)) {
			x, y := s.X[i], s.Y[i]
			if !finite(x) || !finite(y) {
				continue
			}
			xlo, xhi = math.Min(xlo, x), math.Max(xhi, x)
			ylo, yhi = math.Min(ylo, y), math.Max(yhi, y)
		}
	}
	if c.YFromZero && ylo >= 0 {
		ylo = 0
	}
	x, y := NiceAxis(xlo, xhi), NiceAxis(ylo, yhi)
	if c.XRange[0] < c.XRange[1] {
		x = fixed(c.XRange)
	}
	if c.YRange[0] < c.YRange[1] {
		y = fixed(c.YRange)
	}
	return x, y
}

// fixed returns an axis over r with the ticks NiceAxis would choose.
func fixed(r [2]float64) Axis {
	a := NiceAxis(r[0], r[1])
	a.From, a.To = r[0], r[1]
	return a
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// WriteSVG writes the charts, stacked top to bottom, as one SVG document.
func WriteSVG(w io.Writer, charts ...Chart) error {
	bw := bufio.NewWriter(w)
	total := height * len(charts)
	fmt.Fprintf(bw, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="12">`+"\n",
		width, total, width, total)
	fmt.Fprintf(bw, `<rect width="%d" height="%d" fill="white"/>`+"\n", width, total)
	for i, c := range charts {
		fmt.Fprintf(bw, `<g transform="translate(0,%d)">`+"\n", i*height)
		c.write(bw, i)
		fmt.Fprintln(bw, "</g>")
	}
	fmt.Fprintln(bw, "</svg>")
	return bw.Flush()
}

// write draws one panel, the n-th of its document.
func (c Chart) write(w io.Writer, n int) {
	xa, ya := c.axes()
	pw, ph := float64(width-marginLeft-marginRight), float64(height-marginTop-marginBottom)
	px := func(x float64) float64 { return marginLeft + (x-xa.From)/(xa.To-xa.From)*pw }
	py := func(y float64) float64 { return marginTop + ph - (y-ya.From)/(ya.To-ya.From)*ph }
	esc := func(s string) string {
		var b strings.Builder
		_ = xml.EscapeText(&b, []byte(s)) // a strings.Builder does not fail
		return b.String()
	}
	fmt.Fprintf(w, `<text x="%d" y="%d" font-size="15" font-weight="bold">%s</text>`+"\n", marginLeft, marginTop-14, esc(c.Title))
	// Grid and ticks.
	for _, t := range xa.Ticks() {
		x := px(t)
		fmt.Fprintf(w, `<line x1="%.1f" y1="%d" x2="%.1f" y2="%.1f" stroke="#e4e4e4"/>`+"\n", x, marginTop, x, marginTop+ph)
		fmt.Fprintf(w, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="black"/>`+"\n", x, marginTop+ph, x, marginTop+ph+5)
		fmt.Fprintf(w, `<text x="%.1f" y="%.1f" text-anchor="middle">%s</text>`+"\n", x, marginTop+ph+18, xa.label(t))
	}
	for _, t := range ya.Ticks() {
		y := py(t)
		fmt.Fprintf(w, `<line x1="%d" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#e4e4e4"/>`+"\n", marginLeft, y, marginLeft+pw, y)
		fmt.Fprintf(w, `<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="black"/>`+"\n", marginLeft-5, y, marginLeft, y)
		fmt.Fprintf(w, `<text x="%d" y="%.1f" text-anchor="end">%s</text>`+"\n", marginLeft-8, y+4, ya.label(t))
	}
	// Axes and their labels.
	fmt.Fprintf(w, `<path d="M%d %d V%.1f H%.1f" fill="none" stroke="black"/>`+"\n", marginLeft, marginTop, marginTop+ph, marginLeft+pw)
	fmt.Fprintf(w, `<text x="%.1f" y="%d" text-anchor="middle">%s</text>`+"\n", marginLeft+pw/2, height-12, esc(c.XLabel))
	fmt.Fprintf(w, `<text transform="translate(16,%.1f) rotate(-90)" text-anchor="middle">%s</text>`+"\n", marginTop+ph/2, esc(c.YLabel))
	// Series, clipped to the plot area, and the legend.
	fmt.Fprintf(w, `<clipPath id="area%d"><rect x="%d" y="%d" width="%.1f" height="%.1f"/></clipPath>`+"\n", n, marginLeft, marginTop-3, pw+3, ph+6)
	for i, s := range c.Series {
		colour := palette[i%len(palette)]
		n := min(len(s.X), len(s.Y))
		var runs [][]string
		var run []string
		for j := range n {
			if !finite(s.X[j]) || !finite(s.Y[j]) {
				if len(run) > 0 {
					runs, run = append(runs, run), nil
				}
				continue
			}
			run = append(run, fmt.Sprintf("%.1f,%.1f", px(s.X[j]), py(s.Y[j])))
		}
		if len(run) > 0 {
			runs = append(runs, run)
		}
		fmt.Fprintf(w, `<g clip-path="url(#area%d)">`+"\n", n)
		for _, r := range runs {
			fmt.Fprintf(w, `<polyline points="%s" fill="none" stroke="%s" stroke-width="2"/>`+"\n", strings.Join(r, " "), colour)
			if n <= 60 { // few points: mark them
				for _, p := range r {
					xy := strings.Split(p, ",")
					fmt.Fprintf(w, `<circle cx="%s" cy="%s" r="2.5" fill="%s"/>`+"\n", xy[0], xy[1], colour)
				}
			}
		}
		fmt.Fprintln(w, "</g>")
		ly := marginTop + 8 + 20*i
		fmt.Fprintf(w, `<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="%s" stroke-width="2"/>`+"\n",
			marginLeft+pw+14, ly, marginLeft+pw+38, ly, colour)
		fmt.Fprintf(w, `<text x="%.1f" y="%d">%s</text>`+"\n", marginLeft+pw+44, ly+4, esc(s.Name))
	}
}

// label formats a tick value of axis a with as few digits as it needs,
// in thousands (k) or millions (M) along an axis that reaches 10,000 or
// 10,000,000, so one axis has one unit.
func (a Axis) label(v float64) string {
	switch m := math.Max(math.Abs(a.From), math.Abs(a.To)); {
	case v == 0:
		return "0"
	case m >= 1e7:
		return strconv.FormatFloat(clean(v/1e6), 'f', -1, 64) + "M"
	case m >= 1e4:
		return strconv.FormatFloat(clean(v/1e3), 'f', -1, 64) + "k"
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}
