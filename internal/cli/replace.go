package cli

// This file implements replaceFile, the one way wfl-lsp writes over a
// user's file (`fmt -w`), so that no failure can leave a truncated program.

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// The file-system calls replaceFile makes that tests make fail the way a
// read-only folder or a full disk does, which permission bits cannot do for
// root.
var (
	createTemp = os.CreateTemp
	writeTemp  = (*os.File).Write
)

// replaceFile replaces the contents of the file at path with data so that
// a crash, a kill or a full disk leaves either the old text or the new one,
// never a mix: it writes data to a temporary file in the file's folder,
// gives it the file's mode, syncs it and renames it over the file. Through
// a symbolic link it replaces the file the link points to; the link stays
// a link. When it fails, the file is as it was and the temporary file is
// gone; the error says which step failed.
//
// The replaced file is a new file (a new inode): other hard links to the
// old one keep the old text. On Unix it keeps the old file's owner and
// group when the process may set them (see keepOwner).
func replaceFile(path string, data []byte) (err error) {
	target, err := filepath.EvalSymlinks(path)
	if err != nil {
		return err
	}
	fi, err := os.Stat(target)
	if err != nil {
		return err
	}
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("%s is not a regular file", target)
	}
	// A file that may not be written is not replaced either, as gofmt
	// does not write it: replacing it needs only the folder's permission.
	// Its mode says so for every user (root may write a file of mode 0444
	// too), mayWrite for this one.
	if fi.Mode().Perm()&0o222 == 0 {
		return fmt.Errorf("%s is read-only (mode %04o); make it writable to format it in place", target, fi.Mode().Perm())
	}
	if err := mayWrite(target); err != nil {
		return fmt.Errorf("it may not be written: %w", err)
	}
	dir := filepath.Dir(target)
	tmp, err := createTemp(dir, ".wfl-lsp-*.tmp")
	if err != nil {
		return fmt.Errorf("creating a temporary file beside it: %w", err)
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if _, err := writeTemp(tmp, data); err != nil {
		return fmt.Errorf("writing the temporary file: %w", err)
	}
	keepOwner(tmp, fi) // before the mode: a change of owner clears set-user-ID
	if err := tmp.Chmod(fi.Mode() & (fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky)); err != nil {
		return fmt.Errorf("giving the temporary file the file's mode: %w", err)
	}
	if err := tmp.Sync(); err != nil {
		return fmt.Errorf("syncing the temporary file: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("closing the temporary file: %w", err)
	}
	if err := os.Rename(tmp.Name(), target); err != nil {
		return fmt.Errorf("renaming the temporary file over it: %w", err)
	}
	// Make the rename itself durable. The new text is in place whatever
	// happens here, so a folder that cannot be synced is not an error.
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
	return nil
}
