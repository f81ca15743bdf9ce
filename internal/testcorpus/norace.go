//go:build !race

package testcorpus

const race = false
