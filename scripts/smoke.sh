#!/usr/bin/env bash
# Starts the service as a new user would (`npm start`, no DATABASE_URL: it runs its embedded
# PostgreSQL), waits for readiness, calls one authenticated endpoint and the web interface, then
# stops it with SIGTERM and checks that it and its PostgreSQL server exit cleanly.
set -euo pipefail
cd "$(dirname "$0")/.."

port=${SMOKE_PORT:-9000}
data_dir=$(mktemp -d)
log=$(mktemp)
unset DATABASE_URL
DATA_DIR="$data_dir" PORT="$port" BOOTSTRAP_TOKEN=smoke-token BOOTSTRAP_ORG=acme BOOTSTRAP_PROJECT=web \
  node dist/apps/api/src/main.js >"$log" 2>&1 &
pid=$!
postmaster_pid="$data_dir/postgres/postmaster.pid"
cleanup() {
  kill "$pid" 2>/dev/null || true
  if [ -f "$postmaster_pid" ]; then kill -QUIT "$(head -1 "$postmaster_pid")" 2>/dev/null || true; fi
  rm -rf "$data_dir" "$log"
}
trap cleanup EXIT

for _ in $(seq 1 60); do
  if curl -fsS "http://127.0.0.1:$port/health/ready" >/dev/null 2>&1; then break; fi
  if ! kill -0 "$pid" 2>/dev/null; then cat "$log"; echo "smoke: the service exited during start-up"; exit 1; fi
  sleep 1
done
body=$(curl -fsS -H 'Authorization: Bearer smoke-token' "http://127.0.0.1:$port/api/0/projects/acme/web/")
echo "$body" | grep -q '"slug":"web"' || { echo "smoke: unexpected project body: $body"; exit 1; }
page=$(curl -fsS "http://127.0.0.1:$port/settings/acme/projects/web/hooks/")
echo "$page" | grep -q 'src="/assets/main-' || { echo "smoke: the web interface is not served: $page"; exit 1; }
grep -q "Faultline is running. Open http://127.0.0.1:$port/ and sign in as admin@localhost" "$log" || { echo "smoke: the start banner does not say where to sign in"; cat "$log"; exit 1; }
grep -q 'Password: .*(generated now and shown once' "$log" || { echo "smoke: no generated sign-in password was printed"; exit 1; }

kill -TERM "$pid"
for _ in $(seq 1 20); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
if kill -0 "$pid" 2>/dev/null; then echo "smoke: the service did not stop on SIGTERM"; exit 1; fi
wait "$pid" || { echo "smoke: the service exited with an error"; cat "$log"; exit 1; }
if [ -f "$postmaster_pid" ]; then echo "smoke: the embedded PostgreSQL server is still running"; exit 1; fi
echo "smoke: 1 passed, 0 failed"
