#!/usr/bin/env bash
# Make gVisor (`runsc`, Debian's package) available to the local Docker engine as the runtime "runsc",
# so a project can choose it for its sandboxes. Idempotent: installs the package only when missing,
# writes the runtime into the engine's daemon.json only when it is not there exactly (other settings
# in the file are kept), and reloads dockerd with SIGHUP (running containers are not touched).
#
# The runtime argument `--network=none` is what makes Debian's runsc run network-less containers
# (checked on these machines); it also refuses any networked container, so gVisor sessions are offline.
# gVisor is optional: on a machine where this cannot be done, it warns and Arbor runs with runc only.
set -euo pipefail

DAEMON_JSON="${ARBOR_DOCKER_DAEMON_JSON:-/etc/docker/daemon.json}"
RUNSC=/usr/bin/runsc
WAIT_SECONDS=20

say() { echo "[ensure-runsc] $*"; }
warn() { echo "[ensure-runsc] WARNING: $* gVisor sandboxes will not be available." >&2; exit 0; }

has_runtime() { docker info --format '{{json .Runtimes}}' 2>/dev/null | grep -q '"runsc"'; }

if [ -n "${DOCKER_HOST:-}" ] && [[ "$DOCKER_HOST" != unix://* ]]; then
  has_runtime && say "The engine at $DOCKER_HOST has the runsc runtime." && exit 0
  warn "the engine at $DOCKER_HOST is not local, so its runtimes cannot be set from here."
fi
[ "$(id -u)" -eq 0 ] || { has_runtime && exit 0; warn "registering runsc needs root."; }

if [ ! -x "$RUNSC" ]; then
  say "Installing Debian's runsc (gVisor)…"
  export DEBIAN_FRONTEND=noninteractive
  { apt-get update -q >/dev/null && apt-get install -y -q --no-install-recommends runsc >/dev/null; } ||
    warn "apt-get install runsc failed."
fi

# Merge the runtime into daemon.json with node (required by Arbor anyway): other keys stay as they are.
mkdir -p "$(dirname "$DAEMON_JSON")"
CHANGED="$(node - "$DAEMON_JSON" "$RUNSC" <<'EOF'
const fs = require("node:fs");
const [file, path] = process.argv.slice(2);
let config = {};
if (fs.existsSync(file)) {
  const text = fs.readFileSync(file, "utf8").trim();
  if (text) config = JSON.parse(text);
}
const wanted = { path, runtimeArgs: ["--network=none"] };
if (JSON.stringify(config.runtimes?.runsc) === JSON.stringify(wanted)) {
  process.stdout.write("no");
} else {
  config.runtimes = { ...(config.runtimes ?? {}), runsc: wanted };
  fs.writeFileSync(`${file}.arbor-tmp`, `${JSON.stringify(config, null, 2)}\n`);
  fs.renameSync(`${file}.arbor-tmp`, file);
  process.stdout.write("yes");
}
EOF
)" || warn "could not update $DAEMON_JSON (is it valid JSON?)."

if [ "$CHANGED" = "no" ] && has_runtime; then
  say "runsc (gVisor) is registered with the Docker engine."
  exit 0
fi

PID="$(pidof dockerd || true)"
[ -n "$PID" ] || warn "dockerd is not running here, so it cannot be reloaded."
say "Registered runsc in $DAEMON_JSON; reloading dockerd (pid $PID)…"
kill -HUP $PID
START=$SECONDS
while ((SECONDS - START < WAIT_SECONDS)); do
  if has_runtime; then
    say "runsc (gVisor) is registered with the Docker engine."
    exit 0
  fi
  sleep 1
done
warn "dockerd did not list the runsc runtime after a reload (see its log)."
