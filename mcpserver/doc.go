// Package mcpserver is the MCP (Model Context Protocol) front door of
// wfl-lsp: a hand-rolled JSON-RPC 2.0 server, no MCP SDK, whose tools,
// resources and prompts answer from the same language core as the editor.
//
// Start with [ServeStdio]. The layers, each in its own file:
//
//   - transport.go: stdio framing, one JSON object a line in, whole lines out
//     through one writer goroutine. A [sink] is all the session needs from a
//     transport, so Streamable HTTP can plug in beside stdio.
//   - codec.go: JSON-RPC 2.0 validation (-32700, -32600) and line building.
//   - session.go: one connection: handshake state, pending requests,
//     cancellation, progress, logs, batches, the bounded pool, the drain.
//   - router.go: the method table of both protocol eras and their results.
//   - static.go: answers that never change, serialized once per revision.
//   - tools.go, tools_list.go, tool_*.go, schema.go, positions.go: the
//     tools (one file per tool or family), strict argument checks, and the
//     conversion of core byte offsets to 1-based lines and columns.
//   - resources.go, prompts.go, complete.go, workspace.go: the rest.
//   - http.go, http_session.go: Streamable HTTP ([ServeHTTP]): the /mcp
//     endpoint, its Host, Origin, token and size checks, sessions of the
//     handshake era, stateless POSTs of 2026-07-28, SSE answers.
//   - extras.go: Options.Extras, how the conformance fixture
//     (internal/conformance) mounts its primitives in place of WFL's.
//
// Both eras of the protocol are served at once: the handshake era
// (initialize negotiates 2024-11-05 through 2025-11-25) and the stateless
// 2026-07-28 revision, chosen per request by params._meta.
//
// Invariants:
//   - stdout carries only protocol lines; logs go to the Options.Logger.
//   - The reader never runs a handler of a pool method; notifications and
//     the handshake are handled in wire order.
//   - A request the client cancelled gets no answer; every other request
//     already read gets exactly one, also at the end of input.
//   - Every path a tool or resource touches stays inside Options.Root.
//   - mcpserver computes no language facts: it calls core (and reads the
//     lang/builtins registry).
package mcpserver
