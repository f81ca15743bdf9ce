// Package conformance is the fixture the official MCP conformance suite is
// run against: the tools, resources and prompts its scenarios call by name
// (test_simple_text, test://static-text, test_simple_prompt, ...), declared
// as mcp.Primitives exactly as WFL's own are (mcpserver.WFL), and served
// by the protocol package alone (mcpserver/mcp). It lets the suite test
// our protocol code (transport, session, router, codec, requests to the
// client) rather than the WFL tools. Start with [Primitives]; cmd/fixture serves it over HTTP.
//
// Questions to the client (sampling, elicitation, roots) go through
// mcp.Call.Ask: requests in the handshake era, input-required
// results under 2026-07-28.
//
// It is test-only: nothing in the shipped binary imports it.
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

	"wfl-lsp/mcpserver/mcp"
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

// content returns a result with the given content blocks.
func content(blocks ...any) mcp.Result { return mcp.Result{Content: blocks} }

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

// tool declares a fixture tool without arguments, or with the given
// string arguments (all required).
func tool(name, desc string, call func(ctx context.Context, c *mcp.Call) mcp.Result, args ...string) *mcp.Tool {
	t := &mcp.Tool{Name: name, Description: desc, Call: call}
	if len(args) > 0 {
		props := map[string]*mcp.Schema{}
		for _, a := range args {
			props[a] = &mcp.Schema{Type: "string", Description: "the " + a}
		}
		t.Input = &mcp.Schema{Type: "object", Properties: props, Required: args}
	}
	return t
}

// ask puts the questions to the client and fails the call when it cannot.
func ask(ctx context.Context, c *mcp.Call, qs map[string]mcp.InputRequest) (map[string]json.RawMessage, *mcp.Result) {
	a, err := c.Ask(ctx, qs)
	if err != nil {
		r := mcp.Failed(err)
		return nil, &r
	}
	return a, nil
}

func elicit(message string, props map[string]any, required ...string) mcp.InputRequest {
	schema := map[string]any{"type": "object", "properties": props}
	if len(required) > 0 {
		schema["required"] = required
	}
	return mcp.InputRequest{Method: "elicitation/create", Params: map[string]any{"message": message, "requestedSchema": schema}}
}

// elicited puts the question q, named name, to the client and answers with
// prefix and the client's answer, or fails the call when it cannot.
func elicited(ctx context.Context, c *mcp.Call, name, prefix string, q mcp.InputRequest) mcp.Result {
	res, err := c.Elicit(ctx, name, q.Params)
	if err != nil {
		return mcp.Failed(err)
	}
	return content(text(prefix + string(res)))
}

func sample(prompt string, maxTokens int) mcp.InputRequest {
	return mcp.InputRequest{Method: "sampling/createMessage", Params: map[string]any{
		"messages":  []any{map[string]any{"role": "user", "content": text(prompt)}},
		"maxTokens": maxTokens,
	}}
}

var listRoots = mcp.InputRequest{Method: "roots/list", Params: map[string]any{}}

var strProp = map[string]any{"type": "string"}

// answered describes the client's answers in a text block, by key.
func answered(a map[string]json.RawMessage) mcp.Result {
	b, _ := json.Marshal(a)
	return content(text("Received: " + string(b)))
}

// askAndEcho is the Call of a tool that asks the client qs and answers
// with what it got (answered).
func askAndEcho(qs map[string]mcp.InputRequest) func(context.Context, *mcp.Call) mcp.Result {
	return func(ctx context.Context, c *mcp.Call) mcp.Result {
		a, fail := ask(ctx, c, qs)
		if fail != nil {
			return *fail
		}
		return answered(a)
	}
}

// Primitives returns the fixture's tools, resources, templates and prompts.
func Primitives() *mcp.Primitives {
	return &mcp.Primitives{
		Tools: []*mcp.Tool{
			tool("test_simple_text", "Answers with one text block", func(context.Context, *mcp.Call) mcp.Result {
				return content(text("This is a simple text response for testing."))
			}),
			tool("test_image_content", "Answers with one image block", func(context.Context, *mcp.Call) mcp.Result {
				return content(imageBlock())
			}),
			tool("test_audio_content", "Answers with one audio block", func(context.Context, *mcp.Call) mcp.Result {
				return content(map[string]any{"type": "audio", "data": WAV, "mimeType": "audio/wav"})
			}),
			tool("test_embedded_resource", "Answers with an embedded resource", func(context.Context, *mcp.Call) mcp.Result {
				return content(map[string]any{"type": "resource", "resource": map[string]any{
					"uri": "test://embedded-resource", "mimeType": "text/plain", "text": "This is an embedded resource content."}})
			}),
			tool("test_multiple_content_types", "Answers with text, image and resource blocks", func(context.Context, *mcp.Call) mcp.Result {
				return content(text("Multiple content types test:"), imageBlock(),
					map[string]any{"type": "resource", "resource": map[string]any{
						"uri": "test://mixed-content-resource", "mimeType": "application/json", "text": `{"test":"data","value":123}`}})
			}),
			tool("test_tool_with_logging", "Logs three messages at info while it runs", func(ctx context.Context, c *mcp.Call) mcp.Result {
				for _, m := range []string{"Tool execution started", "Tool processing data", "Tool execution completed"} {
					c.Log("info", m)
				}
				return content(text("Tool with logging executed successfully"))
			}),
			tool("test_tool_with_progress", "Reports progress 0, 50 and 100 of 100 before answering", func(ctx context.Context, c *mcp.Call) mcp.Result {
				for _, p := range []float64{0, 50, 100} {
					c.Progress(p, 100, fmt.Sprintf("Completed step %v of 100", p))
				}
				return content(text("progress reported"))
			}),
			tool("test_error_handling", "Always fails with a tool execution error", func(context.Context, *mcp.Call) mcp.Result {
				//lint:ignore ST1005 the conformance suite's scenario expects this text
				return mcp.Failed(errors.New("This tool intentionally returns an error for testing"))
			}),
			tool("test_sampling", "Asks the client's model the prompt (sampling/createMessage) and answers with its reply",
				func(ctx context.Context, c *mcp.Call) mcp.Result {
					prompt, _ := c.Args["prompt"].(string)
					res, err := c.Sample(ctx, "sample", sample(prompt, 100).Params)
					if err != nil {
						return mcp.Failed(err)
					}
					var m struct {
						Content struct{ Text string }
					}
					json.Unmarshal(res, &m)
					return content(text("LLM response: " + m.Content.Text))
				}, "prompt"),
			tool("test_elicitation", "Asks the user for a username and an email (elicitation/create)",
				func(ctx context.Context, c *mcp.Call) mcp.Result {
					message, _ := c.Args["message"].(string)
					return elicited(ctx, c, "user", "User response: ", elicit(message, map[string]any{
						"username": map[string]any{"type": "string", "description": "User's response"},
						"email":    map[string]any{"type": "string", "description": "User's email address"},
					}, "username", "email"))
				}, "message"),
			tool("test_elicitation_sep1034_defaults", "Elicits with a default for each primitive type (SEP-1034)",
				func(ctx context.Context, c *mcp.Call) mcp.Result {
					return elicited(ctx, c, "defaults", "Elicitation completed: ", elicit("Please review and update the form fields with defaults", map[string]any{
						"name":     map[string]any{"type": "string", "description": "User name", "default": "John Doe"},
						"age":      map[string]any{"type": "integer", "description": "User age", "default": 30},
						"score":    map[string]any{"type": "number", "description": "User score", "default": 95.5},
						"status":   map[string]any{"type": "string", "description": "User status", "enum": []string{"active", "inactive", "pending"}, "default": "active"},
						"verified": map[string]any{"type": "boolean", "description": "Verification status", "default": true},
					}))
				}),
			tool("test_elicitation_sep1330_enums", "Elicits with the five kinds of enum (SEP-1330)",
				func(ctx context.Context, c *mcp.Call) mcp.Result {
					titled := func(prefix string, titles ...string) []any {
						var out []any
						for i, t := range titles {
							out = append(out, map[string]any{"const": fmt.Sprintf("%s%d", prefix, i+1), "title": t})
						}
						return out
					}
					return elicited(ctx, c, "enums", "Elicitation completed: ", elicit("Please choose options", map[string]any{
						"untitledSingle": map[string]any{"type": "string", "enum": []string{"option1", "option2", "option3"}},
						"titledSingle":   map[string]any{"type": "string", "oneOf": titled("value", "First Option", "Second Option", "Third Option")},
						"legacyEnum": map[string]any{"type": "string", "enum": []string{"opt1", "opt2", "opt3"},
							"enumNames": []string{"Option One", "Option Two", "Option Three"}},
						"untitledMulti": map[string]any{"type": "array", "items": map[string]any{"type": "string", "enum": []string{"option1", "option2", "option3"}}},
						"titledMulti":   map[string]any{"type": "array", "items": map[string]any{"anyOf": titled("value", "First Choice", "Second Choice", "Third Choice")}},
					}))
				}),
			tool("test_missing_capability", "Needs the client's sampling capability: -32021 under 2026-07-28 without it",
				func(ctx context.Context, c *mcp.Call) mcp.Result {
					if !c.Declared("sampling") {
						_, err := c.Sample(ctx, "probe", sample("probe", 1).Params) // fails: never sent
						return mcp.Failed(err)
					}
					return content(text("Success"))
				}),
			tool("test_streaming_elicitation", "Reports progress on its response stream, then asks the user",
				func(ctx context.Context, c *mcp.Call) mcp.Result {
					c.Progress(50, 100, "half way")
					a, fail := ask(ctx, c, map[string]mcp.InputRequest{"confirm": elicit("Continue?", map[string]any{"ok": map[string]any{"type": "boolean"}}, "ok")})
					if fail != nil {
						return *fail
					}
					return answered(a)
				}),
			tool("test_logging_tool", "Logs at info; under 2026-07-28 only when the request asked for logs",
				func(ctx context.Context, c *mcp.Call) mcp.Result {
					c.Log("info", "Diagnostic trace logging activated")
					return content(text("Logging evaluated"))
				}),
			{Name: "json_schema_2020_12_tool", Description: "Has a JSON Schema 2020-12 input schema",
				Input: mustSchema(jsonSchema2020),
				Call: func(ctx context.Context, c *mcp.Call) mcp.Result {
					return content(text("JSON Schema 2020-12 tool called with: " + string(c.Arguments)))
				}},
			// Revision 2026-07-28: input-required results (SEP-2322).
			tool("test_input_required_result_elicitation", "Asks the user's name, then greets them",
				func(ctx context.Context, c *mcp.Call) mcp.Result {
					a, fail := ask(ctx, c, map[string]mcp.InputRequest{"user_name": elicit("What is your name?", map[string]any{"name": strProp}, "name")})
					if fail != nil {
						return *fail
					}
					var e struct{ Content struct{ Name string } }
					json.Unmarshal(a["user_name"], &e)
					return content(text("Hello, " + e.Content.Name + "!"))
				}),
			tool("test_input_required_result_sampling", "Asks the client's model a question",
				askAndEcho(map[string]mcp.InputRequest{"capital_question": sample("What is the capital of France?", 100)})),
			tool("test_input_required_result_list_roots", "Asks for the client's roots",
				askAndEcho(map[string]mcp.InputRequest{"client_roots": listRoots})),
			tool("test_input_required_result_request_state", "Asks for a confirmation; the state of the round travels in requestState",
				askAndEcho(map[string]mcp.InputRequest{"confirm": elicit("Please confirm", map[string]any{"ok": map[string]any{"type": "boolean"}}, "ok")})),
			tool("test_input_required_result_tampered_state", "Like request_state; a retry with altered requestState is refused",
				askAndEcho(map[string]mcp.InputRequest{"confirm": elicit("Please confirm", map[string]any{"ok": map[string]any{"type": "boolean"}}, "ok")})),
			tool("test_input_required_result_multiple_inputs", "Asks for a name, a greeting and the roots at once",
				askAndEcho(map[string]mcp.InputRequest{
					"user_name":    elicit("What is your name?", map[string]any{"name": strProp}, "name"),
					"greeting":     sample("Generate a greeting", 50),
					"client_roots": listRoots,
				})),
			tool("test_input_required_result_multi_round", "Asks a name, then a colour, in two rounds",
				func(ctx context.Context, c *mcp.Call) mcp.Result {
					a1, fail := ask(ctx, c, map[string]mcp.InputRequest{"step1": elicit("Step 1: What is your name?", map[string]any{"name": strProp}, "name")})
					if fail != nil {
						return *fail
					}
					a2, fail := ask(ctx, c, map[string]mcp.InputRequest{"step2": elicit("Step 2: What is your favorite color?", map[string]any{"color": strProp}, "color")})
					if fail != nil {
						return *fail
					}
					a1["step2"] = a2["step2"]
					return answered(a1)
				}),
			tool("test_input_required_result_capabilities", "Asks only what the client declared it can answer",
				func(ctx context.Context, c *mcp.Call) mcp.Result {
					qs := map[string]mcp.InputRequest{}
					if c.Declared("sampling") {
						qs["greeting"] = sample("Generate a greeting", 50)
					}
					if c.Declared("elicitation") {
						qs["user_name"] = elicit("What is your name?", map[string]any{"name": strProp}, "name")
					}
					if c.Declared("roots") {
						qs["client_roots"] = listRoots
					}
					if len(qs) == 0 {
						return content(text("The client declared no capability to ask through"))
					}
					a, fail := ask(ctx, c, qs)
					if fail != nil {
						return *fail
					}
					return answered(a)
				}),
		},
		Resources: []*mcp.Resource{
			{URI: "test://static-text", Name: "static-text", Title: "Static Text Resource",
				Description: "A static text resource", MimeType: "text/plain",
				Read: func(ctx context.Context, c *mcp.Call) ([]any, error) {
					return []any{map[string]any{"uri": "test://static-text", "mimeType": "text/plain", "text": "This is the content of the static text resource."}}, nil
				}},
			{URI: "test://static-binary", Name: "static-binary", Title: "Static Binary Resource",
				Description: "A static binary resource (a PNG image)", MimeType: "image/png",
				Read: func(ctx context.Context, c *mcp.Call) ([]any, error) {
					return []any{map[string]any{"uri": "test://static-binary", "mimeType": "image/png", "blob": PNG}}, nil
				}},
			{URI: "test://watched-resource", Name: "watched-resource", Title: "Watched Resource",
				Description: "A resource clients may subscribe to", MimeType: "text/plain",
				Read: func(ctx context.Context, c *mcp.Call) ([]any, error) {
					return []any{map[string]any{"uri": "test://watched-resource", "mimeType": "text/plain", "text": "Watched resource content"}}, nil
				}},
		},
		Templates: []*mcp.Template{
			{URITemplate: "test://template/{id}/data", Name: "template", Title: "Resource Template",
				Description: "A resource template with parameter substitution", MimeType: "application/json",
				Read: func(ctx context.Context, c *mcp.Call, uri string, vars map[string]string) ([]any, error) {
					b, _ := json.Marshal(map[string]any{"id": vars["id"], "templateTest": true, "data": "Data for ID: " + vars["id"]})
					return []any{map[string]any{"uri": uri, "mimeType": "application/json", "text": string(b)}}, nil
				}},
		},
		Prompts: []*mcp.Prompt{
			{Name: "test_simple_prompt", Title: "Simple Test Prompt", Description: "A prompt without arguments",
				Get: func(ctx context.Context, c *mcp.Call, args map[string]string) ([]any, error) {
					return []any{userMsg(text("This is a simple prompt for testing."))}, nil
				}},
			{Name: "test_prompt_with_arguments", Title: "Prompt With Arguments", Description: "A prompt with two required arguments",
				Arguments: []mcp.Argument{{Name: "arg1", Description: "First test argument", Required: true}, {Name: "arg2", Description: "Second test argument", Required: true}},
				Get: func(ctx context.Context, c *mcp.Call, args map[string]string) ([]any, error) {
					return []any{userMsg(text(fmt.Sprintf("Prompt with arguments: arg1='%s', arg2='%s'", args["arg1"], args["arg2"])))}, nil
				}},
			{Name: "test_prompt_with_embedded_resource", Title: "Prompt With Embedded Resource", Description: "A prompt that embeds a resource",
				Arguments: []mcp.Argument{{Name: "resourceUri", Description: "URI of the resource to embed", Required: true}},
				Get: func(ctx context.Context, c *mcp.Call, args map[string]string) ([]any, error) {
					return []any{
						userMsg(map[string]any{"type": "resource", "resource": map[string]any{"uri": args["resourceUri"], "mimeType": "text/plain", "text": "Embedded resource content for testing."}}),
						userMsg(text("Please process the embedded resource above.")),
					}, nil
				}},
			{Name: "test_prompt_with_image", Title: "Prompt With Image", Description: "A prompt that includes an image",
				Get: func(ctx context.Context, c *mcp.Call, args map[string]string) ([]any, error) {
					return []any{userMsg(imageBlock()), userMsg(text("Please analyze the image above."))}, nil
				}},
			{Name: "test_input_required_result_prompt", Title: "Prompt Needing Input", Description: "Asks the user for context before it is built (2026-07-28)",
				Get: func(ctx context.Context, c *mcp.Call, args map[string]string) ([]any, error) {
					a, err := c.Elicit(ctx, "user_context", elicit("What context should the prompt use?", map[string]any{"context": strProp}, "context").Params)
					if err != nil {
						return nil, err
					}
					var e struct{ Content struct{ Context string } }
					json.Unmarshal(a, &e)
					return []any{userMsg(text("Use this context: " + e.Content.Context))}, nil
				}},
		},
	}
}

func mustSchema(s string) *mcp.Schema {
	sc, err := mcp.ParseSchema([]byte(s))
	if err != nil {
		panic(err)
	}
	return sc
}

func userMsg(block any) map[string]any { return map[string]any{"role": "user", "content": block} }
