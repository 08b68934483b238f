#!/usr/bin/env bash
# A throwaway PostgreSQL cluster on loopback for the tests, the benchmark and trying Arbor as a cluster
# on one machine: Debian's `postgresql` package, its own data directory (kept between runs), a unix
# socket only its owner can reach and 127.0.0.1:$ARBOR_PG_PORT with a password. Idempotent: a running
# cluster is left alone. Prints the connection string (DATABASE_URL) on its last line.
#
#   bash deploy/postgres.sh          # install if needed, initialise once, start
#   bash deploy/postgres.sh stop     # stop it (the data directory stays)
source "$(dirname "${BASH_SOURCE[0]}")/../scripts/lib.sh"

PG_DIR="${ARBOR_PG_DIR:-/var/tmp/arbor-postgres}"
PG_PORT="${ARBOR_PG_PORT:-54329}"
# Loopback only, a test cluster: the role may create databases (one per test), nothing more.
PG_ROLE="arbor"
PG_PASSWORD="arbor"

ensure_debian_packages postgresql
PG_BIN="/usr/lib/postgresql/$(ls /usr/lib/postgresql | sort -V | tail -n 1)/bin"
[ -x "$PG_BIN/pg_ctl" ] || die "PostgreSQL's pg_ctl was not found under /usr/lib/postgresql."

# PostgreSQL refuses to run as root: as root, everything runs as Debian's `postgres` user.
as_owner() {
  if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}
psql_admin() {
  as_owner "$PG_BIN/psql" -X -q -v ON_ERROR_STOP=1 -h "$PG_DIR/socket" -p "$PG_PORT" -U postgres -d postgres "$@"
}

if [ "${1:-start}" = "stop" ]; then
  as_owner "$PG_BIN/pg_ctl" -D "$PG_DIR/data" status >/dev/null 2>&1 && as_owner "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m fast stop >/dev/null
  say "PostgreSQL in $PG_DIR stopped."
  exit 0
fi

mkdir -p "$PG_DIR"
[ "$(id -u)" -eq 0 ] && chown postgres:postgres "$PG_DIR"
chmod 700 "$PG_DIR"
if [ ! -f "$PG_DIR/data/PG_VERSION" ]; then
  say "Initialising a PostgreSQL cluster in $PG_DIR/data…"
  as_owner mkdir -p "$PG_DIR/socket"
  # Local socket: trust, because only the cluster's owner can enter $PG_DIR. TCP: passwords.
  as_owner "$PG_BIN/initdb" -D "$PG_DIR/data" -U postgres --auth-local=trust --auth-host=scram-sha-256 \
    --encoding=UTF8 --locale=C.UTF-8 >/dev/null
fi

if ! as_owner "$PG_BIN/pg_ctl" -D "$PG_DIR/data" status >/dev/null 2>&1; then
  say "Starting PostgreSQL on 127.0.0.1:$PG_PORT…"
  as_owner "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/postgres.log" -w -t 60 \
    -o "-p $PG_PORT -k $PG_DIR/socket -c listen_addresses=127.0.0.1 -c max_connections=200" start >/dev/null ||
    { tail -n 20 "$PG_DIR/postgres.log" >&2; die "PostgreSQL did not start (log: $PG_DIR/postgres.log)."; }
fi

if [ "$(psql_admin -tAc "SELECT 1 FROM pg_roles WHERE rolname = '$PG_ROLE'")" != "1" ]; then
  psql_admin -c "CREATE ROLE $PG_ROLE LOGIN CREATEDB PASSWORD '$PG_PASSWORD'"
fi
if [ "$(psql_admin -tAc "SELECT 1 FROM pg_database WHERE datname = '$PG_ROLE'")" != "1" ]; then
  psql_admin -c "CREATE DATABASE $PG_ROLE OWNER $PG_ROLE"
fi
echo "postgresql://$PG_ROLE:$PG_PASSWORD@127.0.0.1:$PG_PORT/$PG_ROLE"
