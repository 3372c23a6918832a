package engine

import (
	"fmt"

	"github.com/seed-9ef9c1df/neardup/detector"

	"github.com/seed-9ef9c1df/neardup/textproc"
)

// DefaultLimits fills in the zero values of the fields [Limits] checks:
// ContentDefault becomes def, and a maxText of 0
// detector.DefaultMaxTextBytes.
func DefaultLimits(content *textproc.Content, def textproc.Content, maxText *int) {
	if *content == textproc.ContentDefault {
		*content = def
	}
	if *maxText == 0 {
		*maxText = detector.DefaultMaxTextBytes
	}
}

// Limits checks the fields a detector Config shares after its text
// pipeline, maxText (MaxTextBytes, which must be ≥ 0) and content (see
// [Content]), and sets tc.Content to content. Errors name the field
// (callers prefix their package and wrap detector.ErrInvalidConfig).
func Limits(tc *textproc.Config, content, def textproc.Content, maxText int) error {
	if maxText < 0 {
		return fmt.Errorf("MaxTextBytes (%d) must be ≥ 0", maxText)
	}
	if _, err := Content(content, def); err != nil {
		return err
	}
	tc.Content = content
	return nil
}

// Resolve returns c with its defaults filled in (setDefaults), checked
// (validate), and the text pipeline validate selects: how a detector
// resolves its Config. On error it returns c with its defaults and the
// zero pipeline.
func Resolve[C any](c C, setDefaults func(*C), validate func(C) (textproc.Config, error)) (C, textproc.Config, error) {
	setDefaults(&c)
	tc, err := validate(c)
	if err != nil {
		return c, textproc.Config{}, err
	}
	return c, tc, nil
}
