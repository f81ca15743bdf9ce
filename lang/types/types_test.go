package types

import "testing"

func TestString(t *testing.T) {
	tests := []struct {
		t    *Type
		want string
	}{
		{Number, "Number"},
		{NewList(Unknown), "List of Unknown"},
		{NewMap(Text, Any), "Map from Text to Any"},
		{NewOptional(NewMap(Text, Text)), "(Map from Text to Text) or Nothing"},
		{NewMap(Text, NewOptional(Text)), "Map from Text to Text or Nothing"},
		{NewFunction(nil, Unknown), "Function() -> Unknown"},
		{NewFunction([]*Type{Unknown, Unknown}, Unknown), "Function(Unknown, Unknown) -> Unknown"},
		{NewInstance("Dog"), "Instance<Dog>"},
		{NewContainer("Dog"), "Container<Dog>"},
		{NewInterface("I"), "Interface<I>"},
		{NewCustom("Request"), "Request"},
		{NewOptional(Nothing), "Nothing"},
		{NewOptional(NewOptional(Text)), "Text or Nothing"},
	}
	for _, tt := range tests {
		if got := tt.t.String(); got != tt.want {
			t.Errorf("String() = %q, want %q", got, tt.want)
		}
	}
}

func TestCompatible(t *testing.T) {
	ext := func(child, parent string) bool { return child == "Dog" && parent == "Animal" }
	tests := []struct {
		target, source *Type
		want, builtin  bool
	}{
		{Number, Number, true, true},
		{Number, Text, false, false},
		{Text, Number, false, false},
		{Boolean, Number, false, false},
		{Number, Unknown, true, true},
		{Unknown, Text, true, true},
		{Any, NewList(Text), true, true},
		{Number, Any, true, true},
		{Number, Nothing, true, false},
		{Any, Nothing, true, true},
		{NewOptional(Text), Nothing, true, true},
		{NewOptional(Text), Text, true, true},
		{NewOptional(Text), NewOptional(Text), true, true},
		{Text, NewOptional(Text), false, false},
		{Number, Invalid, true, true},
		{Invalid, Number, true, true},
		{NewList(Any), NewList(Number), true, true},
		{NewList(Number), NewList(Text), false, false},
		{NewList(Number), NewList(Unknown), true, true},
		{NewMap(Text, Any), NewList(Number), false, false},
		{NewMap(Text, Any), NewMap(Text, Number), true, true},
		{NewCustom("date"), Date, true, true},
		{NewCustom("DateTime"), DateTime, true, true},
		{NewCustom("date"), Time, false, false},
		{NewCustom("Dog"), NewInstance("Dog"), true, false},
		{NewCustom("Animal"), NewInstance("Dog"), true, false},
		{NewCustom("Dog"), NewInstance("Animal"), false, false},
		{NewInstance("Animal"), NewInstance("Dog"), true, false}, // builtin contracts never name containers
		{NewFunction([]*Type{Number}, Text), NewFunction([]*Type{Number}, Text), true, true},
		{NewFunction([]*Type{Number}, Text), NewFunction(nil, Text), false, false},
		{Number, NewAsync(Number), true, true},
	}
	for _, tt := range tests {
		if got := Compatible(tt.target, tt.source, ext); got != tt.want {
			t.Errorf("Compatible(%s, %s) = %v, want %v", tt.target, tt.source, got, tt.want)
		}
		if got := BuiltinCompatible(tt.target, tt.source); got != tt.builtin && tt.target.Kind != KCustom {
			t.Errorf("BuiltinCompatible(%s, %s) = %v, want %v", tt.target, tt.source, got, tt.builtin)
		}
	}
}

func TestJoin(t *testing.T) {
	tests := []struct {
		a, b *Type
		want string
	}{
		{Number, Number, "Number"},
		{Number, Text, "Any"},
		{Number, Nothing, "Number or Nothing"},
		{Nothing, Nothing, "Nothing"},
		{NewOptional(Text), Nothing, "Text or Nothing"},
		{NewOptional(Text), Number, "Any or Nothing"},
		{Unknown, Any, "Unknown"},
		{Any, Number, "Any"},
		{NewList(Number), NewList(Text), "List of Any"},
		{NewList(Number), NewList(Unknown), "List of Unknown"},
		{NewMap(Text, Number), NewMap(Text, Text), "Map from Text to Any"},
		{Invalid, Number, "Error"},
	}
	for _, tt := range tests {
		if got := Join(tt.a, tt.b).String(); got != tt.want {
			t.Errorf("Join(%s, %s) = %s, want %s", tt.a, tt.b, got, tt.want)
		}
	}
}

func TestFromAnnotation(t *testing.T) {
	for word, want := range map[string]string{"number": "Number", "TEXT": "Text", "Boolean": "Boolean",
		"any": "Any", "date": "Date", "datetime": "datetime", "Dog": "Dog", "pattern": "Pattern"} {
		if got := FromAnnotation(word).String(); got != want {
			t.Errorf("FromAnnotation(%q) = %s, want %s", word, got, want)
		}
	}
}
