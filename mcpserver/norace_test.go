//go:build !race

package mcpserver

const raceDetector = false
