//go:build race

package mcpserver

// raceDetector is set when the tests run under the race detector: the
// corpus properties then take a smaller sample.
const raceDetector = true
