//go:build !linux

package cli

import "os"

// GrowPipe does nothing where pipe buffers cannot be resized.
func GrowPipe(*os.File) {}
