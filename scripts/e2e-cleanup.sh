#!/usr/bin/env bash
# Removes the sandbox containers the Playwright servers left behind (one Arbor instance per data
# directory under .e2e/), so the benchmarks that follow run on a quiet engine. An instance is named
# like the app names it (server/sandbox/index.ts): the first 12 hex digits of sha256(DATABASE_URL).
# A developer's own sessions belong to another DATABASE_URL and are never touched.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
[ -d .e2e ] || exit 0
for dir in .e2e/*/; do
  url="file:$(cd "$dir" && pwd)/arbor.db"
  instance="$(printf '%s' "$url" | sha256sum | cut -c1-12)"
  ids="$(docker ps -aq --filter "label=arbor.managed=true" --filter "label=arbor.instance=$instance")"
  [ -n "$ids" ] && docker rm -f $ids >/dev/null && echo "removed $(echo "$ids" | wc -l) e2e containers of $dir"
done
exit 0
