package core

// This file keeps the analyses Workspace.Load makes of files that are not
// open. The cross-file requests (references and rename of a name an
// included file declares, its code lens's count, hover and definition
// through includes) load every file of a family at each request: 2,000
// files that include one library were analysed again at each references
// request (about 0.5 s on the 2-processor machine the budgets are measured
// on). A loaded analysis is kept with its file's size and modification
// time and the own analysis of each file its includes read (open or on the
// disk), and is given again while the file has the same size and time and
// each included file still gives the same: the disk's files are read again
// when their size or modification time change (FileAccess.cached), an open
// document at each version, so an analysis made from anything that changed
// since is made again.

import (
	"sync"
)

// loadedBytes bounds the text of the files whose loaded analyses are kept
// (an analysis takes some tens of times its text); the oldest go first.
const loadedBytes = 4 << 20

// loadCache holds a workspace's loaded analyses, by clean path.
type loadCache struct {
	mu    sync.Mutex
	files map[string]*loaded
	order []string // the paths in the order they were stored
	bytes int64
}

// A loaded is the analysis of a file that is not open, with the own
// analyses it was made from.
type loaded struct {
	a           *Analysis
	size, mtime int64                // the file's when it was read
	read        map[string]*Analysis // each file its includes read, with what was read (nil: not readable)
}

// recorder is an includeSource that notes what it gives.
type recorder struct {
	src  includeSource
	mu   sync.Mutex
	read map[string]*Analysis
}

func (r *recorder) own(path string) (*Analysis, error) {
	a, err := r.src.own(path)
	r.mu.Lock()
	r.read[path] = a // nil with the error
	r.mu.Unlock()
	return a, err
}

// loadFile returns the analysis of the file at path, not open, as the
// workspace reads its includes: the one kept when nothing it was made from
// changed, else a new one, kept.
func (w *Workspace) loadFile(path string) (*Analysis, bool) {
	st, err := w.files.Stat(path)
	if err != nil {
		return nil, false
	}
	c := &w.loaded
	c.mu.Lock()
	l := c.files[path]
	c.mu.Unlock()
	if l != nil && l.size == st.Size() && l.mtime == st.ModTime().UnixNano() && w.unchanged(l.read) {
		return l.a, true
	}
	b, st, err := w.files.read(path)
	if err != nil {
		return nil, false
	}
	rec := &recorder{src: w, read: map[string]*Analysis{}}
	s := &Snapshot{URI: FileURI(path), Text: string(b), src: rec}
	l = &loaded{a: s.Analysis(), read: rec.read, size: st.Size(), mtime: st.ModTime().UnixNano()}
	c.store(path, l)
	return l.a, true
}

// unchanged reports whether every file in read still gives the workspace
// the own analysis it gave.
func (w *Workspace) unchanged(read map[string]*Analysis) bool {
	for p, was := range read {
		if now, _ := w.own(p); now != was {
			return false
		}
	}
	return true
}

// store keeps l for path, dropping the oldest ones past loadedBytes.
func (c *loadCache) store(path string, l *loaded) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.files == nil {
		c.files = map[string]*loaded{}
	}
	if old, ok := c.files[path]; ok {
		c.bytes -= old.size
	} else {
		c.order = append(c.order, path)
	}
	c.files[path] = l
	c.bytes += l.size
	for c.bytes > loadedBytes && len(c.order) > 1 {
		oldest := c.order[0]
		c.order = c.order[1:]
		if o, ok := c.files[oldest]; ok {
			c.bytes -= o.size
			delete(c.files, oldest)
		}
	}
}
