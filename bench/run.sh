#!/usr/bin/env bash
# Runs every benchmark; each prints its figures (medians, with a baseline measured in the same run).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

# The share of the CPUs idle over one second, in percent (from /proc/stat's first line; time waiting
# for the disk counts as busy: the appends' commits wait on it too).
idle_percent() {
  local a b
  read -ra a < <(head -n 1 /proc/stat)
  sleep 1
  read -ra b < <(head -n 1 /proc/stat)
  local total=0 i
  for i in 1 2 3 4 5 6 7 8; do total=$((total + b[i] - a[i])); done
  echo $(((b[4] - a[4]) * 100 / (total > 0 ? total : 1)))
}

# Each bench starts on a settled machine: the steps before (the end-to-end clean-up removes dozens of
# containers) and the bench before it leave the engine busy for a while, and a figure measured in that
# tail says more about the tail than about Arbor. Waits for 3 seconds in a row at least 85 % idle, at
# most BENCH_SETTLE_MAX_S (60) seconds, and prints what it found.
settle() {
  local waited=0 calm=0 idle=0
  while [ "$waited" -lt "${BENCH_SETTLE_MAX_S:-60}" ] && [ "$calm" -lt 3 ]; do
    idle="$(idle_percent)"
    waited=$((waited + 1))
    if [ "$idle" -ge 85 ]; then calm=$((calm + 1)); else calm=0; fi
  done
  local state="settled after ${waited} s"
  [ "$calm" -ge 3 ] || state="still busy after ${waited} s (measured anyway)"
  echo "(machine ${state}: ${idle} % idle, load average $(cut -d' ' -f1-3 /proc/loadavg))"
}

# A failing bench does not hide the figures of the ones after it; the step still fails at the end.
failed=()
for bench in bench/*.bench.ts; do
  echo "== $bench"
  settle
  npx --no-install tsx --import ./testing/server-only/loader.mjs "$bench" || failed+=("$bench")
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "benchmarks that failed: ${failed[*]}"
  exit 1
fi
