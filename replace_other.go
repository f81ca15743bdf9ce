//go:build !unix

package main

import "os"

// keepOwner does nothing where files have no Unix owner.
func keepOwner(f *os.File, fi os.FileInfo) {}
