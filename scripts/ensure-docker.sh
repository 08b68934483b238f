#!/usr/bin/env bash
# Make sure a Docker engine answers on this machine. Idempotent: a running engine is left alone.
# These machines have no systemd, so dockerd is started directly in the background.
#
# The engine we start is watched through its own pid ($!), never `pidof`: right after the start the
# background process may not be dockerd yet, and a first start once died with "dockerd exited during
# startup" and an empty log. A start that fails is retried, and each failure shows that attempt's log.
set -euo pipefail

LOG="${ARBOR_DOCKERD_LOG:-/var/log/arbor-dockerd.log}"
PIDFILE="${ARBOR_DOCKERD_PIDFILE:-/var/run/docker.pid}"
WAIT_SECONDS="${ARBOR_DOCKERD_WAIT_SECONDS:-60}"
ATTEMPTS="${ARBOR_DOCKERD_ATTEMPTS:-3}"

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

up() {
  docker info >/dev/null 2>&1
}

announce_up() {
  say "Docker engine is up after $1s ($(docker version --format '{{.Server.Version}}' 2>/dev/null || echo '?'))."
}

# A process of ours is alive while it exists and is not a zombie.
alive() {
  kill -0 "$1" 2>/dev/null && [ "$(ps -o stat= -p "$1" 2>/dev/null | cut -c1)" != "Z" ]
}

# The log lines written since line $1 (this attempt's), or a note that there were none.
show_log_since() {
  local from="$1"
  echo "---- $LOG (this attempt) ----" >&2
  if [ -s "$LOG" ] && [ "$(wc -l <"$LOG")" -gt "$from" ]; then
    tail -n +"$((from + 1))" "$LOG" | tail -n 40 >&2
  else
    echo "(dockerd wrote nothing)" >&2
  fi
  echo "----" >&2
}

if pidof dockerd >/dev/null 2>&1; then
  # Someone else's engine is starting: wait for it, but never start a second one.
  say "dockerd is already running (pid $(pidof dockerd)); waiting for it to answer…"
  START=$SECONDS
  while ((SECONDS - START < WAIT_SECONDS)); do
    if up; then
      announce_up $((SECONDS - START))
      exit 0
    fi
    sleep 1
  done
  tail -n 40 "$LOG" >&2 || true
  die "Docker engine did not answer within ${WAIT_SECONDS}s; see $LOG."
fi

mkdir -p "$(dirname "$LOG")"
touch "$LOG"
for ((attempt = 1; attempt <= ATTEMPTS; attempt++)); do
  from=$(wc -l <"$LOG")
  say "Starting dockerd in the background, attempt $attempt of $ATTEMPTS (log: $LOG)…"
  # A pid file left behind by a dead engine makes dockerd refuse to start.
  rm -f "$PIDFILE"
  nohup dockerd >>"$LOG" 2>&1 </dev/null &
  pid=$!
  START=$SECONDS
  outcome="timeout"
  while ((SECONDS - START < WAIT_SECONDS)); do
    if up; then
      announce_up $((SECONDS - START))
      exit 0
    fi
    if ! alive "$pid"; then
      outcome="exited"
      break
    fi
    sleep 1
  done
  if [ "$outcome" = "exited" ]; then
    status=0
    wait "$pid" 2>/dev/null || status=$?
    echo "[ensure-docker] dockerd (pid $pid) exited during startup with status $status." >&2
  else
    echo "[ensure-docker] dockerd (pid $pid) did not answer within ${WAIT_SECONDS}s; stopping it." >&2
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  fi
  show_log_since "$from"
done
die "the Docker engine did not start after $ATTEMPTS attempts; the log of each is above and in $LOG."
