// Package mcp is a hand-rolled MCP (Model Context Protocol) server: a
// JSON-RPC 2.0 server, no MCP SDK, that serves the tools, resources,
// templates and prompts it is given. It knows nothing of WFL: wfl-lsp's
// primitives are declared in package mcpserver, the conformance fixture's
// in internal/conformance, both as [Primitives].
//
// Start with [Primitives] (primitives.go) for what a server offers, [Call]
// (call.go) for what a handler sees, and [ServeStdio] and [ServeHTTP] for
// serving them. The layers, each in its own file:
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
//     (and after roots/list_changed) with a limit of their own;
//     workspace.go: the workspace's folders, and what
//     Primitives.OpenWorkspace makes of them.
//   - router.go: the method table of both protocol eras and their results.
//   - static.go: answers that never change, serialized once per revision.
//   - primitives.go: how a tool, resource, template or prompt is declared;
//     call.go: the [Call] a handler gets (arguments, progress, logs, the
//     workspace, questions to the client in both eras).
//   - tools.go, resources.go, prompts.go, complete.go: tools/call,
//     resources/read and subscriptions, prompts/get, completion/complete,
//     for any primitives; schema.go: argument checks.
//   - http.go, http_session.go: Streamable HTTP ([ServeHTTP]): the /mcp
//     endpoint, its Host, Origin, token and size checks, /healthz,
//     sessions of the handshake era with resumable event streams,
//     stateless POSTs of 2026-07-28, SSE answers; http_limit.go caps the
//     connections, http_ticket.go signs session ids.
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
//   - The workspace is Options.Root (over HTTP: or the current folder)
//     narrowed by the client's roots, which never widen it; over stdio
//     without Options.Root, the client's roots, else the current folder.
//     Its folders are real absolute paths, none inside another.
//   - A call waits for the client's roots at most Options.RootsTimeout, and
//     only a call that asks for its workspace waits for them at all.
//   - A request to the client is sent only when the client declared its
//     capability, and only in the handshake era.
//   - The package imports nothing of wfl-lsp's (architecture_test.go).
package mcp
