// Package conformance is the fixture the official MCP conformance suite is
// run against: the tools, resources and prompts its scenarios call by name
// (test_simple_text, test://static-text, test_simple_prompt, ...), mounted
// on the real mcpserver machinery through Options.Extras. It lets the suite
// test our protocol code (transport, session, router, codec) rather than
// the WFL tools. Start with [Extras]; cmd/fixture serves it over HTTP.
//
// It is test-only: nothing in the shipped binary imports it.
//
// What the fixture does not offer, on purpose: server-to-client requests
// (sampling, elicitation, roots), which wfl-lsp never sends, and the
// input_required results of revision 2026-07-28 that replace them.
package conformance

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"

	"wfl-lsp/mcpserver"
)

// PNG and WAV are the base64 payloads of the image and audio contents: a
// 2x2 PNG and 8 samples of silent 8 kHz mono WAV, made here.
var (
	PNG = makePNG()
	WAV = makeWAV()
)

func makePNG() string {
	img := image.NewRGBA(image.Rect(0, 0, 2, 2))
	img.Set(0, 0, color.RGBA{255, 0, 0, 255})
	img.Set(1, 1, color.RGBA{0, 0, 255, 255})
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		panic(err)
	}
	return base64.StdEncoding.EncodeToString(buf.Bytes())
}

func makeWAV() string {
	const samples = 8
	var buf bytes.Buffer
	w := func(v any) { binary.Write(&buf, binary.LittleEndian, v) }
	buf.WriteString("RIFF")
	w(uint32(36 + samples))
	buf.WriteString("WAVEfmt ")
	w(uint32(16))   // fmt chunk size
	w(uint16(1))    // PCM
	w(uint16(1))    // mono
	w(uint32(8000)) // sample rate
	w(uint32(8000)) // byte rate
	w(uint16(1))    // block align
	w(uint16(8))    // bits per sample
	buf.WriteString("data")
	w(uint32(samples))
	buf.Write(bytes.Repeat([]byte{128}, samples))
	return base64.StdEncoding.EncodeToString(buf.Bytes())
}

// content returns a CallToolResult with the given content blocks.
func content(blocks ...any) (json.RawMessage, error) {
	return json.Marshal(map[string]any{"content": blocks})
}

func text(s string) map[string]any { return map[string]any{"type": "text", "text": s} }

func imageBlock() map[string]any {
	return map[string]any{"type": "image", "data": PNG, "mimeType": "image/png"}
}

// jsonSchema2020 is the input schema of json_schema_2020_12_tool. It uses
// keywords of the 2020-12 vocabulary that clients and servers must pass
// through unchanged: $schema, $defs with an $anchor, $ref,
// additionalProperties, allOf/anyOf and if/then/else.
const jsonSchema2020 = `{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object",` +
	`"$defs":{"address":{"$anchor":"addressDef","type":"object","properties":{"street":{"type":"string"},"city":{"type":"string"}}}},` +
	`"properties":{"name":{"type":"string"},"address":{"$ref":"#/$defs/address"},` +
	`"contactMethod":{"type":"string","enum":["phone","email"]},"phone":{"type":"string"},"email":{"type":"string"}},` +
	`"allOf":[{"anyOf":[{"required":["phone"]},{"required":["email"]}]}],` +
	`"if":{"properties":{"contactMethod":{"const":"phone"}},"required":["contactMethod"]},` +
	`"then":{"required":["phone"]},"else":{"required":["email"]},` +
	`"additionalProperties":false}`

// Extras returns the fixture's primitives.
func Extras() *mcpserver.Extras {
	return &mcpserver.Extras{
		Tools: []mcpserver.ExtraTool{
			{Name: "test_simple_text", Description: "Answers with one text block",
				Call: func(context.Context, *mcpserver.ExtraCall) (json.RawMessage, error) {
					return content(text("This is a simple text response for testing."))
				}},
			{Name: "test_image_content", Description: "Answers with one image block",
				Call: func(context.Context, *mcpserver.ExtraCall) (json.RawMessage, error) {
					return content(imageBlock())
				}},
			{Name: "test_audio_content", Description: "Answers with one audio block",
				Call: func(context.Context, *mcpserver.ExtraCall) (json.RawMessage, error) {
					return content(map[string]any{"type": "audio", "data": WAV, "mimeType": "audio/wav"})
				}},
			{Name: "test_embedded_resource", Description: "Answers with an embedded resource",
				Call: func(context.Context, *mcpserver.ExtraCall) (json.RawMessage, error) {
					return content(map[string]any{"type": "resource", "resource": map[string]any{
						"uri": "test://embedded-resource", "mimeType": "text/plain", "text": "This is an embedded resource content."}})
				}},
			{Name: "test_multiple_content_types", Description: "Answers with text, image and resource blocks",
				Call: func(context.Context, *mcpserver.ExtraCall) (json.RawMessage, error) {
					return content(text("Multiple content types test:"), imageBlock(),
						map[string]any{"type": "resource", "resource": map[string]any{
							"uri": "test://mixed-content-resource", "mimeType": "application/json", "text": `{"test":"data","value":123}`}})
				}},
			{Name: "test_tool_with_logging", Description: "Logs three messages at info while it runs",
				Call: func(ctx context.Context, c *mcpserver.ExtraCall) (json.RawMessage, error) {
					for _, m := range []string{"Tool execution started", "Tool processing data", "Tool execution completed"} {
						c.Log("info", m)
					}
					return content(text("Tool with logging executed successfully"))
				}},
			{Name: "test_tool_with_progress", Description: "Reports progress 0, 50 and 100 of 100 before answering",
				Call: func(ctx context.Context, c *mcpserver.ExtraCall) (json.RawMessage, error) {
					for _, p := range []float64{0, 50, 100} {
						c.Progress(p, 100, fmt.Sprintf("Completed step %v of 100", p))
					}
					return content(text("progress reported"))
				}},
			{Name: "test_error_handling", Description: "Always fails with a tool execution error",
				Call: func(context.Context, *mcpserver.ExtraCall) (json.RawMessage, error) {
					return nil, errors.New("This tool intentionally returns an error for testing")
				}},
			{Name: "test_missing_capability", Description: "Needs the client's sampling capability (2026-07-28): -32021 without it",
				Call: func(ctx context.Context, c *mcpserver.ExtraCall) (json.RawMessage, error) {
					var caps map[string]json.RawMessage
					json.Unmarshal(c.ClientCapabilities(), &caps)
					if c.Modern && caps["sampling"] == nil {
						return nil, &mcpserver.ExtraError{Code: -32021, Message: "Missing required client capability: sampling",
							Data: map[string]any{"requiredCapabilities": map[string]any{"sampling": map[string]any{}}}}
					}
					return content(text("Success"))
				}},
			{Name: "test_streaming_elicitation", Description: "Reports progress on its response stream, then answers",
				Call: func(ctx context.Context, c *mcpserver.ExtraCall) (json.RawMessage, error) {
					c.Progress(50, 100, "half way")
					return content(text("Streaming complete"))
				}},
			{Name: "test_logging_tool", Description: "Logs at info; under 2026-07-28 only when the request asked for logs",
				Call: func(ctx context.Context, c *mcpserver.ExtraCall) (json.RawMessage, error) {
					c.Log("info", "Diagnostic trace logging activated")
					return content(text("Logging evaluated"))
				}},
			{Name: "json_schema_2020_12_tool", Description: "Has a JSON Schema 2020-12 input schema",
				InputSchema: json.RawMessage(jsonSchema2020),
				Call: func(ctx context.Context, c *mcpserver.ExtraCall) (json.RawMessage, error) {
					return content(text("JSON Schema 2020-12 tool called with: " + string(c.Arguments)))
				}},
		},
		Resources: []mcpserver.ExtraResource{
			{URI: "test://static-text", Name: "static-text", Title: "Static Text Resource",
				Description: "A static text resource", MimeType: "text/plain",
				Read: func(ctx context.Context, uri string) ([]any, error) {
					return []any{map[string]any{"uri": uri, "mimeType": "text/plain", "text": "This is the content of the static text resource."}}, nil
				}},
			{URI: "test://static-binary", Name: "static-binary", Title: "Static Binary Resource",
				Description: "A static binary resource (a PNG image)", MimeType: "image/png",
				Read: func(ctx context.Context, uri string) ([]any, error) {
					return []any{map[string]any{"uri": uri, "mimeType": "image/png", "blob": PNG}}, nil
				}},
			{URI: "test://watched-resource", Name: "watched-resource", Title: "Watched Resource",
				Description: "A resource clients may subscribe to", MimeType: "text/plain",
				Read: func(ctx context.Context, uri string) ([]any, error) {
					return []any{map[string]any{"uri": uri, "mimeType": "text/plain", "text": "Watched resource content"}}, nil
				}},
		},
		Templates: []mcpserver.ExtraTemplate{
			{URITemplate: "test://template/{id}/data", Name: "template", Title: "Resource Template",
				Description: "A resource template with parameter substitution", MimeType: "application/json",
				Read: func(ctx context.Context, uri string, vars map[string]string) ([]any, error) {
					b, _ := json.Marshal(map[string]any{"id": vars["id"], "templateTest": true, "data": "Data for ID: " + vars["id"]})
					return []any{map[string]any{"uri": uri, "mimeType": "application/json", "text": string(b)}}, nil
				}},
		},
		Prompts: []mcpserver.ExtraPrompt{
			{Name: "test_simple_prompt", Title: "Simple Test Prompt", Description: "A prompt without arguments",
				Get: func(ctx context.Context, args map[string]string) ([]any, error) {
					return []any{userMsg(text("This is a simple prompt for testing."))}, nil
				}},
			{Name: "test_prompt_with_arguments", Title: "Prompt With Arguments", Description: "A prompt with two required arguments",
				Arguments: []mcpserver.ExtraArgument{{Name: "arg1", Description: "First test argument", Required: true}, {Name: "arg2", Description: "Second test argument", Required: true}},
				Get: func(ctx context.Context, args map[string]string) ([]any, error) {
					return []any{userMsg(text(fmt.Sprintf("Prompt with arguments: arg1='%s', arg2='%s'", args["arg1"], args["arg2"])))}, nil
				}},
			{Name: "test_prompt_with_embedded_resource", Title: "Prompt With Embedded Resource", Description: "A prompt that embeds a resource",
				Arguments: []mcpserver.ExtraArgument{{Name: "resourceUri", Description: "URI of the resource to embed", Required: true}},
				Get: func(ctx context.Context, args map[string]string) ([]any, error) {
					return []any{
						userMsg(map[string]any{"type": "resource", "resource": map[string]any{"uri": args["resourceUri"], "mimeType": "text/plain", "text": "Embedded resource content for testing."}}),
						userMsg(text("Please process the embedded resource above.")),
					}, nil
				}},
			{Name: "test_prompt_with_image", Title: "Prompt With Image", Description: "A prompt that includes an image",
				Get: func(ctx context.Context, args map[string]string) ([]any, error) {
					return []any{userMsg(imageBlock()), userMsg(text("Please analyze the image above."))}, nil
				}},
		},
	}
}

func userMsg(block any) map[string]any { return map[string]any{"role": "user", "content": block} }
