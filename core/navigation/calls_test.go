package navigation

import (
	"testing"
	"wfl-lsp/core/internal/coretest"
	"wfl-lsp/core/internal/featuretest"
)

func TestCallHierarchy(t *testing.T) {
	src := "define action called helper with x:\n    return x plus 1\nend action\n" +
		"define action called main work:\n    store a as call helper with 1\n    store b as call helper with a\n    return b\nend action\n" +
		"store r as call helper with 2\nstore s as call main work\n"
	a := featuretest.AnalysisOf(t, src)
	it, ok := PrepareCallHierarchy(a, coretest.At(t, src, "helper", 1, 2))
	if !ok || it.Name != "helper" || it.NameSpan != coretest.SpanOf(t, src, "helper", 0) {
		t.Fatalf("prepare = %+v %v", it, ok)
	}
	in := IncomingCalls(a, coretest.At(t, src, "helper", 0, 0))
	if len(in) != 2 || in[0].Item.Name != "main work" || len(in[0].Spans) != 2 || !in[1].Item.TopLevel || len(in[1].Spans) != 1 {
		t.Fatalf("incoming = %+v", in)
	}
	if in[0].Spans[1] != coretest.SpanOf(t, src, "helper", 2) {
		t.Errorf("second call at %v", in[0].Spans[1])
	}
	out := OutgoingCalls(a, coretest.At(t, src, "main work", 0, 1))
	if len(out) != 1 || out[0].Item.Name != "helper" || len(out[0].Spans) != 2 {
		t.Fatalf("outgoing = %+v", out)
	}
	if _, ok := PrepareCallHierarchy(a, coretest.At(t, src, "store a", 0, 6)); ok {
		t.Errorf("a variable is not in a call hierarchy")
	}
}
