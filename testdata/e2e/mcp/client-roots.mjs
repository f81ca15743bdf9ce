// End-to-end check of the workspace that follows the client's roots: the
// TypeScript SDK v1 client declares roots, wfl-lsp --mcp runs with no
// --root in another folder, and workspace_symbols sees the roots' files.
// Usage: node client-roots.mjs ROOT OTHER CMD [ARGS...]  (OTHER: a second
// folder, added later with notifications/roots/list_changed)
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ListRootsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { pathToFileURL } from "node:url";
import { tmpdir } from "node:os";

const [root, other, cmd, ...args] = process.argv.slice(2);
let failures = 0;
function check(cond, what, detail) {
  if (cond) { console.log(`ok   roots: ${what}`); return; }
  failures++;
  console.log(`FAIL roots: ${what}${detail === undefined ? "" : ": " + JSON.stringify(detail).slice(0, 400)}`);
}

let roots = [{ uri: pathToFileURL(root).href, name: "project" }];
let asked = 0;
const client = new Client({ name: "wfl-e2e-roots", version: "0.0.1" }, { capabilities: { roots: { listChanged: true } } });
client.setRequestHandler(ListRootsRequestSchema, async () => { asked++; return { roots }; });
// No --root, and started in another folder: only the roots can lead to the files.
await client.connect(new StdioClientTransport({ command: cmd, args, cwd: tmpdir(), stderr: "inherit" }));

let syms = await client.callTool({ name: "workspace_symbols", arguments: { query: "" } });
let paths = (syms.structuredContent?.symbols ?? []).map((s) => `${s.name}@${s.path}`);
check(asked === 1 && paths.includes("twice@sub/nested.wfl") && paths.includes("greeting@hello.wfl"), "workspace_symbols sees the root's files", { asked, paths });
const a = await client.callTool({ name: "analyze_wfl", arguments: { path: "hello.wfl" } });
check(!a.isError && a.structuredContent?.file === "hello.wfl", "a path relative to the root", a.structuredContent);

roots = [...roots, { uri: pathToFileURL(other).href, name: "other" }];
await client.sendRootsListChanged();
syms = await client.callTool({ name: "workspace_symbols", arguments: { query: "" } });
paths = (syms.structuredContent?.symbols ?? []).map((s) => `${s.name}@${s.path}`);
const base = root.split("/").filter(Boolean).pop(), otherBase = other.split("/").filter(Boolean).pop();
check(asked === 2 && paths.includes(`twice@${base}/sub/nested.wfl`) && paths.some((p) => p.startsWith(`extra_value@${otherBase}/`)),
  "after roots/list_changed, both folders, each path led by its folder's name", { asked, paths });

await client.close();
console.log(failures === 0 ? "roots: all passed" : `roots: ${failures} failed`);
process.exit(failures === 0 ? 0 : 1);
