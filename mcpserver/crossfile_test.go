package mcpserver

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"wfl-lsp/internal/testfiles"
)

// TestToolsAcrossIncludes: with a workspace path, the position tools follow
// `include from` as the language server does; an include that leads outside
// the root is not followed; inline source stays in itself.
func TestToolsAcrossIncludes(t *testing.T) {
	root := t.TempDir()
	outside := t.TempDir()
	write := func(dir, name, text string) {
		t.Helper()
		testfiles.Write(t, dir, name, text)
	}
	const mainSrc = "include from \"lib/helpers.wfl\"\ncall shout with \"c\"\n"
	write(root, "lib/helpers.wfl", "define action called shout with words:\n    display words\nend action\ncall shout with \"a\"\n")
	write(root, "main.wfl", mainSrc)
	write(root, "other.wfl", "include from \"lib/helpers.wfl\"\ncall shout with \"b\"\n")
	write(root, "alone.wfl", "define action called shout:\n    display 1\nend action\ncall shout\n")
	write(outside, "evil.wfl", "define action called whisper:\n    display 1\nend action\n")
	rel, err := filepath.Rel(root, filepath.Join(outside, "evil.wfl"))
	if err != nil {
		t.Fatal(err)
	}
	write(root, "escape.wfl", fmt.Sprintf("include from %q\ncall whisper\n", filepath.ToSlash(rel)))

	h := start(t, Options{Root: root})
	h.Initialize("2025-11-25")
	id := 0
	call := func(name, args string) map[string]any {
		t.Helper()
		id++
		params := fmt.Sprintf(`{"name":%q,"arguments":{%s}}`, name, args)
		res := h.Call(id, "tools/call", params).Tool(t)
		if res.IsError {
			t.Fatalf("%s(%s) failed: %s", name, args, res.Content[0].Text)
		}
		checkOutputSchema(t, params, res)
		var m map[string]any
		json.Unmarshal(res.StructuredContent, &m)
		return m
	}
	places := func(list any) string {
		var out []string
		for _, x := range list.([]any) {
			m := x.(map[string]any)
			out = append(out, fmt.Sprintf("%v:%v:%v", m["file"], m["line"], m["column"]))
		}
		sort.Strings(out)
		return strings.Join(out, " ")
	}
	// "shout" in `call shout with "c"` is line 2, columns 6-10.
	at := `"path":"main.wfl","line":2,"column":7`

	def := call("find_definition", at)
	if got := places(def["definitions"]); got != "lib/helpers.wfl:1:22" {
		t.Errorf("find_definition: %s", got)
	}
	info := call("get_symbol_info", at)
	if info["found"] != true || info["kind"] != "action" || info["declarationFile"] != "lib/helpers.wfl" || info["declarationLine"] != 1.0 {
		t.Errorf("get_symbol_info: %v", info)
	}
	refs := call("find_references", at)
	if got := places(refs["references"]); got != "lib/helpers.wfl:1:22 lib/helpers.wfl:4:6 main.wfl:2:6 other.wfl:2:6" {
		t.Errorf("find_references: %s", got)
	}
	if refs := call("find_references", at+`,"includeDeclaration":false`); refs["count"] != 3.0 {
		t.Errorf("find_references without the declaration: %v", refs)
	}
	// From the declaring file, the includers are found too.
	if got := places(call("find_references", `"path":"lib/helpers.wfl","line":1,"column":23`)["references"]); got != "lib/helpers.wfl:1:22 lib/helpers.wfl:4:6 main.wfl:2:6 other.wfl:2:6" {
		t.Errorf("find_references from the declaring file: %s", got)
	}

	ren := call("rename_symbol", at+`,"newName":"yell loudly"`)
	if ren["oldName"] != "shout" || ren["newName"] != "yell loudly" || ren["count"] != 4.0 || ren["file"] != "main.wfl" {
		t.Errorf("rename_symbol: %v", ren)
	}
	if ren["newSource"] != strings.Replace(mainSrc, "shout", "yell loudly", 1) {
		t.Errorf("rename_symbol newSource %q", ren["newSource"])
	}
	others := map[string]string{}
	for _, o := range ren["otherFiles"].([]any) {
		m := o.(map[string]any)
		others[m["file"].(string)] = m["newSource"].(string)
	}
	if len(others) != 2 || strings.Count(others["lib/helpers.wfl"], "yell loudly") != 2 || !strings.Contains(others["other.wfl"], "call yell loudly with") {
		t.Errorf("rename_symbol otherFiles: %v", others)
	}
	if b, _ := os.ReadFile(filepath.Join(root, "main.wfl")); string(b) != mainSrc {
		t.Errorf("rename_symbol wrote to main.wfl")
	}

	// The include that leads outside the root is not followed.
	if d := call("find_definition", `"path":"escape.wfl","line":2,"column":7`); len(d["definitions"].([]any)) != 0 {
		t.Errorf("find_definition followed an include outside the workspace: %v", d)
	}
	if info := call("get_symbol_info", `"path":"escape.wfl","line":2,"column":7`); info["declarationFile"] != nil {
		t.Errorf("get_symbol_info followed an include outside the workspace: %v", info)
	}
	// Inline source has no folder to include from.
	src, _ := json.Marshal(mainSrc)
	if d := call("find_definition", fmt.Sprintf(`"source":%s,"line":2,"column":7`, src)); len(d["definitions"].([]any)) != 0 {
		t.Errorf("find_definition on inline source: %v", d)
	}
	// A file that declares its own shout keeps to itself.
	if got := places(call("find_references", `"path":"alone.wfl","line":4,"column":7`)["references"]); got != "alone.wfl:1:22 alone.wfl:4:6" {
		t.Errorf("find_references in alone.wfl: %s", got)
	}
	// A clash in another file of the family is refused.
	write(root, "other.wfl", "include from \"lib/helpers.wfl\"\nstore loud as 1\ncall shout with loud\n")
	id++
	res := h.Call(id, "tools/call", `{"name":"rename_symbol","arguments":{`+at+`,"newName":"loud"}}`).Tool(t)
	if !res.IsError || !strings.Contains(res.Content[0].Text, "cannot_rename") {
		t.Errorf("rename to a name taken in other.wfl: %+v", res)
	}
}
