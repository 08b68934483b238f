#!/usr/bin/env bash
# Runs the whole test suite on a fresh Debian machine: installs what it needs (Docker engine, the
# sandbox image, Chromium, npm packages, the database), then lint + types + layer rules, unit tests, integration
# tests (real Docker, real SQLite, the fake model server over HTTP; the store's again and the cluster's on
# PostgreSQL), the Playwright specs in real
# Chromium, and the benchmarks. Ends with one line: "N passed, N failed".
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

ensure_node
ensure_debian_packages git ca-certificates docker.io debootstrap squid tinyproxy chromium nginx fcgiwrap openssh-server
ensure_sandbox
ensure_npm_packages
ensure_secrets
ensure_database

RESULTS=".test-results"
rm -rf "$RESULTS"
mkdir -p "$RESULTS"
echo "install and setup: ok ($SECONDS s)" >>"$RESULTS/steps.txt"
FAILED_STEPS=()
step() {
  local name="$1"
  shift
  say "── $name"
  # Each step's wall time, so a suite that creeps towards CI's limit shows where.
  local started=$SECONDS
  if "$@"; then
    echo "$name: ok ($((SECONDS - started)) s)" >>"$RESULTS/steps.txt"
  else
    echo "$name: FAILED ($((SECONDS - started)) s)" >>"$RESULTS/steps.txt"
    FAILED_STEPS+=("$name")
  fi
}

step "lint and format (biome)" npx --no-install biome check .
step "types (tsc)" npx --no-install tsc --noEmit
step "layers (dependency-cruiser)" bash scripts/layers/check.sh
step "dead code (knip: unused files, exports, dependencies)" npx --no-install knip --reporter compact
step "unit tests" npx --no-install vitest run --project unit --reporter=default --reporter=json --outputFile="$RESULTS/unit.json"
step "integration tests" npx --no-install vitest run --project integration --reporter=default --reporter=json --outputFile="$RESULTS/integration.json"
# The store tests again, and the cluster's (run leases, live events across instances), on PostgreSQL:
# a throwaway cluster on loopback (Debian's package, kept between runs in /var/tmp/arbor-postgres),
# the URL from its last line.
postgres_tests() {
  local url
  url="$(bash deploy/postgres.sh | tail -n 1)" || return 1
  ARBOR_TEST_POSTGRES_URL="$url" npx --no-install vitest run --project integration-postgres --reporter=default --reporter=json --outputFile="$RESULTS/integration-postgres.json"
}
step "integration tests on PostgreSQL (event store, projections, several processes and instances)" postgres_tests
step "production build" ensure_build
step "end-to-end tests (Playwright, Chromium)" env CI=1 npx --no-install playwright test
bash scripts/e2e-cleanup.sh
step "benchmarks" bash bench/run.sh

echo "whole command: $SECONDS s" >>"$RESULTS/steps.txt"
node scripts/summarize-tests.mjs "$RESULTS" "${#FAILED_STEPS[@]}"
if [ ${#FAILED_STEPS[@]} -gt 0 ]; then
  die "failed: ${FAILED_STEPS[*]}"
fi
say "All checks passed."
