// Package types represents the static types of WFL values, as the reference's
// type checker has them, and the relations the type checker needs between
// them: compatibility ([Compatible]), the stricter builtin-argument
// compatibility, and the join of two branch types ([Join]).
//
// A *Type is immutable and may be shared freely. The basic types are package
// variables (Number, Text, ...); structured types are made with the constructors
// (NewList, NewMap, NewOptional, NewFunction, ...). Compare types with Identical,
// never with ==, except against the basic singletons.
//
// Start with [Type], [Compatible] and [Join].
package types

import "strings"

// Kind says which sort of type a Type is.
type Kind uint8

const (
	KInvalid   Kind = iota // poison after a reported error; compatible with everything
	KUnknown               // not enough evidence (untyped parameter, element of [])
	KAny                   // a genuine dynamic union (JSON values)
	KNumber                //
	KText                  //
	KBoolean               //
	KNothing               //
	KPattern               //
	KDate                  //
	KTime                  //
	KDateTime              //
	KBinary                //
	KList                  // Elem
	KMap                   // Key, Elem
	KOptional              // Elem or Nothing
	KFunction              // Params -> Result
	KContainer             // the container itself (static members), Name
	KInstance              // an instance of container Name
	KInterface             // Name
	KCustom                // any other named type: Request, File, datetime, ...
	KAsync                 // Elem; never produced by the parser
)

// A Type is one WFL type. The zero value is not meaningful; use the variables
// and constructors of this package.
type Type struct {
	Kind   Kind
	Elem   *Type   // List, Optional, Async: element; Map: value
	Key    *Type   // Map: key
	Params []*Type // Function
	Result *Type   // Function
	Name   string  // Container, Instance, Interface, Custom
}

// The basic types.
var (
	Invalid  = &Type{Kind: KInvalid}
	Unknown  = &Type{Kind: KUnknown}
	Any      = &Type{Kind: KAny}
	Number   = &Type{Kind: KNumber}
	Text     = &Type{Kind: KText}
	Boolean  = &Type{Kind: KBoolean}
	Nothing  = &Type{Kind: KNothing}
	Pattern  = &Type{Kind: KPattern}
	Date     = &Type{Kind: KDate}
	Time     = &Type{Kind: KTime}
	DateTime = &Type{Kind: KDateTime}
	Binary   = &Type{Kind: KBinary}
)

// Escaped returns Any for a variable that held a value of type was before
// code the checker does not follow ran (a method's call, say), which may
// have put anything there. It is Any to every rule; Known gives was back,
// for what an editor shows and navigates by.
func Escaped(was *Type) *Type {
	was = Known(was)
	if was == nil || was.IsGradual() {
		return Any
	}
	return &Type{Kind: KAny, Elem: was}
}

// Known returns the type an Escaped type was made from, else t.
func Known(t *Type) *Type {
	if t != nil && t.Kind == KAny && t.Elem != nil {
		return t.Elem
	}
	return t
}

// NewList returns List of elem.
func NewList(elem *Type) *Type { return &Type{Kind: KList, Elem: elem} }

// NewMap returns Map from key to val.
func NewMap(key, val *Type) *Type { return &Type{Kind: KMap, Key: key, Elem: val} }

// NewOptional returns "elem or Nothing". Optional of Optional or of Nothing
// collapses, as the reference's optionalize does.
func NewOptional(elem *Type) *Type {
	if elem.Kind == KOptional || elem.Kind == KNothing {
		return elem
	}
	return &Type{Kind: KOptional, Elem: elem}
}

// NewFunction returns Function(params) -> result.
func NewFunction(params []*Type, result *Type) *Type {
	return &Type{Kind: KFunction, Params: params, Result: result}
}

// NewContainer returns the type of container name itself.
func NewContainer(name string) *Type { return &Type{Kind: KContainer, Name: name} }

// NewInstance returns the type of an instance of container name.
func NewInstance(name string) *Type { return &Type{Kind: KInstance, Name: name} }

// NewInterface returns the type of interface name.
func NewInterface(name string) *Type { return &Type{Kind: KInterface, Name: name} }

// NewCustom returns the named type name (Request, File, a container name in an
// annotation, ...).
func NewCustom(name string) *Type { return &Type{Kind: KCustom, Name: name} }

// NewAsync returns Async<elem>.
func NewAsync(elem *Type) *Type { return &Type{Kind: KAsync, Elem: elem} }

// FromAnnotation maps a type word written in a parameter, property or return
// annotation to a type: the primitive names case-insensitively, "list"/"List"
// to List of Any, anything else to Custom(word).
func FromAnnotation(word string) *Type {
	switch strings.ToLower(word) {
	case "number":
		return Number
	case "text":
		return Text
	case "boolean":
		return Boolean
	case "nothing":
		return Nothing
	case "pattern":
		return Pattern
	case "any":
		return Any
	case "date":
		return Date
	case "time":
		return Time
	case "binary":
		return Binary
	}
	return NewCustom(word)
}

// String formats t as the reference's messages do: "Number", "List of Text",
// "Map from Text to Any", "Text or Nothing", "(List of Text) or Nothing",
// "Function(Number) -> Text",
// "Container<C>", "Instance<C>", "Interface<I>", custom names verbatim.
func (t *Type) String() string {
	var b strings.Builder
	t.write(&b)
	return b.String()
}

func (t *Type) write(b *strings.Builder) {
	if t == nil {
		b.WriteString("Unknown")
		return
	}
	switch t.Kind {
	case KInvalid:
		b.WriteString("Error")
	case KUnknown:
		b.WriteString("Unknown")
	case KAny:
		b.WriteString("Any")
	case KNumber:
		b.WriteString("Number")
	case KText:
		b.WriteString("Text")
	case KBoolean:
		b.WriteString("Boolean")
	case KNothing:
		b.WriteString("Nothing")
	case KPattern:
		b.WriteString("Pattern")
	case KDate:
		b.WriteString("Date")
	case KTime:
		b.WriteString("Time")
	case KDateTime:
		b.WriteString("DateTime")
	case KBinary:
		b.WriteString("Binary")
	case KList:
		b.WriteString("List of ")
		t.Elem.write(b)
	case KMap:
		b.WriteString("Map from ")
		t.Key.write(b)
		b.WriteString(" to ")
		t.Elem.write(b)
	case KOptional:
		// "(Map from Text to Text) or Nothing", not a map of optional
		// values.
		paren := t.Elem != nil && (t.Elem.Kind == KList || t.Elem.Kind == KMap || t.Elem.Kind == KFunction)
		if paren {
			b.WriteString("(")
		}
		t.Elem.write(b)
		if paren {
			b.WriteString(")")
		}
		b.WriteString(" or Nothing")
	case KFunction:
		b.WriteString("Function(")
		for i, p := range t.Params {
			if i > 0 {
				b.WriteString(", ")
			}
			p.write(b)
		}
		b.WriteString(") -> ")
		t.Result.write(b)
	case KContainer:
		b.WriteString("Container<" + t.Name + ">")
	case KInstance:
		b.WriteString("Instance<" + t.Name + ">")
	case KInterface:
		b.WriteString("Interface<" + t.Name + ">")
	case KCustom:
		b.WriteString(t.Name)
	case KAsync:
		b.WriteString("Async<")
		t.Elem.write(b)
		b.WriteString(">")
	}
}

// Identical reports whether a and b are the same type structurally.
func Identical(a, b *Type) bool {
	if a == b {
		return true
	}
	if a == nil || b == nil || a.Kind != b.Kind || a.Name != b.Name {
		return false
	}
	switch a.Kind {
	case KList, KOptional, KAsync:
		return Identical(a.Elem, b.Elem)
	case KMap:
		return Identical(a.Key, b.Key) && Identical(a.Elem, b.Elem)
	case KFunction:
		if len(a.Params) != len(b.Params) {
			return false
		}
		for i := range a.Params {
			if !Identical(a.Params[i], b.Params[i]) {
				return false
			}
		}
		return Identical(a.Result, b.Result)
	}
	return true
}

// IsGradual reports whether t is Unknown, Any or Invalid: types that accept and
// are accepted by everything.
func (t *Type) IsGradual() bool {
	return t == nil || t.Kind == KUnknown || t.Kind == KAny || t.Kind == KInvalid
}

// Extends reports whether container child is parent or inherits from it. The
// checker provides it; nil means only equal names are related.
type Extends func(child, parent string) bool

// Compatible reports whether a value of type source may be stored where target
// is expected (declarations, assignments, user action arguments, returns), by
// the reference's rules: gradual types on either side, Nothing into anything, Optional only into
// Optional, element-wise lists and maps, date/time custom names either way, and container
// instances into their own or an ancestor container's name.
func Compatible(target, source *Type, ext Extends) bool {
	if Identical(target, source) {
		return true
	}
	if target == nil || source == nil {
		return true
	}
	switch {
	case target.Kind == KUnknown || source.Kind == KUnknown:
		return true
	case target.Kind == KAny || source.Kind == KAny:
		return true
	case target.Kind == KOptional && source.Kind == KOptional:
		return Compatible(target.Elem, source.Elem, ext)
	case target.Kind == KOptional && source.Kind == KNothing:
		return true
	case target.Kind == KOptional:
		return Compatible(target.Elem, source, ext)
	case source.Kind == KOptional:
		return false
	case source.Kind == KNothing, source.Kind == KInvalid, target.Kind == KInvalid:
		return true
	case source.Kind == KAsync:
		return Compatible(target, source.Elem, ext)
	}
	// A container named like a built-in date or time type (`as DateTime`
	// written as a name) is that type, either way round.
	if target.Kind == KCustom && isDateKind(source.Kind) {
		return strings.EqualFold(target.Name, source.String())
	}
	if source.Kind == KCustom && isDateKind(target.Kind) {
		return strings.EqualFold(source.Name, target.String())
	}
	switch {
	case target.Kind == KList && source.Kind == KList:
		return Compatible(target.Elem, source.Elem, ext)
	case target.Kind == KMap && source.Kind == KMap:
		return Compatible(target.Key, source.Key, ext) && Compatible(target.Elem, source.Elem, ext)
	case target.Kind == KFunction && source.Kind == KFunction:
		if len(target.Params) != len(source.Params) {
			return false
		}
		for i := range target.Params {
			if !Compatible(target.Params[i], source.Params[i], ext) {
				return false
			}
		}
		return Compatible(target.Result, source.Result, ext)
	case (target.Kind == KCustom && source.Kind == KInstance) ||
		(target.Kind == KInstance && source.Kind == KInstance) ||
		(target.Kind == KCustom && source.Kind == KCustom):
		if target.Name == source.Name {
			return true
		}
		return ext != nil && ext(source.Name, target.Name)
	}
	return false
}

// BuiltinCompatible reports whether an argument of type arg satisfies a builtin
// parameter of type param. It is stricter than Compatible: Nothing is accepted
// only by gradual, Nothing or Optional parameters, and a Custom parameter never
// accepts a container instance.
func BuiltinCompatible(param, arg *Type) bool {
	if param == nil || arg == nil {
		return true
	}
	if arg.Kind == KNothing {
		switch param.Kind {
		case KAny, KUnknown, KNothing, KOptional:
			return true
		}
		return false
	}
	if param.Kind == KCustom && arg.Kind == KInstance {
		return false
	}
	return Compatible(param, arg, nil)
}

// Join is the type of a value that has type a on one path and b on another,
// as the reference's flow-sensitive typing joins branches: equal types stay; Invalid poisons; Nothing with T gives T or Nothing;
// Unknown dominates Any; lists, maps and async values join element-wise;
// anything else is Any.
func Join(a, b *Type) *Type {
	if a == nil {
		return b
	}
	if b == nil {
		return a
	}
	if Identical(a, b) {
		return a
	}
	switch {
	case a.Kind == KInvalid || b.Kind == KInvalid:
		return Invalid
	case a.Kind == KOptional && b.Kind == KOptional:
		return NewOptional(Join(a.Elem, b.Elem))
	case a.Kind == KOptional && b.Kind == KNothing:
		return a
	case a.Kind == KNothing && b.Kind == KOptional:
		return b
	case a.Kind == KOptional:
		return NewOptional(Join(a.Elem, b))
	case b.Kind == KOptional:
		return NewOptional(Join(a, b.Elem))
	case a.Kind == KUnknown || b.Kind == KUnknown:
		return Unknown
	case a.Kind == KAny || b.Kind == KAny:
		return Any
	case a.Kind == KNothing:
		return NewOptional(b)
	case b.Kind == KNothing:
		return NewOptional(a)
	case a.Kind == KList && b.Kind == KList:
		return NewList(Join(a.Elem, b.Elem))
	case a.Kind == KMap && b.Kind == KMap:
		return NewMap(Join(a.Key, b.Key), Join(a.Elem, b.Elem))
	case a.Kind == KAsync && b.Kind == KAsync:
		return NewAsync(Join(a.Elem, b.Elem))
	}
	return Any
}

// isDateKind reports whether k is one of the built-in date and time types.
func isDateKind(k Kind) bool { return k == KDate || k == KTime || k == KDateTime }
