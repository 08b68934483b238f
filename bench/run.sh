#!/usr/bin/env bash
# Runs every benchmark; each prints its figures (medians, with a baseline measured in the same run).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
for bench in bench/*.bench.ts; do
  echo "== $bench"
  npx --no-install tsx --import ./testing/server-only/loader.mjs "$bench"
done
