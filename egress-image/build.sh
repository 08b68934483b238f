#!/usr/bin/env bash
# Builds arbor-egress:latest (egress-image/Dockerfile) on the local engine from the sandbox image's base
# (arbor-base:bookworm, the debootstrap import, when present) and the Node.js of arbor-sandbox:latest;
# the server copies it to each remote Docker host the way it copies sandbox images.
# Idempotent: Docker's cache makes a second run instant.
source "$(dirname "${BASH_SOURCE[0]}")/../scripts/lib.sh"
docker image inspect arbor-sandbox:latest >/dev/null 2>&1 || die "Build arbor-sandbox:latest first (sandbox-image/build.sh)."
# The same base the sandbox image was made from: the debootstrap import when there is one.
base=debian:bookworm-slim
docker image inspect arbor-base:bookworm >/dev/null 2>&1 && base=arbor-base:bookworm
docker build --build-arg BASE="$base" -t "${ARBOR_EGRESS_IMAGE:-arbor-egress:latest}" "$(dirname "${BASH_SOURCE[0]}")"
