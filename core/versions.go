package core

// This file finds the open document at a file path, so that an adapter
// can say which version of each file a cross-file answer was computed on.

import "path/filepath"

// OpenSnapshot returns the current snapshot of the open document at path,
// or false when no open document has that path (Load then reads the disk).
func (w *Workspace) OpenSnapshot(path string) (*Snapshot, bool) {
	u, ok := w.byPath.Load(filepath.Clean(path))
	if !ok {
		return nil, false
	}
	return w.docs.Load(u)
}
