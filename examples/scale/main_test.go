package main

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRun(t *testing.T) {
	var out strings.Builder
	require.NoError(t, run(&out, nil, []string{"minhash", "tweezer"}, []int{200, 500}))
	rows := regexp.MustCompile(`(?m)^\| (\S+) \| (\d+) \| ([\d.]+) \| (\d+) \|$`).FindAllStringSubmatch(out.String(), -1)
	require.Len(t, rows, 4, out.String())
	for i, r := range rows {
		assert.Equal(t, []string{"minhash", "tweezer"}[i/2], r[1])
		assert.Equal(t, []string{"200", "500"}[i%2], r[2])
		cpu, _ := strconv.ParseFloat(r[3], 64)
		bytes, _ := strconv.Atoi(r[4])
		assert.Positive(t, cpu, "CPU per Add")
		assert.Positive(t, bytes, "live bytes per document")
	}
	assert.Error(t, run(&out, nil, []string{"nope"}, []int{10}))
}

func TestParse(t *testing.T) {
	names, ns, err := parse("", "10, 100")
	require.NoError(t, err)
	assert.NotContains(t, names, "reference")
	assert.Contains(t, names, "codet")
	assert.Equal(t, []int{10, 100}, ns)
	for _, bad := range []string{"", "0", "x", "100,10", "100,100"} {
		_, _, err := parse("ffp", bad)
		assert.Error(t, err, bad)
	}
}
