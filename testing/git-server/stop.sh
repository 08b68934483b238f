#!/usr/bin/env bash
# Ends the git server testing/git-server/start.sh started in <dir> (by its pid files only).
set -uo pipefail
dir="$1"
for name in nginx fcgiwrap; do
  if [ -f "$dir/$name.pid" ]; then
    kill "$(cat "$dir/$name.pid")" 2>/dev/null || true
    rm -f "$dir/$name.pid"
  fi
done
