#!/usr/bin/env bash
# A real git server on loopback for tests of a project's upstream remote (issue #21.3): `git
# http-backend` behind nginx (through fcgiwrap), with HTTP basic auth on every request so a wrong or
# missing token is refused as it would be by a hosted server. Debian packages: nginx fcgiwrap.
#
#   testing/git-server/start.sh <dir> <http-port> <fcgi-port> <user> <password>
#
# Serves the bare repositories under <dir>/repos at http://127.0.0.1:<http-port>/git/<name>.git and
# writes <dir>/nginx.pid and <dir>/fcgiwrap.pid; `testing/git-server/stop.sh <dir>` ends both.
set -euo pipefail
dir="$(cd "$1" && pwd)"
http_port="$2"
fcgi_port="$3"
user="$4"
password="$5"

mkdir -p "$dir/repos" "$dir/tmp" "$dir/logs"
# {PLAIN} is nginx's own scheme for a clear-text password: enough for a throwaway test server.
printf '%s:{PLAIN}%s\n' "$user" "$password" >"$dir/htpasswd"

cat >"$dir/nginx.conf" <<CONF
worker_processes 1;
pid $dir/nginx.pid;
error_log $dir/logs/error.log warn;
# As root, nginx's workers would otherwise drop to a user that cannot read this directory.
user $(id -un) $(id -gn);
events { worker_connections 64; }
http {
  access_log $dir/logs/access.log;
  client_body_temp_path $dir/tmp/body;
  proxy_temp_path $dir/tmp/proxy;
  fastcgi_temp_path $dir/tmp/fastcgi;
  uwsgi_temp_path $dir/tmp/uwsgi;
  scgi_temp_path $dir/tmp/scgi;
  client_max_body_size 0;
  server {
    listen 127.0.0.1:$http_port;
    location ~ ^/git(/.*)\$ {
      auth_basic "git";
      auth_basic_user_file $dir/htpasswd;
      fastcgi_pass 127.0.0.1:$fcgi_port;
      fastcgi_param SCRIPT_FILENAME /usr/lib/git-core/git-http-backend;
      fastcgi_param GIT_PROJECT_ROOT $dir/repos;
      fastcgi_param GIT_HTTP_EXPORT_ALL "";
      fastcgi_param PATH_INFO \$1;
      fastcgi_param REMOTE_USER \$remote_user;
      fastcgi_param QUERY_STRING \$query_string;
      fastcgi_param REQUEST_METHOD \$request_method;
      fastcgi_param CONTENT_TYPE \$content_type;
      fastcgi_param CONTENT_LENGTH \$content_length;
      fastcgi_param GIT_CONFIG_COUNT 1;
      fastcgi_param GIT_CONFIG_KEY_0 safe.directory;
      fastcgi_param GIT_CONFIG_VALUE_0 *;
    }
  }
}
CONF

fcgiwrap -s "tcp:127.0.0.1:$fcgi_port" >"$dir/logs/fcgiwrap.log" 2>&1 &
echo $! >"$dir/fcgiwrap.pid"
nginx -e "$dir/logs/error.log" -p "$dir" -c "$dir/nginx.conf"
# Ready when both accept connections.
for _ in $(seq 1 50); do
  if (exec 3<>"/dev/tcp/127.0.0.1/$http_port") 2>/dev/null && (exec 3<>"/dev/tcp/127.0.0.1/$fcgi_port") 2>/dev/null; then
    exit 0
  fi
  sleep 0.1
done
echo "the git server did not start; see $dir/logs" >&2
exit 1
