package typingbench

import (
	"bytes"
	"fmt"
	goparser "go/parser"
	gotoken "go/token"
	"io"
	"os/exec"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestFields(t *testing.T) {
	body := `{"jsonrpc":"2.0", "result": {"items":[{"label":"a\"}]","data":{"id":7}}],"x":[1,{"y":"}"}]}, "id" : 12}`
	got := map[string]string{}
	fields([]byte(body), func(k string, v []byte) { got[k] = string(v) })
	want := map[string]string{
		"jsonrpc": `"2.0"`,
		"result":  `{"items":[{"label":"a\"}]","data":{"id":7}}],"x":[1,{"y":"}"}]}`,
		"id":      `12`,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("fields:\n got %q\nwant %q", got, want)
	}
	if v := member([]byte(want["result"]), "items"); !nonEmpty(v) {
		t.Errorf("items %q: want non-empty", v)
	}
	for v, want := range map[string]bool{`null`: false, `[]`: false, `[ ]`: false, `{}`: false, `""`: false,
		`[0]`: true, `{"a":1}`: true, `"x"`: true, `0`: true} {
		if nonEmpty([]byte(v)) != want {
			t.Errorf("nonEmpty(%s) = %v", v, !want)
		}
	}
}

func TestReadMessages(t *testing.T) {
	var stream bytes.Buffer
	stream.Write(frame([]byte(`{"jsonrpc":"2.0","id":3,"method":"workspace/configuration","params":{"items":[{}]}}`)))
	stream.WriteString("Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n")
	stream.Write(frame([]byte(`{"jsonrpc":"2.0","method":"textDocument/publishDiagnostics","params":{"uri":"file:///a","version":4,"diagnostics":[]}}`)))
	stream.Write(frame([]byte(`{"jsonrpc":"2.0","result":null,"id":9}`)))
	stream.Write(frame([]byte(`{"jsonrpc":"2.0","error":{"code":-32801,"message":"content modified"},"id":10}`)))
	ch := make(chan message, 10)
	readMessages(&stream, ch)
	var got []string
	for m := range ch {
		if m.err != nil {
			if m.err.Error() != "reading a header: "+io.EOF.Error() {
				t.Errorf("the end: %v", m.err)
			}
			continue
		}
		got = append(got, fmt.Sprintf("id=%s method=%s result=%s error=%v params=%d", m.id, m.method, m.result, m.error != nil, len(m.params)))
	}
	want := []string{
		"id=3 method=workspace/configuration result= error=false params=14",
		// A publish's params run to the end of the body, unmeasured.
		"id= method=textDocument/publishDiagnostics result= error=false params=49",
		"id=9 method= result=null error=false params=0",
		"id=10 method= result= error=true params=0",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("messages:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestTypist checks the keystrokes: Typed typed, then deleted, at the
// UTF-16 column of the cursor.
func TestTypist(t *testing.T) {
	doc, err := NewDoc("t", "/tmp/x.wfl", "wfl", "store é as 1\ndisplay call f with é and 1\n", "and 1|", "ab", "call |f")
	if err != nil {
		t.Fatal(err)
	}
	tp := newTypist(doc)
	var got []string
	for range 5 {
		tp.step()
		r := tp.change["range"].(map[string]any)
		got = append(got, fmt.Sprintf("v%d %v-%v %q cursor %d", tp.version, r["start"], r["end"], tp.change["text"], tp.cursorCol))
	}
	// The cursor is at UTF-16 column 27 (byte 28: é is two bytes, one unit).
	want := []string{
		"v2 map[character:27 line:1]-map[character:27 line:1] \"a\" cursor 28",
		"v3 map[character:28 line:1]-map[character:28 line:1] \"b\" cursor 29",
		"v4 map[character:28 line:1]-map[character:29 line:1] \"\" cursor 28",
		"v5 map[character:27 line:1]-map[character:28 line:1] \"\" cursor 27",
		"v6 map[character:27 line:1]-map[character:27 line:1] \"a\" cursor 28",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("keystrokes:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if h := tp.hover; h["line"] != 1 || h["character"] != 13 {
		t.Errorf("hover at %v", h)
	}
}

// TestDocs checks that every document has its typing site, and that the Go
// file parses.
func TestDocs(t *testing.T) {
	for _, clean := range []bool{false, true} {
		for _, lines := range []int{120, 1000, 10000} {
			d, err := WFLDoc(t.TempDir(), clean, lines)
			if err != nil {
				t.Fatal(err)
			}
			if n := d.Lines(); n < lines || n > lines+12 {
				t.Errorf("%s: %d lines", d.Name, n)
			}
		}
	}
	for _, lines := range []int{120, 1000, 10000} {
		d, err := GoDoc(t.TempDir(), lines)
		if err != nil {
			t.Fatal(err)
		}
		if n := d.Lines(); n < lines || n > lines+14 {
			t.Errorf("%s: %d lines", d.Name, n)
		}
		if _, err := goparser.ParseFile(gotoken.NewFileSet(), d.Path, d.Text, 0); err != nil {
			t.Errorf("%s: %v", d.Name, err)
		}
	}
}

func TestPercentile(t *testing.T) {
	s := Stat{}
	for i := 1; i <= 1000; i++ {
		s.Samples = append(s.Samples, time.Duration(i))
	}
	if p50, p99 := s.Percentile(0.5), s.Percentile(0.99); p50 != 500 || p99 != 990 {
		t.Errorf("p50 %d, p99 %d", p50, p99)
	}
}

// TestFloor checks that the machine's floor is measured as the tables
// measure an answer: one sample a round trip, each the time from the
// write to the echo's last byte, sorted.
func TestFloor(t *testing.T) {
	if _, err := exec.LookPath("cat"); err != nil {
		t.Skip("no cat on this machine:", err)
	}
	st, err := Floor(20, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Samples) != 20 {
		t.Fatalf("%d samples, want 20", len(st.Samples))
	}
	if !slices.IsSorted(st.Samples) || st.Samples[0] <= 0 {
		t.Errorf("samples not sorted, or not positive: %v", st.Samples)
	}
}
