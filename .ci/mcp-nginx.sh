#!/usr/bin/env bash
# Several wfl-lsp instances behind Debian's nginx, with the configuration
# docs/mcp-http.md documents (.ci/nginx-mcp.conf), all on loopback:
#   1. 5,000 stateless 2026-07-28 calls from 16 clients: zero errors, and
#      both instances served some (nginx's access log tells which);
#   2. 100 handshake-era sessions of 20 calls each: all work;
#   3. one instance stopped mid-load, by SIGTERM and then by SIGKILL: zero
#      failed stateless calls, each session it held taken up by the other
#      (they share --session-key-file), and a new session works at once;
#   4. the same with the official Go SDK's client (handshake era, which
#      never starts a new session by itself): 16 clients, 5,000 calls, one
#      instance stopped at call 1,500: no failed call beyond one a client
#      in flight on the stopped instance (.ci/sdkload).
# Usage: .ci/mcp-nginx.sh /path/to/wfl-lsp
# Installs nginx with apt-get when it is missing; prints SKIP with the
# reason when it cannot be had. Any failure exits non-zero.
set -uo pipefail
BIN=${1:?usage: mcp-nginx.sh /path/to/wfl-lsp}
cd "$(dirname "$0")/.."
export PATH="/usr/local/go/bin:/usr/sbin:$PATH"
fail=0

if ! command -v nginx >/dev/null; then
  if command -v apt-get >/dev/null && [ "$(id -u)" = 0 ]; then
    echo "installing nginx with apt-get"
    # Keep the package's service from starting (it would listen on port 80
    # of every interface): this test runs its own nginx, on loopback only.
    own_policy=0
    if [ ! -e /usr/sbin/policy-rc.d ]; then
      printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d && chmod +x /usr/sbin/policy-rc.d && own_policy=1
    fi
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends nginx-light ||
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends nginx) >/tmp/wfl-nginx-apt.log 2>&1
    [ $own_policy = 1 ] && rm -f /usr/sbin/policy-rc.d
  fi
fi
if ! command -v nginx >/dev/null; then
  echo "SKIP: nginx is not installed and apt-get could not install it (not root, or no package): the several-instances test did not run"
  tail -3 /tmp/wfl-nginx-apt.log 2>/dev/null
  exit 0
fi
echo "nginx: $(nginx -v 2>&1)"

WORK=$(mktemp -d)
PIDS=()
cleanup() {
  for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; done
  [ -f "$WORK/nginx/nginx.pid" ] && kill "$(cat "$WORK/nginx/nginx.pid")" 2>/dev/null
  rm -rf "$WORK"
}
trap cleanup EXIT

go build -o "$WORK/mcpload" ./internal/mcpload || { echo "FAIL: building internal/mcpload"; exit 1; }
SDKLOAD=""
if (cd .ci/sdkload && go build -o "$WORK/sdkload" .) >"$WORK/sdkload-build.log" 2>&1; then
  SDKLOAD=$WORK/sdkload
else
  echo "SKIP: the Go SDK client (.ci/sdkload) could not be built (its module could not be had?): part 4 does not run"
  tail -3 "$WORK/sdkload-build.log"
fi
# The instances share a session key: each takes up the other's sessions.
( umask 077; openssl rand -hex 32 > "$WORK/session-key" 2>/dev/null || head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' > "$WORK/session-key" )
WS=$WORK/ws
mkdir -p "$WS"
printf 'store greeting as "Hello"\ndisplay greeting with ", world"\n' > "$WS/hello.wfl"

# start NAME: start instance NAME on a free port; sets PORT and PID.
# The log of the instance's previous round is removed first: the shell
# truncates it in the child, which may come after the first grep below, so
# that grep read the previous instance's port (dead by then). nginx then
# had one live instance, and when the test stopped it, every later call
# got 502 (1,995 of 3,000 in a review run; all of b's sessions on a here).
start() {
  local log=$WORK/$1.log
  rm -f "$log"
  "$BIN" --mcp --http 127.0.0.1:0 --root "$WS" --instance "$1" --session-key-file "$WORK/session-key" --log-level info 2>"$log" &
  PID=$!
  PIDS+=($PID)
  PORT=""
  for _ in $(seq 1 100); do
    PORT=$(grep -o 'url=http://[^ ]*' "$log" 2>/dev/null | head -1 | sed 's/.*:\([0-9]*\)\/mcp/\1/')
    [ -n "$PORT" ] && return 0
    sleep 0.1
  done
  echo "FAIL: instance $1 did not start"; cat "$log"; exit 1
}

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

# round: start both instances and nginx before each part, so that one
# part's stopped instance does not spoil the next.
round() {
  [ -f "$WORK/nginx/nginx.pid" ] && { kill "$(cat "$WORK/nginx/nginx.pid")" 2>/dev/null; sleep 0.5; }
  for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; done 2>/dev/null
  PIDS=()
  start a; A=$PORT; PID_A=$PID
  start b; B=$PORT; PID_B=$PID
  N=$(free_port)
  rm -rf "$WORK/nginx"; mkdir -p "$WORK/nginx"
  sed -e "s|@DIR@|$WORK/nginx|g" -e "s|@PORT@|$N|g" -e "s|@A@|$A|g" -e "s|@B@|$B|g" .ci/nginx-mcp.conf > "$WORK/nginx/nginx.conf"
  if ! nginx -p "$WORK/nginx" -c "$WORK/nginx/nginx.conf"; then
    echo "FAIL: nginx did not start"; cat "$WORK/nginx/error.log"; exit 1
  fi
  for _ in $(seq 1 50); do
    curl -fsS -o /dev/null "http://127.0.0.1:$N/healthz" 2>/dev/null && break
    sleep 0.1
  done
  URL=http://127.0.0.1:$N/mcp
}

# split: requests each instance answered, from nginx's access log.
split() {
  awk -v a="127.0.0.1:$A" -v b="127.0.0.1:$B" '
    { n[$1]++ } END { printf "instance a %d, instance b %d, retried on the other %d\n", n[a], n[b], NR - n[a] - n[b] }' "$WORK/nginx/access.log"
}

check() { # check NAME CMD...: run, print, remember failure
  local name=$1; shift
  if "$@"; then echo "PASS: $name"; else echo "FAIL: $name"; fail=1; fi
}

echo
echo "--- 1. stateless calls through nginx"
round
check "health endpoint through nginx" curl -fsS -o /dev/null "http://127.0.0.1:$N/healthz"
check "5,000 stateless calls from 16 clients, no error" "$WORK/mcpload" stateless -url "$URL" -clients 16 -calls 5000
echo "split: $(split)"
grep -q "127.0.0.1:$A 200" "$WORK/nginx/access.log" && grep -q "127.0.0.1:$B 200" "$WORK/nginx/access.log" ||
  { echo "FAIL: the calls were not spread over both instances"; fail=1; }

echo
echo "--- 2. handshake-era sessions through nginx"
check "100 sessions of 20 calls each, all working" "$WORK/mcpload" sessions -url "$URL" -clients 16 -sessions 100 -calls 20
echo "split: $(split)"

for sig in TERM KILL; do
  echo
  echo "--- 3. instance b stopped by SIG$sig mid-load"
  round
  check "SIG$sig: no failed stateless call, b's sessions taken up by a, a new session works" \
    "$WORK/mcpload" failover -url "$URL" -clients 16 -calls 3000 -sessions 20 -stop-pid "$PID_B" -stop-instance b -signal "$sig"
  echo "split: $(split)"
done

if [ -n "$SDKLOAD" ]; then
  for sig in TERM KILL; do
    echo
    echo "--- 4. Go SDK clients (handshake era), instance b stopped by SIG$sig at call 1,500 of 5,000"
    round
    check "SIG$sig: Go SDK sessions go on, no failed call beyond those in flight on b" \
      "$SDKLOAD" restart -url "$URL" -clients 16 -calls 5000 -stop-at 1500 -stop-pid "$PID_B" -signal "$sig"
    echo "split: $(split)"
    echo "sessions taken up by a: $(grep -c 'session taken up' "$WORK/a.log")"
  done
fi

if [ "$fail" -ne 0 ]; then echo "mcp-nginx: FAILED"; exit 1; fi
echo "mcp-nginx: all passed"
