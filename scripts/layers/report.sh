#!/usr/bin/env bash
# Issue #18's layer rules in report mode: prints every violation of .dependency-cruiser.cjs (all
# imports) and .dependency-cruiser.runtime.cjs (what reaches the browser), then the count per rule.
# Exits 0 whatever it finds (the gate is scripts/layers/check.sh, in the test command); non-zero only
# when a cruise itself failed (a broken config, a file it cannot parse).
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
out=$(mktemp)
trap 'rm -f "$out"' EXIT
for config in .dependency-cruiser.cjs .dependency-cruiser.runtime.cjs; do
  echo "== $config"
  npx --no-install depcruise --config "$config" --output-type err server app instrumentation.ts >"$out" 2>&1
  cat "$out"
  if ! grep -qE "dependency violations|no dependency violations found" "$out"; then
    echo "the cruise with $config failed" >&2
    exit 1
  fi
  echo "-- violations per rule ($config)"
  grep -oE "^  (error|warn|info) [a-z0-9-]+" "$out" | awk '{print $2}' | sort | uniq -c | sort -rn
done
