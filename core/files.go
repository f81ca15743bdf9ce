package core

// This file is the one way wfl-lsp reads files. The core's included files,
// the language server's workspace scan and the files it loads that are not
// open, the MCP server's tools, resources and templates, and the `check`
// and `fmt` commands all read through a FileAccess.
//
// Every FileAccess reads regular files only, of at most MaxFileSize bytes:
// a named pipe, a device, a socket or a folder, or a symbolic link to one,
// is never opened for reading. Its type is checked before it is opened, and
// it is opened without blocking (O_NONBLOCK) and checked again on the open
// file (fstat), so that a file swapped for a pipe between the two is still
// refused rather than waited on. `include from "/dev/stdin"` therefore
// never reads the language server's own input, and `/dev/zero` is refused
// before a byte of it is read. A file larger than the limit is reported,
// not read; one that grows while it is read is cut at the limit and
// reported too.
//
// AnyFile reads such a file wherever it is: the language server and the
// command line follow includes wherever they point, as `wfl` does. Confine
// reads only inside some folders (the MCP server's workspace), and only WFL
// files there (`*.wfl`, `.wflcfg`) outside hidden folders: a path is
// checked by its spelling first (outside the folders, not a WFL file, in a
// hidden folder), so what is refused on those grounds says nothing about
// what exists; then the file is opened through an os.Root, which refuses a
// path or a symbolic link that leaves the folder at the moment of opening,
// so no check made before the open can be raced.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// MaxFileSize is the largest file any FileAccess reads: 16 MiB.
const MaxFileSize = 16 << 20

// Why a FileAccess did not read a file (a FileError's Err; the system's
// own errors, fs.ErrNotExist and fs.ErrPermission among them, are kept
// as they are).
var (
	ErrNotRegular = errors.New("not a regular file")
	ErrTooLarge   = errors.New("larger than the 16 MiB limit")
	ErrOutside    = errors.New("outside the workspace")
	ErrNotWFL     = errors.New("not a WFL file")
	ErrHidden     = errors.New("in a hidden folder")
)

// A FileError is a file a FileAccess did not read, and why.
type FileError struct {
	Path string
	Err  error
	What string // with ErrNotRegular: what the file is ("a named pipe (FIFO)", "a device", ...)
	Size int64  // with ErrTooLarge: its size, when known
}

func (e *FileError) Error() string { return e.Path + " " + e.Reason() }

func (e *FileError) Unwrap() error { return e.Err }

// Reason says why the file was not read, without its name.
func (e *FileError) Reason() string {
	switch {
	case errors.Is(e.Err, ErrNotRegular):
		return "is " + e.What + ", not a regular file"
	case errors.Is(e.Err, ErrTooLarge):
		if e.Size > MaxFileSize {
			return fmt.Sprintf("is %s, more than the %s a file may have; it is not read", sizeText(e.Size), sizeText(MaxFileSize))
		}
		return fmt.Sprintf("is larger than the %s a file may have; it is not read", sizeText(MaxFileSize))
	case errors.Is(e.Err, ErrOutside):
		return "is outside the workspace"
	case errors.Is(e.Err, ErrNotWFL):
		return "is not a WFL file (*.wfl or .wflcfg)"
	case errors.Is(e.Err, ErrHidden):
		return "is in a hidden folder"
	case errors.Is(e.Err, fs.ErrNotExist):
		return "does not exist"
	case errors.Is(e.Err, fs.ErrPermission):
		return "cannot be read: permission denied"
	}
	err := e.Err
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return "cannot be read: " + err.Error()
}

func sizeText(n int64) string {
	if n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
}

// kindOf names what a file that is not a regular file is.
func kindOf(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a folder"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	}
	return "a special file"
}

// A FileAccess reads files (see the file comment): AnyFile or one made by
// Confine. It also keeps the analyses of the files read through it for
// included files, while their size and modification time stay the same.
type FileAccess struct {
	roots []fileRoot // none: any regular file

	mu    sync.Mutex
	files map[string]diskFile // included files' analyses, by path
}

type fileRoot struct {
	path string // absolute, clean, links resolved
	root *os.Root
}

// disk is AnyFile's access: the files included by documents outside any
// workspace (`wfl-lsp check`) and by the language server's.
var disk = &FileAccess{}

// AnyFile returns the access that reads any regular file of at most
// MaxFileSize bytes, wherever it is: the language server's and the
// command line's.
func AnyFile() *FileAccess { return disk }

// Confine returns an access that reads only the WFL files inside folders
// (absolute or relative to the current folder), outside hidden folders,
// through an os.Root for each folder.
func Confine(folders ...string) (*FileAccess, error) {
	fa := &FileAccess{}
	for _, f := range folders {
		abs, err := filepath.Abs(f)
		if err != nil {
			return nil, err
		}
		if real, err := filepath.EvalSymlinks(abs); err == nil {
			abs = real
		}
		r, err := os.OpenRoot(abs)
		if err != nil {
			return nil, err
		}
		fa.roots = append(fa.roots, fileRoot{path: filepath.Clean(abs), root: r})
	}
	if len(fa.roots) == 0 {
		return nil, errors.New("no folder to confine the access to")
	}
	return fa, nil
}

// Confined reports whether the access reads only inside some folders.
func (fa *FileAccess) Confined() bool { return len(fa.roots) > 0 }

// within returns the folder holding path and path relative to it, or why
// the path may not be read, by its spelling alone: outside the folders, in
// a hidden folder, or (when file is set) not a WFL file.
func (fa *FileAccess) within(path string, file bool) (*fileRoot, string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, "", err
	}
	for i := range fa.roots {
		r := &fa.roots[i]
		rel, err := filepath.Rel(r.path, abs)
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			continue
		}
		if err := allowedName(rel, file); err != nil {
			return nil, "", err
		}
		return r, rel, nil
	}
	return nil, "", ErrOutside
}

// allowedName checks a path relative to a folder of a confined access:
// no hidden folder on the way, and a WFL file's name when file is set.
func allowedName(rel string, file bool) error {
	parts := strings.Split(filepath.ToSlash(rel), "/")
	dirs := parts
	if file {
		dirs = parts[:len(parts)-1]
	}
	for _, p := range dirs {
		if p != "." && strings.HasPrefix(p, ".") {
			return ErrHidden
		}
	}
	if file {
		name := parts[len(parts)-1]
		if name != ConfigFileName && !strings.HasSuffix(name, ".wfl") {
			return ErrNotWFL
		}
	}
	return nil
}

// maxLinks bounds the symbolic links followed for one path.
const maxLinks = 16

// checkLinks follows the symbolic links that the last element of rel is
// (inside r), checking that each names a file the access may read: a link
// `notes.wfl -> .env` reads no more than `.env` would. The open that
// follows goes through the os.Root, which refuses whatever leaves it.
func (fa *FileAccess) checkLinks(r *fileRoot, rel string) error {
	for range maxLinks {
		fi, err := r.root.Lstat(rel)
		if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			return nil // the open reports it
		}
		target, err := r.root.Readlink(rel)
		if err != nil {
			return nil
		}
		if filepath.IsAbs(target) {
			return ErrOutside // os.Root refuses absolute links too
		}
		rel = filepath.Join(filepath.Dir(rel), target)
		if rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return ErrOutside
		}
		if err := allowedName(rel, true); err != nil {
			return err
		}
	}
	return nil
}

// escapes reports whether err is os.Root's refusal of a path or a link
// that leaves it.
func escapes(err error) bool {
	var pe *fs.PathError
	return errors.As(err, &pe) && pe.Err != nil && pe.Err.Error() == "path escapes from parent"
}

// fail makes the FileError of path.
func fail(path string, err error) error {
	if escapes(err) {
		err = ErrOutside
	}
	var pe *fs.PathError
	if errors.As(err, &pe) && !errors.Is(err, ErrOutside) {
		err = pe.Err // the path is said once, by the FileError
		if errors.Is(err, fs.ErrNotExist) {
			err = fs.ErrNotExist
		} else if errors.Is(err, fs.ErrPermission) {
			err = fs.ErrPermission
		}
	}
	return &FileError{Path: path, Err: err}
}

// Stat returns what the file at path is, following symbolic links, when
// the access may read it: a FileError for a file it may not read, and
// for one that is not a regular file (ErrNotRegular).
func (fa *FileAccess) Stat(path string) (fs.FileInfo, error) {
	var fi fs.FileInfo
	var err error
	if fa.Confined() {
		r, rel, werr := fa.within(path, true)
		if werr != nil {
			return nil, &FileError{Path: path, Err: werr}
		}
		if lerr := fa.checkLinks(r, rel); lerr != nil {
			return nil, &FileError{Path: path, Err: lerr}
		}
		fi, err = r.root.Stat(rel)
	} else {
		fi, err = os.Stat(path)
	}
	if err != nil {
		return nil, fail(path, err)
	}
	if !fi.Mode().IsRegular() {
		return fi, &FileError{Path: path, Err: ErrNotRegular, What: kindOf(fi.Mode())}
	}
	return fi, nil
}

// ReadFile reads the file at path, when the access may (see Stat): its
// bytes, or a FileError saying why not.
func (fa *FileAccess) ReadFile(path string) ([]byte, error) {
	b, _, err := fa.read(path)
	return b, err
}

// read is ReadFile, with what the open file is.
func (fa *FileAccess) read(path string) ([]byte, fs.FileInfo, error) {
	fi, err := fa.Stat(path) // a pipe or a device is never opened
	if err != nil {
		return nil, nil, err
	}
	if fi.Size() > MaxFileSize {
		return nil, nil, &FileError{Path: path, Err: ErrTooLarge, Size: fi.Size()}
	}
	var f *os.File
	if fa.Confined() {
		r, rel, _ := fa.within(path, true)
		f, err = r.root.OpenFile(rel, os.O_RDONLY|openNonblock, 0)
	} else {
		f, err = os.OpenFile(path, os.O_RDONLY|openNonblock, 0)
	}
	if err != nil {
		return nil, nil, fail(path, err)
	}
	defer f.Close()
	// What was opened may not be what was checked: check it again.
	fi, err = f.Stat()
	if err != nil {
		return nil, nil, fail(path, err)
	}
	if !fi.Mode().IsRegular() {
		return nil, nil, &FileError{Path: path, Err: ErrNotRegular, What: kindOf(fi.Mode())}
	}
	if fi.Size() > MaxFileSize {
		return nil, nil, &FileError{Path: path, Err: ErrTooLarge, Size: fi.Size()}
	}
	b, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1))
	if err != nil {
		return nil, nil, fail(path, err)
	}
	if len(b) > MaxFileSize {
		return nil, nil, &FileError{Path: path, Err: ErrTooLarge}
	}
	return b, fi, nil
}

// ReadDir lists the folder at dir, when the access may read inside it: for
// a confined access, a folder inside its folders, not hidden, and without
// the hidden entries.
func (fa *FileAccess) ReadDir(dir string) ([]fs.DirEntry, error) {
	if !fa.Confined() {
		return os.ReadDir(dir)
	}
	r, rel, err := fa.within(dir, false)
	if err != nil {
		return nil, &FileError{Path: dir, Err: err}
	}
	f, err := r.root.Open(rel)
	if err != nil {
		return nil, fail(dir, err)
	}
	defer f.Close()
	entries, err := f.ReadDir(-1)
	if err != nil {
		return nil, fail(dir, err)
	}
	kept := entries[:0]
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), ".") || e.Name() == ConfigFileName {
			kept = append(kept, e)
		}
	}
	return kept, nil
}

// WFLFiles calls visit with the path of every *.wfl file below the folder
// root that the access may read, in lexical order, until visit returns
// false: folders SkipDir names are left out, and so are entries that are
// not regular files (a link is followed to see what it names; a link to a
// folder is not walked). A folder below root that cannot be read is given
// to visit with its error, and skipped; the error of root itself is
// returned.
func (fa *FileAccess) WFLFiles(root string, visit func(path string, err error) bool) error {
	if fa.Confined() {
		if _, _, err := fa.within(root, false); err != nil {
			return &FileError{Path: root, Err: err}
		}
	}
	fi, err := os.Lstat(root)
	if err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		fi, err = fa.StatDir(root)
	}
	if err != nil {
		return fail(root, err)
	}
	if !fi.IsDir() {
		return &FileError{Path: root, Err: ErrNotRegular, What: "not a folder"}
	}
	stop := errors.New("stop")
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == root {
				return err
			}
			if !visit(p, err) {
				return stop
			}
			return nil
		}
		if d.IsDir() {
			if p != root && SkipDir(d.Name()) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(d.Name(), ".wfl") {
			return nil
		}
		if d.Type()&fs.ModeSymlink != 0 || fa.Confined() {
			if _, err := fa.Stat(p); err != nil {
				return nil
			}
		} else if !d.Type().IsRegular() {
			return nil
		}
		if !visit(p, nil) {
			return stop
		}
		return nil
	})
	if err == stop {
		return nil
	}
	if err != nil {
		return fail(root, err)
	}
	return nil
}

// StatDir returns what the folder at dir is, when the access may read in
// it (for a confined access: inside its folders, not hidden).
func (fa *FileAccess) StatDir(dir string) (fs.FileInfo, error) {
	var fi fs.FileInfo
	var err error
	if fa.Confined() {
		r, rel, werr := fa.within(dir, false)
		if werr != nil {
			return nil, &FileError{Path: dir, Err: werr}
		}
		fi, err = r.root.Stat(rel)
	} else {
		fi, err = os.Stat(dir)
	}
	if err != nil {
		return nil, fail(dir, err)
	}
	return fi, nil
}

// IsLink reports whether the last element of path is a symbolic link.
func IsLink(path string) bool {
	fi, err := os.Lstat(path)
	return err == nil && fi.Mode()&fs.ModeSymlink != 0
}

// NewSnapshot returns a snapshot of text that belongs to no workspace,
// whose includes are read through the access.
func (fa *FileAccess) NewSnapshot(uri URI, version int32, text string) *Snapshot {
	return &Snapshot{URI: uri, Version: version, Text: text, src: fa}
}

// NewSnapshotContext is [NewSnapshotContext] for a snapshot whose includes
// are read through fa.
func (fa *FileAccess) NewSnapshotContext(ctx context.Context, uri URI, version int32, text string) *Snapshot {
	s := fa.NewSnapshot(uri, version, text)
	s.ctx = ctx
	return s
}

// A diskFile is the analysis of an included file read from the disk, with
// the size and modification time it had when it was read.
type diskFile struct {
	size     int64
	mtime    int64
	a        *Analysis
	includes []string // the files it includes
}

// own implements includeSource: the analysis, that does not follow its
// includes, of the file at path read through the access.
func (fa *FileAccess) own(path string) (*Analysis, error) {
	f, err := fa.cached(path)
	if err != nil {
		return nil, err
	}
	return f.a, nil
}

// cached returns the file at path as read through the access, read again
// when its size or modification time changed.
func (fa *FileAccess) cached(path string) (diskFile, error) {
	st, err := fa.Stat(path)
	if err != nil {
		return diskFile{}, err
	}
	fa.mu.Lock()
	f, ok := fa.files[path]
	fa.mu.Unlock()
	if ok && f.size == st.Size() && f.mtime == st.ModTime().UnixNano() {
		return f, nil
	}
	b, st, err := fa.read(path)
	if err != nil {
		return diskFile{}, err
	}
	a, _ := analyze(FileURI(path), string(b), nil)
	_, incs := includeStmts(a.File, path)
	f = diskFile{size: st.Size(), mtime: st.ModTime().UnixNano(), a: a, includes: incs}
	fa.mu.Lock()
	if fa.files == nil {
		fa.files = map[string]diskFile{}
	}
	fa.files[path] = f
	fa.mu.Unlock()
	return f, nil
}

// Files returns the access through which the snapshot's includes are read
// (its workspace's, confined to the session's folders for MCP), for what
// else a feature reads of the disk about them; nil when it reads none.
func (s *Snapshot) Files() *FileAccess {
	switch src := s.src.(type) {
	case *Workspace:
		return src.files
	case *FileAccess:
		return src
	}
	return nil
}
