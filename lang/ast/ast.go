// Package ast declares the syntax tree of WFL programs. (Being built.)
package ast

// A File is the tree of one WFL document.
type File struct{}
