package engine

// An idTable maps strings to dense uint32 IDs and back, with removal.
// Freed IDs are reused, the most recently freed first (a stack: O(1), and
// the ID reused is the one whose slots in a caller's ID-indexed slices were
// touched last), so a table that sees an endless stream of insertions and
// deletions stays as large as its live set. A caller that keeps IDs
// elsewhere (posting lists, score rows) must purge them before, or when,
// it deletes the name. An idTable is not safe for concurrent use; the Set
// that holds it is guarded by its detector's lock. The zero
// idTable is empty and ready to use.
type idTable struct {
	byName map[string]uint32
	names  []string
	live   []bool
	free   []uint32
}

// Insert adds name and returns its new ID and true, or the existing ID and
// false if name is already present.
func (t *idTable) Insert(name string) (uint32, bool) {
	if id, ok := t.byName[name]; ok {
		return id, false
	}
	if t.byName == nil {
		t.byName = make(map[string]uint32)
	}
	var id uint32
	if n := len(t.free); n > 0 {
		id = t.free[n-1]
		t.free = t.free[:n-1]
		t.names[id] = name
		t.live[id] = true
	} else {
		id = uint32(len(t.names))
		t.names = append(t.names, name)
		t.live = append(t.live, true)
	}
	t.byName[name] = id
	return id, true
}

// Lookup returns the ID of name.
func (t *idTable) Lookup(name string) (uint32, bool) {
	id, ok := t.byName[name]
	return id, ok
}

// Delete removes name and frees its ID for reuse. It returns the freed ID.
func (t *idTable) Delete(name string) (uint32, bool) {
	id, ok := t.byName[name]
	if !ok {
		return 0, false
	}
	delete(t.byName, name)
	t.names[id] = ""
	t.live[id] = false
	t.free = append(t.free, id)
	return id, true
}

// Name returns the string of a live ID, or "" if id is not live.
func (t *idTable) Name(id uint32) string {
	if int(id) >= len(t.names) {
		return ""
	}
	return t.names[id]
}

// Live reports whether id is currently assigned.
func (t *idTable) Live(id uint32) bool {
	return int(id) < len(t.live) && t.live[id]
}

// Len returns the number of live names.
func (t *idTable) Len() int { return len(t.byName) }

// Cap returns one more than the largest ID ever assigned: the length a slice
// indexed by ID needs.
func (t *idTable) Cap() int { return len(t.names) }
