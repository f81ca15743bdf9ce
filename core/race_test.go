//go:build race

package core

// raceDetector is set when the tests run under the race detector: the
// heaviest properties then take a smaller sample (run them without it for
// the whole corpus; CI does both).
const raceDetector = true
