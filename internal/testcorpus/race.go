//go:build race

package testcorpus

const race = true
