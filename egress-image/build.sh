#!/usr/bin/env bash
# Builds arbor-egress:latest (egress-image/Dockerfile) on the local engine from arbor-sandbox:latest;
# the server copies it to each remote Docker host the way it copies sandbox images.
# Idempotent: Docker's cache makes a second run instant.
source "$(dirname "${BASH_SOURCE[0]}")/../scripts/lib.sh"
docker image inspect arbor-sandbox:latest >/dev/null 2>&1 || die "Build arbor-sandbox:latest first (sandbox-image/build.sh)."
docker build -t "${ARBOR_EGRESS_IMAGE:-arbor-egress:latest}" "$(dirname "${BASH_SOURCE[0]}")"
