// End-to-end check of `wfl-lsp --mcp` with the TypeScript SDK v1 client
// (handshake era) over stdio. Usage: node client-v1.mjs ROOT CMD [ARGS...]
// Exits non-zero on the first failed expectation.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ResourceUpdatedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { writeFileSync, unlinkSync } from "node:fs";
import { join } from "node:path";

const [root, cmd, ...args] = process.argv.slice(2);
let failures = 0;
function check(cond, what, detail) {
  if (cond) { console.log(`ok   v1: ${what}`); return; }
  failures++;
  console.log(`FAIL v1: ${what}${detail === undefined ? "" : ": " + JSON.stringify(detail).slice(0, 400)}`);
}

const client = new Client({ name: "wfl-e2e-v1", version: "0.0.1" });
await client.connect(new StdioClientTransport({ command: cmd, args: [...args, "--root", root], stderr: "inherit" }));
check(client.getServerVersion()?.name === "wfl-lsp", "serverInfo names wfl-lsp", client.getServerVersion());
const caps = client.getServerCapabilities();
check(caps?.tools && caps?.resources?.subscribe && caps?.prompts && caps?.completions && caps?.logging, "capabilities", caps);

check(JSON.stringify(await client.ping()) === "{}", "ping");

const tools = (await client.listTools()).tools;
const names = tools.map((t) => t.name);
for (const n of ["parse_wfl", "analyze_wfl", "typecheck_wfl", "lint_wfl"]) check(names.includes(n), `tool ${n} listed`, names);
check(tools.every((t) => t.outputSchema && t.annotations?.readOnlyHint === true && t.title), "every tool has title, outputSchema, annotations", tools.map((t) => t.name));

// The client checks structuredContent against outputSchema itself.
const bad = await client.callTool({ name: "analyze_wfl", arguments: { source: 'store x as\ndisplay "unterminated\n' } });
check(!bad.isError && bad.structuredContent?.valid === false && bad.structuredContent.errorCount > 0, "analyze_wfl finds errors", bad.structuredContent);
check(JSON.parse(bad.content[0].text).errorCount === bad.structuredContent.errorCount, "text block carries the same JSON");
const good = await client.callTool({ name: "analyze_wfl", arguments: { path: "hello.wfl" } });
check(!good.isError && good.structuredContent?.file === "hello.wfl", "analyze_wfl with a workspace path", good.structuredContent);
for (const n of ["typecheck_wfl", "lint_wfl"]) {
  const r = await client.callTool({ name: n, arguments: { source: "display 1\n" } });
  check(!r.isError && Array.isArray(r.structuredContent?.diagnostics), `${n} answers`, r);
}
const wrong = await client.callTool({ name: "analyze_wfl", arguments: { sauce: "x" } });
check(wrong.isError === true && /unknown argument "sauce"/.test(JSON.parse(wrong.content[0].text).error.message), "bad arguments are a tool error", wrong);
const outside = await client.callTool({ name: "analyze_wfl", arguments: { path: "../../etc/passwd" } });
check(outside.isError === true && JSON.parse(outside.content[0].text).error.kind === "outside_workspace", "paths stay in the workspace", outside);
try {
  await client.callTool({ name: "no_such_tool", arguments: {} });
  check(false, "unknown tool is an error");
} catch (e) {
  check(e.code === -32602, "unknown tool is -32602", e.code);
}
const parsed = await client.callTool({ name: "parse_wfl", arguments: { path: "sub/nested.wfl" } });
check(parsed.structuredContent?.valid === true && parsed.structuredContent.outline[0]?.name === "twice" && parsed.structuredContent.outline[0].kind === "action", "parse_wfl outline", parsed.structuredContent);
const legacyArgs = await client.callTool({ name: "parse_wfl", arguments: { source: "display 1\n", include_positions: false } });
check(!legacyArgs.isError && legacyArgs.structuredContent.statementCount === 1, "parse_wfl keeps the old include_positions argument", legacyArgs);
const info = await client.callTool({ name: "get_symbol_info", arguments: { path: "sub/nested.wfl", line: 1, column: 23 } });
check(info.structuredContent?.found === true && info.structuredContent.kind === "action", "get_symbol_info", info.structuredContent);
const refs = await client.callTool({ name: "find_references", arguments: { path: "sub/nested.wfl", line: 2, column: 15 } });
check(refs.structuredContent?.count === 2, "find_references of a parameter", refs.structuredContent);
const explained = await client.callTool({ name: "explain_diagnostic", arguments: { code: "LINT-NAME" } });
check(explained.structuredContent?.category === "lint", "explain_diagnostic", explained.structuredContent);
const builtin = await client.callTool({ name: "lookup_builtin", arguments: { name: "substring" } });
check(builtin.structuredContent?.builtin?.module === "text", "lookup_builtin", builtin.structuredContent);

let progress = [];
const ws = await client.callTool({ name: "check_workspace", arguments: {} }, undefined, { onprogress: (p) => progress.push(p.progress) });
// Progress is not asserted here: this client drops progress notifications
// that arrive in the same read as the response (it handles notifications in
// a microtask, the response at once). The Go wire tests check the order.
check(ws.structuredContent?.fileCount === 2 && progress.every((p, i) => i === 0 || p > progress[i - 1]), "check_workspace", { sc: ws.structuredContent?.summary, progress });

const resources = (await client.listResources()).resources.map((r) => r.uri);
check(["workspace://files", "workspace://symbols", "workspace://diagnostics", "workspace://config"].every((u) => resources.includes(u)), "resources listed", resources);
const files = JSON.parse((await client.readResource({ uri: "workspace://files" })).contents[0].text);
check(files.count === 2, "workspace://files", files);
const templates = (await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate);
check(templates.includes("workspace://file/{+path}"), "templates listed", templates);
const text = (await client.readResource({ uri: "workspace://file/hello.wfl" })).contents[0].text;
check(text.startsWith("store greeting"), "file contents through the template", text);
try {
  await client.readResource({ uri: "workspace://nope" });
  check(false, "unknown resource is an error");
} catch (e) {
  check(e.code === -32002, "unknown resource is -32002", e.code);
}
await client.subscribeResource({ uri: "workspace://files" });
await client.unsubscribeResource({ uri: "workspace://files" });
check(true, "subscribe and unsubscribe");

const prompts = (await client.listPrompts()).prompts.map((p) => p.name);
check(prompts.includes("fix_wfl_errors") && prompts.includes("translate_to_wfl"), "prompts listed", prompts);
const prompt = await client.getPrompt({ name: "explain_wfl_program", arguments: { path: "hello.wfl" } });
check(prompt.messages[0].content.text.includes("store greeting"), "prompts/get", prompt);
const done = await client.complete({ ref: { type: "ref/prompt", name: "explain_wfl_program" }, argument: { name: "path", value: "h" } });
check(JSON.stringify(done.completion.values) === '["hello.wfl"]', "completion/complete", done);
await client.setLoggingLevel("debug");
check(true, "logging/setLevel");

// Across files: a workspace file that includes sub/nested.wfl, and a
// subscription that reports its creation (the server polls every second).
const updated = new Promise((resolve) => client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => resolve(n.params.uri)));
await client.subscribeResource({ uri: "workspace://files" });
writeFileSync(join(root, "main.wfl"), 'include from "sub/nested.wfl"\ndisplay twice with 2\n');
const timeout = new Promise((resolve) => setTimeout(() => resolve("no update within 5 s"), 5000));
check((await Promise.race([updated, timeout])) === "workspace://files", "resources/updated after a .wfl file is created");
await client.unsubscribeResource({ uri: "workspace://files" });
const def = await client.callTool({ name: "find_definition", arguments: { path: "main.wfl", line: 2, column: 10 } });
check(def.structuredContent?.definitions?.[0]?.file === "sub/nested.wfl" && def.structuredContent.definitions[0].line === 1, "find_definition follows include from", def.structuredContent);
const xrefs = await client.callTool({ name: "find_references", arguments: { path: "main.wfl", line: 2, column: 10 } });
check(xrefs.structuredContent?.count === 3, "find_references across the include", xrefs.structuredContent);
const xren = await client.callTool({ name: "rename_symbol", arguments: { path: "main.wfl", line: 2, column: 10, newName: "double" } });
check(xren.structuredContent?.otherFiles?.[0]?.file === "sub/nested.wfl" && xren.structuredContent.count === 3, "rename_symbol across the include", xren.structuredContent);
unlinkSync(join(root, "main.wfl"));

await client.close();
console.log(failures === 0 ? "v1: all passed" : `v1: ${failures} failed`);
process.exit(failures === 0 ? 0 : 1);
