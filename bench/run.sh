#!/usr/bin/env bash
# Runs every benchmark; each prints its figures (medians, with a baseline measured in the same run).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
# A failing bench does not hide the figures of the ones after it; the step still fails at the end.
failed=()
for bench in bench/*.bench.ts; do
  echo "== $bench"
  npx --no-install tsx --import ./testing/server-only/loader.mjs "$bench" || failed+=("$bench")
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "benchmarks that failed: ${failed[*]}"
  exit 1
fi
