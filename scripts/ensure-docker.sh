#!/usr/bin/env bash
# Make sure a Docker engine answers on this machine. Idempotent: a running engine is left alone.
# These machines have no systemd, so dockerd is started directly in the background.
set -euo pipefail

LOG=/var/log/arbor-dockerd.log
WAIT_SECONDS=60

say() { echo "[ensure-docker] $*"; }
die() { echo "[ensure-docker] ERROR: $*" >&2; exit 1; }

if docker info >/dev/null 2>&1; then
  say "Docker engine is already running."
  exit 0
fi

[ "$(id -u)" -eq 0 ] || die "the Docker engine is not running and starting it needs root (run: sudo $0)."

if ! command -v dockerd >/dev/null 2>&1; then
  say "dockerd not found: installing docker.io from apt…"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q || die "apt-get update failed."
  apt-get install -y -q docker.io || die "apt-get install docker.io failed."
fi
command -v docker >/dev/null 2>&1 || die "the docker CLI is missing after installing docker.io."

if pidof dockerd >/dev/null 2>&1; then
  say "dockerd is already running (pid $(pidof dockerd)); waiting for it to answer…"
else
  say "Starting dockerd in the background (log: $LOG)…"
  # A pid file left behind by a dead engine makes dockerd refuse to start.
  rm -f /var/run/docker.pid
  nohup dockerd >>"$LOG" 2>&1 </dev/null &
  disown || true
fi

START=$SECONDS
while ((SECONDS - START < WAIT_SECONDS)); do
  if docker info >/dev/null 2>&1; then
    say "Docker engine is up after $((SECONDS - START))s ($(docker version --format '{{.Server.Version}}' 2>/dev/null || echo '?'))."
    exit 0
  fi
  if ! pidof dockerd >/dev/null 2>&1; then
    tail -n 20 "$LOG" >&2 || true
    die "dockerd exited during startup; see $LOG."
  fi
  sleep 1
done

tail -n 20 "$LOG" >&2 || true
die "Docker engine did not answer within ${WAIT_SECONDS}s; see $LOG."
