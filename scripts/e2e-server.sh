#!/usr/bin/env bash
# Starts the production build on PORT with a fresh data directory DATA_DIR, talking to the model at
# MODEL_URL (empty: the built-in offline model). Used by Playwright; the build must exist already.
# Set KEEP_DATA=1 to keep an existing data directory (a restart test).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
PORT="$1"
DATA_DIR="$2"
MODEL_URL="${3:-}"
[ "${KEEP_DATA:-0}" = "1" ] || rm -rf "$DATA_DIR"
umask 077 # the database and repositories are the owner's alone, as in production
mkdir -p "$DATA_DIR"
export ARBOR_DATA_DIR="$DATA_DIR"
export DATABASE_URL="file:$(cd "$DATA_DIR" && pwd)/arbor.db"
export ARBOR_MODEL_BASE_URL="$MODEL_URL"
export NEXTAUTH_URL="http://localhost:$PORT"
# The specs import fixture repositories they make under the temp directory (file://…); a real
# deployment leaves local imports off.
export ARBOR_IMPORT_LOCAL_ROOT="${ARBOR_IMPORT_LOCAL_ROOT:-${TMPDIR:-/tmp}}"
export NODE_ENV=production
npx --no-install prisma migrate deploy >/dev/null
npx --no-install tsx scripts/ensure-secrets.ts >/dev/null
exec node node_modules/next/dist/bin/next start -p "$PORT"
