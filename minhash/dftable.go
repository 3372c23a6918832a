package minhash

// dfTable counts documents per 64-bit key (a term or phrase hash): an
// open-addressing table with linear probing and backward-shift deletion,
// so that a key whose count returns to 0 leaves no trace, and that shrinks
// when it holds less than an eighth of its slots. It replaced two Go maps
// whose separate read and write cost two cache misses per phrase (a third
// of Weighted-mode Add on Reuters) and that never give memory back.
//
// A dfTable is not safe for concurrent use; [Stats] guards it.
type dfTable struct {
	slots []dfSlot
	n     int    // keys present, zero key included
	zero  int64  // count of key 0, kept out of the table
	sink  uint64 // prefetch's sum, kept so that its loads stay
}

// reserve grows the table now if extra more keys could overfill it, so
// that the slots prefetch touched stay the ones inc probes.
func (t *dfTable) reserve(extra int) {
	size := max(dfMinSlots, len(t.slots))
	for 4*(t.n+extra) > 3*size {
		size *= 2
	}
	if size != len(t.slots) {
		t.resize(size)
	}
}

// prefetch reads the home slot of each key and nothing else: the loads
// are independent, so the processor overlaps their cache misses, which
// the probe loops of inc, one key after the other, would wait for one by
// one. On Reuters the phrase table outgrows the caches after a few
// thousand documents, and counting a document's phrases cost 15% of a
// Weighted-mode Add.
func (t *dfTable) prefetch(keys []uint64) {
	if len(t.slots) == 0 {
		return
	}
	var s uint64
	for _, k := range keys {
		s += t.slots[t.home(k)].key
	}
	t.sink = s
}

type dfSlot struct {
	key uint64 // 0 = empty
	n   int64
}

// dfMinSlots is the smallest table; dfTable never shrinks below it.
const dfMinSlots = 64

// home returns the first slot of key: keys are already well mixed hashes,
// but mixing once more keeps adversarial keys from clustering.
func (t *dfTable) home(key uint64) int {
	return int((key * 0x9e3779b97f4a7c15) >> 32 & uint64(len(t.slots)-1))
}

// get returns the count of key (0 if absent).
func (t *dfTable) get(key uint64) int64 {
	if key == 0 {
		return t.zero
	}
	if len(t.slots) == 0 {
		return 0
	}
	mask := len(t.slots) - 1
	for i := t.home(key); ; i = (i + 1) & mask {
		switch s := &t.slots[i]; s.key {
		case key:
			return s.n
		case 0:
			return 0
		}
	}
}

// inc adds 1 to the count of key and returns the new count.
func (t *dfTable) inc(key uint64) int64 {
	if key == 0 {
		if t.zero == 0 {
			t.n++
		}
		t.zero++
		return t.zero
	}
	if 4*(t.n+1) > 3*len(t.slots) { // keep at most 3/4 full
		t.resize(max(dfMinSlots, 2*len(t.slots)))
	}
	mask := len(t.slots) - 1
	for i := t.home(key); ; i = (i + 1) & mask {
		switch s := &t.slots[i]; s.key {
		case key:
			s.n++
			return s.n
		case 0:
			*s = dfSlot{key: key, n: 1}
			t.n++
			return 1
		}
	}
}

// dec subtracts 1 from the count of key, removing it at 0, and returns the
// new count; an absent key stays absent and returns 0.
func (t *dfTable) dec(key uint64) int64 {
	if key == 0 {
		if t.zero == 0 {
			return 0
		}
		t.zero--
		if t.zero == 0 {
			t.n--
		}
		return t.zero
	}
	if len(t.slots) == 0 {
		return 0
	}
	mask := len(t.slots) - 1
	i := t.home(key)
	for ; ; i = (i + 1) & mask {
		switch t.slots[i].key {
		case key:
		case 0:
			return 0
		default:
			continue
		}
		break
	}
	if t.slots[i].n--; t.slots[i].n > 0 {
		return t.slots[i].n
	}
	// Backward-shift deletion (Knuth, TAOCP vol. 3, §6.4, Algorithm R):
	// move later entries of the cluster into the hole when their home
	// does not lie cyclically in (hole, their slot].
	t.n--
	hole := i
	for j := (i + 1) & mask; t.slots[j].key != 0; j = (j + 1) & mask {
		h := t.home(t.slots[j].key)
		if (j > hole && (h <= hole || h > j)) || (j < hole && h <= hole && h > j) {
			t.slots[hole] = t.slots[j]
			hole = j
		}
	}
	t.slots[hole] = dfSlot{}
	if len(t.slots) > dfMinSlots && 8*t.n < len(t.slots) {
		t.resize(len(t.slots) / 2)
	}
	return 0
}

// resize rehashes into a table of size slots (a power of two).
func (t *dfTable) resize(size int) {
	old := t.slots
	t.slots = make([]dfSlot, size)
	mask := size - 1
	for _, s := range old {
		if s.key == 0 {
			continue
		}
		i := t.home(s.key)
		for t.slots[i].key != 0 {
			i = (i + 1) & mask
		}
		t.slots[i] = s
	}
}
