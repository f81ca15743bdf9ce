// Package mcpserver is the MCP (Model Context Protocol) front door of
// wfl-lsp: a hand-rolled JSON-RPC 2.0 server, no MCP SDK, whose tools,
// resources and prompts answer from the same language core as the editor.
//
// Start with [ServeStdio], and with [Primitives] for what a server offers.
// The layers, each in its own file:
//
//   - transport.go: stdio framing, one JSON object a line in, whole lines out
//     through one writer goroutine. A [sink] is all the session needs from a
//     transport, so Streamable HTTP can plug in beside stdio.
//   - codec.go: JSON-RPC 2.0 validation (-32700, -32600) and line building;
//     a client's responses are recognised and never answered.
//   - session.go: one connection: handshake state, pending requests,
//     cancellation, progress, logs, batches, the bounded pool, the drain.
//   - outgoing.go: the session's own requests to the client (ids, the
//     table of those awaiting an answer, time limit, cancellation) and the
//     workspace that follows the client's roots, read once per session
//     (and after roots/list_changed) with a limit of their own.
//   - router.go: the method table of both protocol eras and their results.
//   - static.go: answers that never change, serialized once per revision.
//   - primitives.go: how a tool, resource, template or prompt is declared;
//     call.go: the [Call] a handler gets (arguments, progress, logs, the
//     workspace, questions to the client in both eras).
//   - tools.go, resources.go, prompts.go, complete.go: tools/call,
//     resources/read and subscriptions, prompts/get, completion/complete,
//     for any primitives; schema.go: argument checks.
//   - wfl.go, tool_*.go, wfl_resources.go, wfl_prompts.go, positions.go,
//     crossfile.go: WFL's own primitives, one file per tool or family.
//   - workspace.go: the folders tools may read and path confinement,
//     through a core.FileAccess confined to them (os.Root).
//   - http.go, http_session.go: Streamable HTTP ([ServeHTTP]): the /mcp
//     endpoint, its Host, Origin, token and size checks, /healthz,
//     sessions of the handshake era with resumable event streams,
//     stateless POSTs of 2026-07-28, SSE answers.
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
//   - Every file a tool, resource, template or prompt reads, and every file
//     the core follows for it through `include from`, is a WFL file (*.wfl,
//     .wflcfg) inside the workspace, outside hidden folders, of at most
//     core.MaxFileSize bytes, opened through an os.Root of its folder
//     (core.Confine): a path or link that leaves it is refused when the
//     file is opened, and an include that leaves it is reported on its line
//     without saying whether the file exists. The workspace is Options.Root
//     (over HTTP: or the current folder) narrowed by the client's roots,
//     which never widen it; over stdio without Options.Root, the client's
//     roots, else the current folder.
//   - A call waits for the client's roots at most Options.RootsTimeout, and
//     only a call that reads a file waits for them at all.
//   - A request to the client is sent only when the client declared its
//     capability, and only in the handshake era.
//   - mcpserver computes no language facts: it calls core (and reads the
//     lang/builtins registry).
package mcpserver
