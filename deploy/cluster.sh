#!/usr/bin/env bash
# Arbor as a cluster on one machine: PostgreSQL, N instances of the production build (`next start`,
# each on its own port with its own data directory, all with the same secrets and the same project
# repositories), and nginx (Debian's package) in front of them as the balancer. What the cluster test
# (e2e/cluster.spec.ts) starts, and a way to try the topology by hand. Prints the balancer's URL last.
#
#   bash deploy/cluster.sh            # start (build first: npx next build, or scripts/lib.sh's ensure_build)
#   bash deploy/cluster.sh stop       # stop nginx and the instances (the data stays)
#   bash deploy/cluster.sh status     # which instances answer
#
# Settings (environment):
#   ARBOR_CLUSTER_DIR        where everything lives (default /var/tmp/arbor-cluster)
#   ARBOR_CLUSTER_INSTANCES  how many app instances (default 2)
#   ARBOR_CLUSTER_PORT       the balancer's port (default 3200); instance i listens on PORT + i
#   DATABASE_URL             PostgreSQL; unset: deploy/postgres.sh's throwaway cluster
#   ARBOR_CLUSTER_ENV_FILE   a file sourced into every instance's environment (model settings, and the
#                            hook for sandboxes on other Docker hosts: DOCKER_HOST and friends)
#   ARBOR_CLUSTER_ENV_FILE_<i>  the same for instance i alone (e.g. each instance its own Docker host)
# Anything else Arbor reads (ARBOR_MODEL_BASE_URL, ARBOR_RUN_LEASE_MS, …) is passed to every instance.
source "$(dirname "${BASH_SOURCE[0]}")/../scripts/lib.sh"
cd "$(dirname "${BASH_SOURCE[0]}")/.."

DIR="${ARBOR_CLUSTER_DIR:-/var/tmp/arbor-cluster}"
COUNT="${ARBOR_CLUSTER_INSTANCES:-2}"
PORT="${ARBOR_CLUSTER_PORT:-3200}"
NGINX_PID="$DIR/nginx/nginx.pid"

instance_pid() { cat "$DIR/instance-$1/pid" 2>/dev/null || true; }
alive() { [ -n "$1" ] && kill -0 "$1" 2>/dev/null; }

stop_cluster() {
  if [ -f "$NGINX_PID" ] && alive "$(cat "$NGINX_PID")"; then
    nginx -c "$DIR/nginx/nginx.conf" -p "$DIR/nginx" -s stop 2>/dev/null || kill "$(cat "$NGINX_PID")"
  fi
  for dir in "$DIR"/instance-*; do
    [ -d "$dir" ] || continue
    local pid
    pid="$(cat "$dir/pid" 2>/dev/null || true)"
    if alive "$pid"; then
      kill "$pid"
      for _ in $(seq 50); do alive "$pid" || break; sleep 0.1; done
      alive "$pid" && kill -9 "$pid"
    fi
    rm -f "$dir/pid"
  done
  say "Arbor cluster in $DIR stopped."
}

case "${1:-start}" in
stop)
  stop_cluster
  exit 0
  ;;
status)
  for i in $(seq "$COUNT"); do
    pid="$(instance_pid "$i")"
    if alive "$pid"; then echo "instance $i: pid $pid, http://127.0.0.1:$((PORT + i))"; else echo "instance $i: down"; fi
  done
  exit 0
  ;;
start) ;;
*) die "usage: deploy/cluster.sh [start|stop|status]" ;;
esac

ensure_debian_packages nginx
[ -f .next/BUILD_ID ] || die "no production build: run \`npx --no-install next build\` first."
if [ -z "${DATABASE_URL:-}" ]; then
  DATABASE_URL="$(bash deploy/postgres.sh | tail -n 1)" || die "PostgreSQL did not start."
fi
[[ "$DATABASE_URL" =~ ^postgres(ql)?:// ]] || die "a cluster needs PostgreSQL: DATABASE_URL=postgresql://…"
export DATABASE_URL
stop_cluster >/dev/null

# Shared by every instance: the secrets (sessions signed on one are valid on all; stored API keys
# readable by all) and the project repositories and interrupted commands' output (the data
# directory's repos/ and output-so-far/; on several hosts, shared storage mounted there).
umask 077
mkdir -p "$DIR/shared/repos" "$DIR/shared/output-so-far" "$DIR/nginx"
[ -s "$DIR/shared/auth-secret" ] || openssl rand -hex 32 >"$DIR/shared/auth-secret"
[ -s "$DIR/shared/secret-key" ] || openssl rand -hex 32 >"$DIR/shared/secret-key"
export NEXTAUTH_SECRET ARBOR_SECRET_KEY
NEXTAUTH_SECRET="$(cat "$DIR/shared/auth-secret")"
ARBOR_SECRET_KEY="$(cat "$DIR/shared/secret-key")"
export NEXTAUTH_URL="http://localhost:$PORT"
# The instances see the balancer as their TCP peer: its X-Forwarded-For names the client.
export ARBOR_TRUSTED_PROXIES="${ARBOR_TRUSTED_PROXIES:-loopback}"
export NODE_ENV=production

say "Applying the PostgreSQL migrations…"
npx --no-install tsx scripts/db/migrate-postgres.ts >/dev/null || die "the PostgreSQL migrations failed."

upstreams=""
for i in $(seq "$COUNT"); do
  port=$((PORT + i))
  data="$DIR/instance-$i"
  mkdir -p "$data"
  for shared in repos output-so-far; do
    [ -L "$data/$shared" ] || { rm -rf "${data:?}/$shared" && ln -s "$DIR/shared/$shared" "$data/$shared"; }
  done
  (
    export ARBOR_DATA_DIR="$data"
    # Where the other instances reach this one (the session terminal's relay, server/terminal/cluster.ts).
    export ARBOR_INSTANCE_URL="http://127.0.0.1:$port"
    # shellcheck disable=SC1090
    [ -n "${ARBOR_CLUSTER_ENV_FILE:-}" ] && source "$ARBOR_CLUSTER_ENV_FILE"
    per_instance="ARBOR_CLUSTER_ENV_FILE_$i"
    # shellcheck disable=SC1090
    [ -n "${!per_instance:-}" ] && source "${!per_instance}"
    # The node process itself (no wrapper), so its pid is what `kill -9` in the cluster test hits.
    setsid node node_modules/next/dist/bin/next start -p "$port" -H 127.0.0.1 >"$data/server.log" 2>&1 </dev/null &
    echo $! >"$data/pid"
  )
  upstreams+="    server 127.0.0.1:$port max_fails=1 fail_timeout=5s;"$'\n'
done

# nginx: SSE (live events, terminal output) unbuffered and long-lived; WebSocket upgrades passed on;
# a dead instance is skipped (a connection refused is retried on the next instance); instance-to-instance
# paths are not reachable through the balancer.
nginx_user=""
[ "$(id -u)" -eq 0 ] && nginx_user="user www-data;"
cat >"$DIR/nginx/nginx.conf" <<EOF
$nginx_user
worker_processes 1;
pid $NGINX_PID;
error_log $DIR/nginx/error.log warn;
events { worker_connections 1024; }
http {
  access_log $DIR/nginx/access.log;
  client_body_temp_path $DIR/nginx/body;
  proxy_temp_path $DIR/nginx/proxy;
  fastcgi_temp_path $DIR/nginx/fastcgi;
  uwsgi_temp_path $DIR/nginx/uwsgi;
  scgi_temp_path $DIR/nginx/scgi;
  map \$http_upgrade \$connection_upgrade { default upgrade; '' ''; }
  upstream arbor {
$upstreams    keepalive 16;
  }
  server {
    listen 127.0.0.1:$PORT;
    client_max_body_size 48m;
    location /api/internal/ { return 404; }
    location / {
      proxy_pass http://arbor;
      proxy_http_version 1.1;
      proxy_set_header Host \$http_host;
      proxy_set_header X-Forwarded-For \$proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto \$scheme;
      proxy_set_header Upgrade \$http_upgrade;
      proxy_set_header Connection \$connection_upgrade;
      proxy_buffering off;
      proxy_request_buffering off;
      proxy_cache off;
      proxy_read_timeout 1h;
      proxy_send_timeout 1h;
      proxy_connect_timeout 2s;
      proxy_next_upstream error timeout http_502 http_503;
    }
  }
}
EOF
chmod 755 "$DIR" "$DIR/nginx"
nginx -t -q -c "$DIR/nginx/nginx.conf" -p "$DIR/nginx" || die "the nginx configuration is invalid ($DIR/nginx/nginx.conf)."
nginx -c "$DIR/nginx/nginx.conf" -p "$DIR/nginx" || die "nginx did not start (see $DIR/nginx/error.log)."

for i in $(seq "$COUNT"); do
  port=$((PORT + i))
  for _ in $(seq 240); do
    curl -fsS -o /dev/null "http://127.0.0.1:$port/login" && break
    alive "$(instance_pid "$i")" || { tail -n 30 "$DIR/instance-$i/server.log" >&2; die "instance $i exited."; }
    sleep 0.5
  done
  curl -fsS -o /dev/null "http://127.0.0.1:$port/login" || die "instance $i did not answer (log: $DIR/instance-$i/server.log)."
done
say "Arbor cluster: $COUNT instances behind nginx (data and logs in $DIR)."
echo "http://localhost:$PORT"
