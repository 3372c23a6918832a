package testkit_test

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestNoIO checks the library does no I/O of its own (STYLE.md, "the I/O
// guard"): no non-test package imports os, io/fs, net, log, os/exec or time
// directly. examples/ (runnable programs), internal/dataset (test and example
// support that reads ../shared/data), internal/testkit (test support
// that times out a hung workload, times a stalled call and reads
// NEARDUP_LONG to run its reports) and
// nested modules are exempt.
func TestNoIO(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	out, err := exec.Command("go", "list", "-e", "-f", "{{.ImportPath}} {{join .Imports \" \"}}", "github.com/seed-9ef9c1df/neardup/...").CombinedOutput()
	require.NoError(t, err, "%s", out)
	banned := map[string]bool{"os": true, "io/fs": true, "log": true, "log/slog": true, "os/exec": true, "time": true}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	require.Greater(t, len(lines), 5)
	for _, line := range lines {
		fields := strings.Fields(line)
		pkg := fields[0]
		if strings.Contains(pkg, "/examples") || strings.Contains(pkg, "/internal/dataset") || strings.HasSuffix(pkg, "/internal/testkit") {
			continue
		}
		for _, imp := range fields[1:] {
			if banned[imp] || imp == "net" || strings.HasPrefix(imp, "net/") {
				t.Errorf("%s imports %s: the library does no I/O", pkg, imp)
			}
		}
	}
}

// TestTestingOnlyInTestSupport checks that package testing is linked only
// by test support: no non-test package of the module imports it but this
// one and detector/detectortest, so that the library and the example
// programs (which read collections and generate synthetic ones through
// internal/dataset) do not carry it.
func TestTestingOnlyInTestSupport(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	out, err := exec.Command("go", "list", "-e", "-f", "{{.ImportPath}} {{join .Imports \" \"}}", "github.com/seed-9ef9c1df/neardup/...").CombinedOutput()
	require.NoError(t, err, "%s", out)
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	require.Greater(t, len(lines), 5)
	for _, line := range lines {
		fields := strings.Fields(line)
		pkg := fields[0]
		if strings.HasSuffix(pkg, "/internal/testkit") || strings.HasSuffix(pkg, "/detector/detectortest") {
			continue
		}
		for _, imp := range fields[1:] {
			if imp == "testing" {
				t.Errorf("%s imports testing outside test support", pkg)
			}
		}
	}
}
