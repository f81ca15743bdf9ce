package builtins

import (
	"sort"
	"testing"
)

func TestCounts(t *testing.T) {
	impl := 0
	for _, b := range All() {
		if b.Implemented {
			impl++
			if len(b.Signatures) == 0 {
				t.Errorf("%s: implemented without signatures", b.Name)
			}
		} else if len(b.Signatures) != 0 {
			t.Errorf("%s: reserved with signatures", b.Name)
		}
		if b.Doc == "" || b.Module == "" {
			t.Errorf("%s: missing doc or module", b.Name)
		}
	}
	if got := len(Names()); got != 212 {
		t.Errorf("recognized = %d, want 212", got)
	}
	if impl != 167 {
		t.Errorf("implemented = %d, want 167", impl)
	}
	if !sort.StringsAreSorted(Names()) {
		t.Error("Names not sorted")
	}
}

func TestLookup(t *testing.T) {
	tests := []struct {
		name        string
		implemented bool
		arity       string
		zeroArg     bool
		result      string
		label       string
	}{
		{"length", true, "1", false, "Number", "length(value as List of Any) -> Number"},
		{"substring", true, "3", false, "Text", "substring(text as Text, start as Number, length as Number) -> Text"},
		{"print", true, "at least 0", false, "Nothing", "print(values as Any, ...) -> Nothing"},
		{"path_join", true, "at least 1", false, "Text", "path_join(part as Text, ...) -> Text"},
		{"create_time", true, "2 to 3", false, "Time", "create_time(hour as Number, minute as Number) -> Time"},
		{"create_datetime", true, "3 to 6", false, "DateTime", "create_datetime(year as Number, month as Number, day as Number) -> DateTime"},
		{"timestamp", true, "0 to 1", false, "Number", "timestamp() -> Number"},
		{"remove_dir", true, "1 to 2", false, "Nothing", "remove_dir(path as Text) -> Nothing"},
		{"seal", true, "2 to 3", false, "Text", "seal(plaintext as Text, key as Text) -> Text"},
		{"today", true, "0", true, "Date", "today() -> Date"},
		{"random", true, "0", true, "Number", "random() -> Number"},
		{"find", true, "2", false, "Any or Nothing", "find(list as List of Any, value as Any) -> Any or Nothing"},
		{"path_params", true, "2", false, "(Map from Text to Text) or Nothing", "path_params(path as Text, template as Text) -> (Map from Text to Text) or Nothing"},
		{"filter", false, "2", false, "Unknown", "filter()"},
		{"time", false, "0", true, "Unknown", "time()"},
		{"helper_function", false, "1", false, "Unknown", "helper_function()"},
	}
	for _, tt := range tests {
		b := Lookup(tt.name)
		if b == nil {
			t.Errorf("Lookup(%q) = nil", tt.name)
			continue
		}
		if b.Implemented != tt.implemented || b.ArityText() != tt.arity || b.ZeroArg() != tt.zeroArg ||
			b.Result().String() != tt.result || b.Label(0) != tt.label {
			t.Errorf("%s: got implemented=%v arity=%q zero=%v result=%q label=%q", tt.name,
				b.Implemented, b.ArityText(), b.ZeroArg(), b.Result(), b.Label(0))
		}
	}
	for _, n := range []string{"log_message", "Length", "", "display"} {
		if IsBuiltin(n) {
			t.Errorf("IsBuiltin(%q) = true", n)
		}
	}
}
