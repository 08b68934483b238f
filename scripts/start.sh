#!/usr/bin/env bash
# Installs everything Arbor needs on a fresh Debian machine and runs it at http://localhost:3000 on its
# embedded defaults: SQLite in data/, the local Docker engine, the built-in offline model (set
# ARBOR_MODEL_BASE_URL to use a real OpenAI-compatible server). Safe to run again at any time.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

PORT="${PORT:-3000}"
ensure_node
ensure_debian_packages git ca-certificates docker.io debootstrap squid
ensure_sandbox
ensure_npm_packages
ensure_secrets
ensure_database
ensure_build

# A previous Arbor started by this script is replaced, so running the command again restarts it.
PIDFILE="data/arbor-server.pid"
if [ -f "$PIDFILE" ] && kill -0 "$(cat "$PIDFILE")" 2>/dev/null; then
  say "Stopping the Arbor server started earlier (pid $(cat "$PIDFILE"))…"
  kill "$(cat "$PIDFILE")" 2>/dev/null || true
  sleep 1
fi
mkdir -p data
echo $$ >"$PIDFILE"

export NODE_ENV=production
export NEXTAUTH_URL="${NEXTAUTH_URL:-http://localhost:$PORT}"
say "Arbor is starting at http://localhost:$PORT (Ctrl-C stops it)."
say "From a terminal or CI: make an API token on your team's page (Members and invitations), then"
say "  node packages/cli/bin/arbor.mjs login --url http://localhost:$PORT   (see \"The arbor CLI\" in README.md)"
exec node node_modules/next/dist/bin/next start -p "$PORT"
