package dataset

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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

// TestDirThroughLink builds a module tree beside a data directory and
// checks that Dir reaches the data through the module's Link (a path
// inside the module, which Go's test cache rechecks), falls back to
// ../shared/data where the link is a plain file (a checkout without
// symbolic links), and finds nothing when the data is absent.
func TestDirThroughLink(t *testing.T) {
	t.Setenv("NEARDUP_DATA", "")
	root := t.TempDir()
	mod := filepath.Join(root, "repo")
	data := filepath.Join(root, "shared", "data")
	link := filepath.Join(mod, filepath.FromSlash(Link))
	work := filepath.Join(mod, "pkg", "sub")
	require.NoError(t, os.MkdirAll(work, 0o755))
	require.NoError(t, os.MkdirAll(filepath.Dir(link), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(mod, "go.mod"), []byte("module x\n"), 0o644))
	t.Chdir(work)

	_, err := Dir()
	assert.ErrorIs(t, err, ErrNoData, "no data and no link")

	require.NoError(t, os.Symlink("../../../../shared/data", link))
	_, err = Dir()
	assert.ErrorIs(t, err, ErrNoData, "a dangling link is no data")

	require.NoError(t, os.MkdirAll(data, 0o755))
	got, err := Dir()
	require.NoError(t, err)
	assert.Equal(t, link, got, "the data is reached through the link inside the module")

	require.NoError(t, os.Remove(link))
	require.NoError(t, os.WriteFile(link, []byte("../../../../shared/data"), 0o644))
	got, err = Dir()
	require.NoError(t, err)
	assert.Equal(t, filepath.Join(mod, "..", "shared", "data"), got, "a link checked out as a file falls back to ../shared/data")
}

// TestLinkCommitted checks the repository's own link: a symbolic link at
// Link pointing at ../shared/data beside the module root.
func TestLinkCommitted(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("a Windows checkout may hold the link as a plain file")
	}
	target, err := os.Readlink(filepath.FromSlash("testdata/shared-data"))
	require.NoError(t, err, "%s must be a symbolic link", Link)
	assert.Equal(t, "../../../../shared/data", target)
	assert.Equal(t, "internal/dataset/testdata/shared-data", Link, "Link names this package's testdata link")
}

// The default sample of CheckExactDuplicates keeps every text with a twin,
// in order, and every nth of the others.
func TestTwinsAndEvery(t *testing.T) {
	recs := []Record{
		{ID: "a", Text: "x"}, {ID: "b", Text: "1"}, {ID: "c", Text: "2"},
		{ID: "d", Text: "x"}, {ID: "e", Text: "3"}, {ID: "f", Text: "4"},
		{ID: "g", Text: "y"}, {ID: "h", Text: "5"}, {ID: "i", Text: "y"},
	}
	var ids []string
	for _, r := range twinsAndEvery(recs, 2) {
		ids = append(ids, r.ID)
	}
	assert.Equal(t, []string{"a", "b", "d", "e", "g", "h", "i"}, ids)
	assert.Len(t, ExactGroups(twinsAndEvery(recs, 3)), 2, "every group of twins is whole")
}
