package plot

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// parse decodes the SVG document and returns every element's name with
// its attributes, failing the test when it is not well-formed XML.
func parse(t *testing.T, doc []byte) []xml.StartElement {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(doc))
	var els []xml.StartElement
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		require.NoError(t, err, "well-formed XML")
		if se, ok := tok.(xml.StartElement); ok {
			els = append(els, se.Copy())
		}
	}
	return els
}

func attr(se xml.StartElement, name string) string {
	for _, a := range se.Attr {
		if a.Name.Local == name {
			return a.Value
		}
	}
	return ""
}

func TestWriteSVGWellFormed(t *testing.T) {
	charts := []Chart{{
		Title: `F1 & "recall" <by> threshold`, XLabel: "Threshold", YLabel: "score",
		YRange: [2]float64{0, 1},
		Series: []Series{
			{Name: "F1", X: []float64{0.1, 0.2, 0.3, 0.4}, Y: []float64{0.5, 0.8, math.NaN(), 0.6}},
			{Name: "precision <P>", X: []float64{0.1, 0.2, 0.3, 0.4}, Y: []float64{0.4, 0.7, 0.9, 1}},
		},
	}, {
		Title: "heap", XLabel: "documents", YLabel: "MB", YFromZero: true,
		Series: []Series{{Name: "heap", X: []float64{1000, 2000, 3000}, Y: []float64{12, 14, 13}}},
	}}
	var b bytes.Buffer
	require.NoError(t, WriteSVG(&b, charts...))
	els := parse(t, b.Bytes())
	require.NotEmpty(t, els)
	assert.Equal(t, "svg", els[0].Name.Local)
	assert.Equal(t, strconv.Itoa(2*height), attr(els[0], "height"), "two panels stacked")

	var polylines, groups int
	for _, se := range els {
		switch se.Name.Local {
		case "polyline":
			polylines++
			for _, p := range strings.Fields(attr(se, "points")) {
				xy := strings.Split(p, ",")
				require.Len(t, xy, 2, p)
				for _, v := range xy {
					f, err := strconv.ParseFloat(v, 64)
					require.NoError(t, err, p)
					assert.False(t, math.IsNaN(f), p)
				}
			}
		case "g":
			groups++
		}
	}
	// F1 is broken in two by its NaN; precision and heap are one line each.
	assert.Equal(t, 4, polylines)
	assert.Contains(t, b.String(), "F1 &amp; &#34;recall&#34; &lt;by&gt; threshold")
	assert.Contains(t, b.String(), "precision &lt;P&gt;")
}

func TestNiceAxis(t *testing.T) {
	for _, c := range []struct {
		lo, hi         float64
		from, to, step float64
	}{
		{0.1, 0.9, 0, 1, 0.2},
		{0.12, 0.88, 0, 1, 0.2},
		{0.31, 0.47, 0.3, 0.5, 0.05},
		{0, 60000, 0, 60000, 20000},
		{1000, 60000, 0, 60000, 20000},
		{12.3, 14.1, 12, 14.5, 0.5},
		{-3, 7, -4, 8, 2},
		{5, 5, 4.4, 5.6, 0.2},
		{0, 0, -1, 1, 0.5},
		{0.9, 0.1, 0, 1, 0.2}, // swapped
	} {
		a := NiceAxis(c.lo, c.hi)
		assert.Equal(t, Axis{c.from, c.to, c.step}, a, "NiceAxis(%g, %g)", c.lo, c.hi)
		assert.LessOrEqual(t, a.From, math.Min(c.lo, c.hi))
		assert.GreaterOrEqual(t, a.To, math.Max(c.lo, c.hi))
		ticks := a.Ticks()
		assert.Equal(t, a.From, ticks[0])
		assert.Equal(t, a.To, ticks[len(ticks)-1])
		assert.LessOrEqual(t, len(ticks), 12)
	}
	assert.Equal(t, []float64{0.3, 0.35, 0.4, 0.45, 0.5}, Axis{0.3, 0.5, 0.05}.Ticks(), "no float noise")
	assert.Equal(t, Axis{0, 1, 0.2}, NiceAxis(math.NaN(), 1))
}

func TestChartAxes(t *testing.T) {
	c := Chart{Series: []Series{
		{X: []float64{2, 4, math.Inf(1)}, Y: []float64{30, 50, 1000}},
		{X: []float64{3}, Y: []float64{45}},
	}}
	x, y := c.axes()
	assert.Equal(t, Axis{2, 4, 0.5}, x, "the infinite point is left out")
	assert.Equal(t, Axis{30, 50, 5}, y)
	c.YFromZero = true
	_, y = c.axes()
	assert.Equal(t, Axis{0, 50, 10}, y)
	c.YRange = [2]float64{0, 1}
	_, y = c.axes()
	assert.Equal(t, 0.0, y.From)
	assert.Equal(t, 1.0, y.To)
}

func TestLabel(t *testing.T) {
	for _, c := range []struct {
		axis Axis
		v    float64
		want string
	}{
		{Axis{0, 1, 0.2}, 0.25, "0.25"},
		{Axis{0, 1, 0.2}, 0, "0"},
		{Axis{-1, 1, 0.5}, -0.5, "-0.5"},
		{Axis{0, 8000, 2000}, 1500, "1500"},
		{Axis{0, 10000, 2000}, 2000, "2k"},
		{Axis{0, 60000, 20000}, 20000, "20k"},
		{Axis{0, 2e7, 5e6}, 2.5e6, "2.5M"},
	} {
		assert.Equal(t, c.want, c.axis.label(c.v), "%v %g", c.axis, c.v)
	}
}
