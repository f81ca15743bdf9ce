#!/usr/bin/env bash
# End-to-end MCP checks: real clients drive the built binary over stdio.
#   the TypeScript SDK v1 client (handshake era), also declaring roots to a
#   server started without --root,
#   the v2 client in legacy, auto and 2026-07-28 modes,
#   the Inspector CLI listing and calling tools (exit codes checked),
#   the official Go SDK's client and mcp-go's, over stdio and HTTP, in both
#   eras, the HTTP server restarted under each (.ci/sdkload).
# Usage: .ci/mcp-e2e.sh /path/to/wfl-lsp
# Installs its npm packages into .ci/npm (git-ignored) and prints SKIP when a
# tool cannot be installed; exits non-zero when a check fails.
set -uo pipefail
BIN=${1:?usage: mcp-e2e.sh /path/to/wfl-lsp}
cd "$(dirname "$0")/.."
REPO=$PWD
fail=0

NPM_LOG=mcp
. .ci/npm.sh
if ! node22; then
  echo "SKIP: no node: MCP end-to-end clients not run"
  exit 0
fi
[ -z "$NODE_NOTE" ] || echo "SKIP: $NODE_NOTE (the Inspector needs 22)"
echo "node: $NODE ($($NODE --version))"

# A small workspace for the clients.
WS=$(mktemp -d)
trap 'rm -rf "$WS"' EXIT
printf 'store greeting as "Hello"\ndisplay greeting with ", world"\n' > "$WS/hello.wfl"
mkdir -p "$WS/sub"
printf 'define action called twice with n:\n    give back n times 2\nend action\ndisplay twice with 21\n' > "$WS/sub/nested.wfl"
cp "$REPO"/testdata/e2e/mcp/*.mjs "$NPM_DIR/"

run() { # run NAME CMD...: print the outcome, remember failures
  local name=$1; shift
  if "$@"; then echo "PASS: $name"; else echo "FAIL: $name"; fail=1; fi
}

if install @modelcontextprotocol/sdk@1.32.2; then
  run "TypeScript SDK v1 client over stdio" "$NODE" "$NPM_DIR/client-v1.mjs" "$WS" "$BIN" --mcp
  OTHER=$(mktemp -d)
  printf 'store extra_value as 2\n' > "$OTHER/extra.wfl"
  run "TypeScript SDK v1 client declaring roots, no --root" "$NODE" "$NPM_DIR/client-roots.mjs" "$WS" "$OTHER" "$BIN" --mcp
  rm -rf "$OTHER"
else
  echo "SKIP: @modelcontextprotocol/sdk could not be installed"
fi

if install @modelcontextprotocol/client@2.4.0; then
  for mode in legacy auto 2026-07-28; do
    run "TypeScript SDK v2 client, $mode" "$NODE" "$NPM_DIR/client-v2.mjs" "$mode" "$WS" "$BIN" --mcp
  done
else
  echo "SKIP: @modelcontextprotocol/client could not be installed"
fi

if [[ "$($NODE --version)" != v22* ]]; then
  echo "SKIP: Inspector CLI needs node 22"
elif install @modelcontextprotocol/inspector@2.12.0; then
  INS=$NPM_DIR/node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js
  # The Inspector keeps its state under HOME: a HOME of its own, given to it
  # alone (exported, it sent the Go build below to an empty build cache,
  # which rebuilt every module: 40 s).
  mkdir -p "$WS/home"
  # inspector WANT_EXIT GREP NAME ARGS...: run the CLI, check its exit code and output.
  inspector() {
    local want=$1 pattern=$2 name=$3; shift 3
    local out code
    out=$(cd "$WS" && HOME=$WS/home MCP_CATALOG_PATH=$WS/home/catalog.json timeout 60 "$NODE" "$INS" --cli "$@" --format json -- "$BIN" --mcp --root "$WS" 2>"$WS/inspector.err")
    code=$?
    if [ "$code" -eq "$want" ] && grep -q -- "$pattern" <<<"$out$(cat "$WS/inspector.err")"; then
      echo "PASS: Inspector $name (exit $code)"
    else
      echo "FAIL: Inspector $name: exit $code, want $want; output: ${out:0:300}"; tail -3 "$WS/inspector.err"; fail=1
    fi
  }
  inspector 0 '"analyze_wfl"' "tools/list" --method tools/list
  inspector 0 '"typecheck_wfl"' "tools/list, modern era" --protocol-era modern --method tools/list
  inspector 0 '"lint_wfl"' "tools/list, auto era" --protocol-era auto --method tools/list
  inspector 0 '"valid"' "tools/call analyze_wfl" --method tools/call --tool-name analyze_wfl --tool-arg 'source=display 1'
  inspector 0 '"errorCount"' "tools/call analyze_wfl, modern era" --protocol-era modern --method tools/call --tool-name analyze_wfl --tool-args-json '{"path":"hello.wfl"}'
  inspector 0 '"outline"' "tools/call parse_wfl" --method tools/call --tool-name parse_wfl --tool-args-json '{"path":"sub/nested.wfl"}'
  inspector 0 '"errorCount"' "tools/call typecheck_wfl, auto era" --protocol-era auto --method tools/call --tool-name typecheck_wfl --tool-arg 'source=display 1'
  inspector 0 '"diagnostics"' "tools/call lint_wfl" --method tools/call --tool-name lint_wfl --tool-args-json '{"path":"hello.wfl"}'
  inspector 5 'tool' "tools/call of an unknown tool" --method tools/call --tool-name no_such_tool
  inspector 5 'tool' "tools/call with bad arguments (isError)" --method tools/call --tool-name lookup_builtin --tool-args-json '{"nome":"x"}'
  inspector 0 'workspace://files' "resources/list" --method resources/list
  inspector 0 'store greeting' "resources/read" --method resources/read --uri workspace://file/hello.wfl
  inspector 0 'fix_wfl_errors' "prompts/list" --method prompts/list
else
  echo "SKIP: Inspector could not be installed"
fi

# The Go clients: the official Go SDK's and mcp-go's, over stdio and HTTP,
# in both eras, the HTTP server restarted under each (.ci/sdkload, a module
# of its own).
export PATH="/usr/local/go/bin:$PATH"
if (cd "$REPO/.ci/sdkload" && go build -o "$WS/sdkload" .) >"$WS/sdkload-build.log" 2>&1; then
  "$WS/sdkload" matrix -bin "$BIN" -root "$WS" 2>"$WS/sdkload.err" | tee "$WS/sdkload.out"
  if [ "${PIPESTATUS[0]}" -ne 0 ] || ! grep -q PASS "$WS/sdkload.out"; then
    echo "FAIL: the Go client matrix"; tail -5 "$WS/sdkload.err"; fail=1
  fi
else
  echo "SKIP: the Go client matrix (.ci/sdkload) could not be built (its modules could not be had?)"
  tail -3 "$WS/sdkload-build.log"
fi

if [ "$fail" -ne 0 ]; then echo "mcp-e2e: FAILED"; exit 1; fi
echo "mcp-e2e: all passed"
