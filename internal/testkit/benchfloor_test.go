package testkit

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestFloor(t *testing.T) {
	assert.Equal(t, Floor("The cat sat on the mat"), Floor("the CAT  sat, on the mat!"), "case and punctuation do not matter")
	assert.NotEqual(t, Floor("the cat sat on the mat"), Floor("the mat sat on the cat"))
	assert.Zero(t, Floor("two words"), "fewer than three words make no shingle")
	text := "İSTANBUL'da bugün hava çok güzel ve güneşliydi."
	assert.Zero(t, testing.AllocsPerRun(100, func() { Sink += Floor(text) }))
}
