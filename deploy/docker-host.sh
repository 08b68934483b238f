#!/usr/bin/env bash
# A second Docker engine on this machine, as another host would be: its own network namespace (a veth
# pair, the engine at $ADDRESS), its own data directory (kept between runs under /var/tmp, so an image
# loaded into it once stays) and the Engine API over TCP with mutual TLS (a CA, a server and a client
# certificate made once with openssl, kept with the data). Idempotent: a running engine is left alone.
# Needs root. Prints the ARBOR_DOCKER_HOSTS entry that reaches it on its last line.
#
#   bash deploy/docker-host.sh start      # make the namespace and certificates if needed, start dockerd
#   bash deploy/docker-host.sh stop       # stop dockerd (namespace, data and certificates stay)
#   bash deploy/docker-host.sh status     # exit 0 when it answers
#
# ARBOR_DOCKER_HOST_NAME (default arbor-dh2) and ARBOR_DOCKER_HOST_NET (the /24's third octet, default
# 231) let several of them coexist. `ip netns exec` cannot be used: it remounts /sys and dockerd then
# fails with "Devices cgroup isn't mounted"; nsenter into the namespace keeps the host's mounts.
# The engine manages its own iptables inside the namespace (per-namespace tables: the machine's are
# untouched) and has its default bridge, as a real host's engine would, so sandboxes there get the same
# network phases as on the local engine (issue #19: Arbor's egress proxy runs there as a container with
# the host's network). The namespace routes out through the host side of the veth pair, masqueraded by
# the machine: that is its "uplink" (and how it reaches an upstream proxy in HTTPS_PROXY, if any).
# An engine an older version of this script started (--bridge=none --iptables=false) is left running
# as it is: stop it once to get the network.
source "$(dirname "${BASH_SOURCE[0]}")/../scripts/lib.sh"

NAME="${ARBOR_DOCKER_HOST_NAME:-arbor-dh2}"
NET="${ARBOR_DOCKER_HOST_NET:-231}"
HOST_SIDE="10.${NET}.0.1"
ADDRESS="10.${NET}.0.2"
PORT=2376
DIR="/var/tmp/arbor-docker-host/$NAME"
CERTS="$DIR/certs"
RUN="/run/$NAME"
PIDFILE="$RUN/dockerd.pid"

[ "$(id -u)" -eq 0 ] || die "deploy/docker-host.sh needs root (it makes a network namespace and runs dockerd)."

running() { [ -f "$PIDFILE" ] && kill -0 "$(cat "$PIDFILE")" 2>/dev/null; }

engine_answers() {
  curl -fsS --max-time 3 --cacert "$CERTS/ca.pem" --cert "$CERTS/cert.pem" --key "$CERTS/key.pem" \
    "https://$ADDRESS:$PORT/_ping" >/dev/null 2>&1
}

case "${1:-start}" in
stop)
  if running; then
    pid="$(cat "$PIDFILE")"
    kill "$pid"
    for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -0 "$pid" 2>/dev/null && kill -9 "$pid"
  fi
  say "Docker engine $NAME stopped (data in $DIR kept)."
  exit 0
  ;;
status)
  engine_answers
  exit $?
  ;;
start) ;;
*) die "usage: deploy/docker-host.sh start|stop|status" ;;
esac

# openssl makes the certificates, iproute2 the namespace, curl asks the engine whether it answers,
# iptables gives the namespace its uplink.
ensure_debian_packages openssl iproute2 curl util-linux iptables
mkdir -p "$DIR/data" "$CERTS" "$RUN"
chmod 700 "$DIR" "$CERTS"

# The namespace and its veth pair: the host side reaches the engine at $ADDRESS.
if [ ! -e "/var/run/netns/$NAME" ]; then
  ip netns add "$NAME"
fi
VETH="veth-${NAME: -6}"
if ! ip link show "$VETH" >/dev/null 2>&1; then
  ip link add "$VETH" type veth peer name eth0 netns "$NAME"
  ip addr add "$HOST_SIDE/24" dev "$VETH"
  ip link set "$VETH" up
  nsenter --net="/var/run/netns/$NAME" ip addr add "$ADDRESS/24" dev eth0
  nsenter --net="/var/run/netns/$NAME" ip link set eth0 up
  nsenter --net="/var/run/netns/$NAME" ip link set lo up
fi
# The uplink (idempotent): a default route in the namespace, forwarding and masquerading on the host.
nsenter --net="/var/run/netns/$NAME" ip route replace default via "$HOST_SIDE"
sysctl -qw net.ipv4.ip_forward=1
iptables -w -t nat -C POSTROUTING -s "10.${NET}.0.0/24" ! -o "$VETH" -j MASQUERADE 2>/dev/null ||
  iptables -w -t nat -A POSTROUTING -s "10.${NET}.0.0/24" ! -o "$VETH" -j MASQUERADE
iptables -w -C FORWARD -i "$VETH" -j ACCEPT 2>/dev/null || iptables -w -I FORWARD -i "$VETH" -j ACCEPT
iptables -w -C FORWARD -o "$VETH" -m conntrack --ctstate ESTABLISHED,RELATED -j ACCEPT 2>/dev/null ||
  iptables -w -I FORWARD -o "$VETH" -m conntrack --ctstate ESTABLISHED,RELATED -j ACCEPT

# Certificates, once: a CA, the server's (valid for $ADDRESS) and the client's (what Arbor presents).
if [ ! -f "$CERTS/cert.pem" ]; then
  say "Making TLS certificates for $NAME in $CERTS…"
  (
    cd "$CERTS"
    umask 077
    openssl req -x509 -newkey rsa:2048 -nodes -days 3650 -subj "/CN=arbor-docker-host-ca" \
      -keyout ca-key.pem -out ca.pem 2>/dev/null
    openssl req -newkey rsa:2048 -nodes -subj "/CN=$ADDRESS" -keyout server-key.pem -out server.csr 2>/dev/null
    printf 'subjectAltName=IP:%s\nextendedKeyUsage=serverAuth\n' "$ADDRESS" >server.ext
    openssl x509 -req -days 3650 -in server.csr -CA ca.pem -CAkey ca-key.pem -CAcreateserial \
      -extfile server.ext -out server-cert.pem 2>/dev/null
    openssl req -newkey rsa:2048 -nodes -subj "/CN=arbor" -keyout key.pem -out client.csr 2>/dev/null
    printf 'extendedKeyUsage=clientAuth\n' >client.ext
    openssl x509 -req -days 3650 -in client.csr -CA ca.pem -CAkey ca-key.pem -CAcreateserial \
      -extfile client.ext -out cert.pem 2>/dev/null
    rm -f server.csr client.csr server.ext client.ext
  )
fi

if ! running; then
  say "Starting Docker engine $NAME at tcp://$ADDRESS:$PORT (data in $DIR/data)…"
  # Its own containerd namespace and cgroup parent: the machine's engine shares the same containerd.
  nsenter --net="/var/run/netns/$NAME" dockerd \
    --data-root "$DIR/data" --exec-root "$RUN/exec" --pidfile "$PIDFILE" \
    --containerd-namespace "$NAME" --containerd-plugins-namespace "$NAME-plugins" --cgroup-parent "$NAME" \
    -H "unix://$RUN/docker.sock" -H "tcp://$ADDRESS:$PORT" \
    --tlsverify --tlscacert "$CERTS/ca.pem" --tlscert "$CERTS/server-cert.pem" --tlskey "$CERTS/server-key.pem" \
    --bip "172.31.${NET}.1/24" >"$DIR/dockerd.log" 2>&1 &
fi
for _ in $(seq 1 300); do
  engine_answers && break
  sleep 0.2
done
engine_answers || { tail -n 20 "$DIR/dockerd.log" >&2; die "Docker engine $NAME did not answer (log: $DIR/dockerd.log)."; }
say "Docker engine $NAME answers at tcp://$ADDRESS:$PORT."
echo "tcp://$ADDRESS:$PORT?tls=$CERTS"
