package dataset

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
)

// recorder is a testing.TB that records a skip instead of stopping the
// goroutine, so that a test can check what SkipLong and SoakAdds decide.
type recorder struct {
	testing.TB
	skipped string
}

func (r *recorder) Helper()      {}
func (r *recorder) Name() string { return "TestX" }
func (r *recorder) Skipf(format string, args ...any) {
	if r.skipped == "" {
		r.skipped = fmt.Sprintf(format, args...)
	}
}

func TestSwitch(t *testing.T) {
	for _, tc := range []struct {
		value    string
		enabled  bool
		adds     int // SoakAdds(…, 500) when it does not skip
		skipText string
	}{
		{"", false, 500, "set NEARDUP_LONG=1 to run it"},
		{"0", false, 500, "set NEARDUP_LONG=1 to run it"},
		{"1", true, 500, ""},
		{"yes", true, 500, ""},
		{"200000", true, 200000, ""},
	} {
		t.Run("NEARDUP_LONG="+tc.value, func(t *testing.T) {
			t.Setenv(LongEnv, tc.value)
			assert.Equal(t, tc.enabled, LongEnabled())
			if tc.enabled {
				assert.Equal(t, 9, LongSize(3, 9))
			} else {
				assert.Equal(t, 3, LongSize(3, 9))
			}

			r := &recorder{TB: t}
			SkipLong(r)
			if tc.skipText == "" {
				assert.Empty(t, r.skipped)
			} else {
				assert.Contains(t, r.skipped, tc.skipText)
				assert.Contains(t, r.skipped, "TestX")
			}

			r = &recorder{TB: t}
			SkipSoak(r)
			adds := LongCount(500)
			switch {
			case !tc.enabled:
				assert.Contains(t, r.skipped, tc.skipText)
			case RaceEnabled:
				assert.Contains(t, r.skipped, "under -race")
			default:
				assert.Empty(t, r.skipped)
				assert.Equal(t, tc.adds, adds)
			}
		})
	}
}
