#!/usr/bin/env bash
# Issue #18's layer rules as a gate (the test command's "layers" stage): both dependency-cruiser
# configs over the whole tree, failing on any violation with the rule's name. .dependency-cruiser.cjs
# checks every import (layers, cycles, the domain's imports, the browser's imports, test support, the
# "server-only" marker); .dependency-cruiser.runtime.cjs checks what reaches the browser at run time.
# `npm run deps:report` prints the same violations with a count per rule and never fails.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
# The two configs at once, one per core (each cruise is one single-threaded process); their outputs
# are printed in order after both end.
configs=(.dependency-cruiser.cjs .dependency-cruiser.runtime.cjs)
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
pids=()
for i in "${!configs[@]}"; do
  npx --no-install depcruise --config "${configs[$i]}" --output-type err server app instrumentation.ts >"$out/$i" 2>&1 &
  pids+=("$!")
done
status=0
for i in "${!configs[@]}"; do
  wait "${pids[$i]}" || status=1
  echo "== ${configs[$i]}"
  cat "$out/$i"
done
exit "$status"
