package mcp

import (
	"fmt"
	"testing"
)

func TestPagination(t *testing.T) {
	h := start(t, Options{PageSize: 2, Primitives: wflOnly()})
	for _, tc := range []struct{ method, key string }{
		{"tools/list", "tools"}, {"prompts/list", "prompts"},
		{"resources/list", "resources"}, {"resources/templates/list", "resourceTemplates"},
	} {
		var names []string
		params := ""
		cursors := map[string]bool{}
		for page := 0; ; page++ {
			m := h.Call(page+1, tc.method, params).ResultMap(t)
			items := m[tc.key].([]any)
			if len(items) == 0 || len(items) > 2 {
				t.Fatalf("%s page %d has %d items", tc.method, page, len(items))
			}
			for _, it := range items {
				it := it.(map[string]any)
				names = append(names, fmt.Sprint(it["name"], it["uri"], it["uriTemplate"]))
			}
			next, ok := m["nextCursor"].(string)
			if !ok {
				break
			}
			if cursors[next] {
				t.Fatalf("cursor repeats")
			}
			cursors[next] = true
			params = fmt.Sprintf(`{"cursor":%q}`, next)
		}
		var want int
		switch tc.key {
		case "tools":
			want = len(fixture().Tools)
		case "prompts":
			want = len(fixture().Prompts)
		case "resources":
			want = len(fixture().Resources)
		case "resourceTemplates":
			want = len(fixture().Templates)
		}
		if len(names) != want {
			t.Errorf("%s: paged through %d items, want %d", tc.method, len(names), want)
		}
	}
	toolsCursor := makeCursor("tools", 1)
	for _, bad := range []string{`{"cursor":"!!"}`, `{"cursor":5}`, fmt.Sprintf(`{"cursor":%q}`, makeCursor("tools", 99))} {
		if w := h.Call(90, "tools/list", bad); w.ErrCode() != -32602 {
			t.Errorf("cursor %s: %s", bad, w.Raw)
		}
	}
	if w := h.Call(91, "prompts/list", fmt.Sprintf(`{"cursor":%q}`, toolsCursor)); w.ErrCode() != -32602 {
		t.Errorf("a tools cursor was accepted by prompts/list: %s", w.Raw)
	}
}
