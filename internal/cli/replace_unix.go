//go:build unix

package cli

import (
	"os"
	"syscall"
)

// keepOwner gives f the owner and group of the file fi describes. Root may
// always; another user only when the file is theirs and the group one of
// theirs, and otherwise f keeps the user's own (the failure is not an
// error: the text is what matters).
func keepOwner(f *os.File, fi os.FileInfo) {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		f.Chown(int(st.Uid), int(st.Gid))
	}
}

// mayWrite reports, as an error, when this process may not write the file
// at path (access(2) with W_OK).
func mayWrite(path string) error {
	if err := syscall.Access(path, 2); err != nil { // W_OK
		return &os.PathError{Op: "access", Path: path, Err: err}
	}
	return nil
}
