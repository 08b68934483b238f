#!/usr/bin/env bash
# Issue #18's layer rules as a gate (the test command's "layers" stage): both dependency-cruiser
# configs over the whole tree, failing on any violation with the rule's name. .dependency-cruiser.cjs
# checks every import (layers, cycles, the domain's imports, the browser's imports, test support, the
# "server-only" marker); .dependency-cruiser.runtime.cjs checks what reaches the browser at run time.
# `npm run deps:report` prints the same violations with a count per rule and never fails.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
status=0
for config in .dependency-cruiser.cjs .dependency-cruiser.runtime.cjs; do
  echo "== $config"
  npx --no-install depcruise --config "$config" --output-type err server app instrumentation.ts || status=1
done
exit "$status"
