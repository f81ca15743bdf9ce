// Package builtins is the registry of every builtin function the WFL reference
// recognizes as a builtin: its name, module, parameters,
// result type, accepted argument counts and a one-line description.
//
// The type checker uses the signatures to check calls; hover, completion and
// signature help use the parameter names and descriptions. 212 names are
// recognized; the 45 that the reference reserves without a runtime
// implementation have Implemented == false and no signatures.
//
// Start with [Lookup] and [Names].
package builtins

import (
	"sort"
	"strings"

	"wfl-lsp/lang/types"
)

// A Param is one parameter of a builtin signature.
type Param struct {
	Name string
	Type *types.Type
}

// A Signature is one accepted parameter list and its result.
type Signature struct {
	Params []Param
	Result *types.Type
}

// A Builtin describes one builtin function.
type Builtin struct {
	Name        string
	Module      string // core, math, random, text, list, pattern, json, toml, web, crypto, filesystem, time, test
	Doc         string // one line, written for hover and completion
	Implemented bool   // false: a reserved name the runtime does not provide
	MinArgs     int
	MaxArgs     int         // -1: variadic
	Variadic    *types.Type // the repeated parameter type of a variadic builtin, else nil
	Signatures  []Signature // overloads in the order the checker tries them; nil when not implemented

	arity int
}

// Result returns the result type of the first signature, or Unknown.
func (b *Builtin) Result() *types.Type {
	if len(b.Signatures) == 0 {
		return types.Unknown
	}
	return b.Signatures[0].Result
}

// ZeroArg reports whether the builtin's canonical arity is zero, so that its
// bare name stands for a call (today, now, random, generate_uuid, ...).
func (b *Builtin) ZeroArg() bool { return b.arity == 0 }

// Arity is the builtin's canonical argument count, as the reference uses it for
// bare-name auto-calls and for display (1 for variadic print).
func (b *Builtin) Arity() int { return b.arity }

// ArityText describes the accepted argument counts as the reference's arity
// message does: "2", "2 to 3", "at least 1".
func (b *Builtin) ArityText() string {
	switch {
	case b.MaxArgs < 0:
		return "at least " + itoa(b.MinArgs)
	case b.MinArgs == b.MaxArgs:
		return itoa(b.MinArgs)
	}
	return itoa(b.MinArgs) + " to " + itoa(b.MaxArgs)
}

// Label formats signature i for signature help: "substring(text as Text, start
// as Number, length as Number) -> Text".
func (b *Builtin) Label(i int) string {
	var sb strings.Builder
	sb.WriteString(b.Name)
	sb.WriteByte('(')
	if i < len(b.Signatures) {
		for j, p := range b.Signatures[i].Params {
			if j > 0 {
				sb.WriteString(", ")
			}
			sb.WriteString(p.Name + " as " + p.Type.String())
		}
		if b.Variadic != nil {
			if len(b.Signatures[i].Params) == 0 {
				sb.WriteString("values as " + b.Variadic.String())
			}
			sb.WriteString(", ...")
		}
		sb.WriteString(") -> " + b.Signatures[i].Result.String())
		return sb.String()
	}
	sb.WriteString(")")
	return sb.String()
}

func itoa(n int) string {
	if n < 0 {
		return "-" + itoa(-n)
	}
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}

var byName = map[string]*Builtin{}
var sortedNames []string

// Lookup returns the builtin called name, or nil. Names are case-sensitive.
func Lookup(name string) *Builtin { return byName[name] }

// IsBuiltin reports whether name is a recognized builtin (implemented or reserved).
func IsBuiltin(name string) bool { return byName[name] != nil }

// Names returns every recognized builtin name, sorted. The slice is shared; do
// not modify it.
func Names() []string { return sortedNames }

// All returns every builtin sorted by name.
func All() []*Builtin {
	out := make([]*Builtin, len(sortedNames))
	for i, n := range sortedNames {
		out[i] = byName[n]
	}
	return out
}

func init() {
	for _, b := range table {
		if byName[b.Name] != nil {
			panic("builtins: duplicate " + b.Name)
		}
		byName[b.Name] = b
		sortedNames = append(sortedNames, b.Name)
	}
	sort.Strings(sortedNames)
}
