package conformance

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"image/png"
	"io"
	"strings"
	"testing"

	"wfl-lsp/mcpserver/mcp"
)

// serve runs the fixture over a stream with the given lines and returns
// the answers by id.
func serve(t *testing.T, lines ...string) map[string]json.RawMessage {
	t.Helper()
	s, err := mcp.New(mcp.Options{Root: t.TempDir(), Primitives: Primitives()})
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := s.ServeStream(context.Background(), strings.NewReader(strings.Join(lines, "\n")+"\n"), &out); err != nil {
		t.Fatal(err)
	}
	answers := map[string]json.RawMessage{}
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var m struct {
			ID     json.RawMessage
			Result json.RawMessage
			Error  json.RawMessage
		}
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		if m.ID != nil {
			answers[string(m.ID)] = append(m.Result, m.Error...)
		}
	}
	return answers
}

func TestFixture(t *testing.T) {
	a := serve(t,
		`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"test_image_content"}}`,
		`{"jsonrpc":"2.0","id":3,"method":"resources/read","params":{"uri":"test://template/42/data"}}`,
		`{"jsonrpc":"2.0","id":4,"method":"prompts/get","params":{"name":"test_prompt_with_arguments","arguments":{"arg1":"a","arg2":"b"}}}`,
		`{"jsonrpc":"2.0","id":5,"method":"resources/read","params":{"uri":"test://nonexistent"}}`,
		`{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"test_error_handling"}}`,
		`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"analyze_wfl","arguments":{"source":"display 1"}}}`,
		`{"jsonrpc":"2.0","id":8,"method":"prompts/get","params":{"name":"test_prompt_with_arguments","arguments":{"arg1":"a"}}}`,
	)
	var list struct{ Tools []struct{ Name string } }
	json.Unmarshal(a["1"], &list)
	var names []string
	for _, tl := range list.Tools {
		names = append(names, tl.Name)
	}
	for _, want := range []string{"test_simple_text", "test_tool_with_progress", "test_error_handling", "json_schema_2020_12_tool"} {
		if !strings.Contains(strings.Join(names, " "), want) {
			t.Errorf("tools/list lacks %s: %v", want, names)
		}
	}
	if strings.Contains(strings.Join(names, " "), "analyze_wfl") {
		t.Errorf("the fixture lists the WFL tools: %v", names)
	}
	var img struct {
		Content []struct{ Type, Data, MimeType string }
	}
	json.Unmarshal(a["2"], &img)
	raw, err := base64.StdEncoding.DecodeString(img.Content[0].Data)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := png.Decode(bytes.NewReader(raw)); err != nil || img.Content[0].MimeType != "image/png" {
		t.Errorf("image content: %v %s", err, a["2"])
	}
	if !strings.Contains(string(a["3"]), `Data for ID: 42`) || !strings.Contains(string(a["3"]), `"uri":"test://template/42/data"`) {
		t.Errorf("template read: %s", a["3"])
	}
	if !strings.Contains(string(a["4"]), `arg1='a', arg2='b'`) {
		t.Errorf("prompt: %s", a["4"])
	}
	for id, code := range map[string]string{"5": "-32002", "7": "-32602", "8": "-32602"} {
		if !strings.Contains(string(a[id]), `"code":`+code) {
			t.Errorf("answer %s: %s, want code %s", id, a[id], code)
		}
	}
	if !strings.Contains(string(a["6"]), `"isError":true`) {
		t.Errorf("error tool: %s", a["6"])
	}
}

func TestWAV(t *testing.T) {
	raw, err := base64.StdEncoding.DecodeString(WAV)
	if err != nil || !bytes.HasPrefix(raw, []byte("RIFF")) || string(raw[8:12]) != "WAVE" || len(raw) != 44+8 {
		t.Errorf("WAV: %v %q", err, raw)
	}
}

// TestElicitations runs the elicitation tools with a client that answers
// the server's elicitation/create: each tool answers with the client's
// answer after its prefix, and fails when the client cannot be asked.
func TestElicitations(t *testing.T) {
	for _, tc := range []struct {
		tool, args, prefix string
		caps               string
	}{
		{"test_elicitation", `{"message":"who are you?"}`, "User response: ", `{"elicitation":{}}`},
		{"test_elicitation_sep1034_defaults", `{}`, "Elicitation completed: ", `{"elicitation":{}}`},
		{"test_elicitation_sep1330_enums", `{}`, "Elicitation completed: ", `{"elicitation":{}}`},
		{"test_elicitation", `{"message":"who are you?"}`, "", `{}`},
	} {
		s, err := mcp.New(mcp.Options{Root: t.TempDir(), Primitives: Primitives()})
		if err != nil {
			t.Fatal(err)
		}
		inR, inW := io.Pipe()
		outR, outW := io.Pipe()
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() { done <- s.ServeStream(ctx, inR, outW); outW.Close() }()
		lines := bufio.NewScanner(outR)
		send := func(line string) {
			if _, err := io.WriteString(inW, line+"\n"); err != nil {
				t.Fatal(err)
			}
		}
		type message struct {
			ID     json.RawMessage
			Method string
			Params json.RawMessage
			Result json.RawMessage
		}
		next := func() message {
			if !lines.Scan() {
				t.Fatalf("%s: the server stopped: %v", tc.tool, lines.Err())
			}
			var m message
			if err := json.Unmarshal(lines.Bytes(), &m); err != nil {
				t.Fatalf("%s: %q: %v", tc.tool, lines.Text(), err)
			}
			return m
		}
		send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":` + tc.caps + `,"clientInfo":{"name":"t","version":"1"}}}`)
		next()
		send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
		send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"` + tc.tool + `","arguments":` + tc.args + `}}`)
		asked := false
		var result struct {
			Content []struct{ Text string }
			IsError bool
		}
		for {
			m := next()
			if m.Method == "elicitation/create" {
				asked = true
				send(`{"jsonrpc":"2.0","id":` + string(m.ID) + `,"result":{"action":"accept","content":{"answer":42}}}`)
				continue
			}
			if string(m.ID) == "2" {
				json.Unmarshal(m.Result, &result)
				break
			}
		}
		cancel()
		inW.Close()
		<-done
		switch {
		case tc.prefix == "":
			if asked || !result.IsError {
				t.Errorf("%s without the capability: asked %v, result %+v", tc.tool, asked, result)
			}
		case !asked || result.IsError || len(result.Content) != 1 ||
			!strings.HasPrefix(result.Content[0].Text, tc.prefix) || !strings.Contains(result.Content[0].Text, `"answer":42`):
			t.Errorf("%s: asked %v, result %+v; want %q and the answer", tc.tool, asked, result, tc.prefix)
		}
	}
}
