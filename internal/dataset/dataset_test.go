package dataset

import (
	"os"
	"os/exec"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestSortByDate(t *testing.T) {
	recs := []Record{
		{ID: "c", Date: "02-MAR-1987 09:00:00.00"},
		{ID: "a", Date: "26-FEB-1987 15:01:01.79"},
		{ID: "b", Date: "26-FEB-1987 15:02:20.00"},
	}
	SortByDate(recs)
	assert.Equal(t, []string{"a", "b", "c"}, []string{recs[0].ID, recs[1].ID, recs[2].ID})
}

func TestGoldset(t *testing.T) {
	recs := ForTest(t, "goldset-dev.jsonl")
	assert.Len(t, recs, 1077)
	assert.NotEmpty(t, recs[0].Cluster)
}

func TestExactGroups(t *testing.T) {
	recs := []Record{{ID: "a", Text: "x"}, {ID: "b", Text: "y"}, {ID: "c", Text: "x"}, {ID: "d", Text: "x"}}
	assert.Equal(t, [][]string{{"a", "c", "d"}}, ExactGroups(recs))
}

func TestExactTruth(t *testing.T) {
	recs := []Record{{ID: "a", Text: "x"}, {ID: "b", Text: "y"}, {ID: "c", Text: "x"}}
	truth := ExactTruth(recs)
	assert.Equal(t, truth["a"], truth["c"])
	assert.NotContains(t, truth, "b")
}

// TestMissing runs itself in a subprocess with an empty data directory:
// without RequireEnv a data test skips, with it the test fails.
func TestMissing(t *testing.T) {
	if os.Getenv("DATASET_MISSING_CHILD") != "" {
		ForTest(t, "goldset-dev.jsonl")
		return
	}
	for _, c := range []struct {
		require string
		want    string
		fails   bool
	}{
		{"", "--- SKIP: TestMissing", false},
		{"1", "--- FAIL: TestMissing", true},
	} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestMissing$", "-test.v")
		cmd.Env = append(os.Environ(), "DATASET_MISSING_CHILD=1", "NEARDUP_DATA="+t.TempDir()+"/absent", RequireEnv+"="+c.require)
		out, err := cmd.CombinedOutput()
		assert.Contains(t, string(out), c.want)
		assert.Equal(t, c.fails, err != nil, "%s", out)
	}
}
