// End-to-end check of `wfl-lsp --mcp` with the TypeScript SDK v2 client in
// one negotiation mode. Usage: node client-v2.mjs MODE ROOT CMD [ARGS...]
// where MODE is legacy, auto or 2026-07-28. Exits non-zero on failure.
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";

const [mode, root, cmd, ...args] = process.argv.slice(2);
let failures = 0;
function check(cond, what, detail) {
  if (cond) { console.log(`ok   v2 ${mode}: ${what}`); return; }
  failures++;
  console.log(`FAIL v2 ${mode}: ${what}${detail === undefined ? "" : ": " + JSON.stringify(detail).slice(0, 400)}`);
}

const versionNegotiation = { mode: mode === "legacy" || mode === "auto" ? mode : { pin: mode } };
const client = new Client({ name: "wfl-e2e-v2", version: "0.0.1" }, { versionNegotiation });
await client.connect(new StdioClientTransport({ command: cmd, args: [...args, "--root", root], stderr: "inherit" }));
const version = client.getNegotiatedProtocolVersion();
const want = mode === "legacy" ? "2025-11-25" : "2026-07-28";
check(version === want, `negotiated ${want}`, { version, era: client.getProtocolEra() });

const names = (await client.listTools()).tools.map((t) => t.name);
check(["analyze_wfl", "typecheck_wfl", "lint_wfl"].every((n) => names.includes(n)), "tools listed", names);
const r = await client.callTool({ name: "analyze_wfl", arguments: { source: "store x as\n" } });
check(!r.isError && r.structuredContent?.valid === false, "analyze_wfl finds the error", r.structuredContent);
const b = await client.callTool({ name: "lookup_builtin", arguments: { name: "length" } });
check(b.structuredContent?.builtin?.name === "length", "lookup_builtin", b.structuredContent);
const wrong = await client.callTool({ name: "lookup_builtin", arguments: {} });
check(wrong.isError === true, "missing argument is a tool error", wrong);
const files = JSON.parse((await client.readResource({ uri: "workspace://files" })).contents[0].text);
check(files.count === 2, "workspace://files", files);
const prompts = (await client.listPrompts()).prompts.map((p) => p.name);
check(prompts.includes("write_wfl_program"), "prompts listed", prompts);
const templates = (await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate);
check(["workspace://file/{+path}", "workspace://diagnostics/{+path}", "workspace://symbols/{+path}", "wfl://builtin/{name}"]
  .every((t) => templates.includes(t)) && templates.length === 4, "templates listed", templates);
try {
  await client.readResource({ uri: "workspace://nope" });
  check(false, "unknown resource is an error");
} catch (e) {
  const code = e.code;
  check(code === (mode === "legacy" ? -32002 : -32602) || /not found/i.test(String(e.message)), "unknown resource is an error of the era", { code, message: e.message });
}
await client.close();
console.log(failures === 0 ? `v2 ${mode}: all passed` : `v2 ${mode}: ${failures} failed`);
process.exit(failures === 0 ? 0 : 1);
