# Shared steps of scripts/start.sh and scripts/test.sh. Every step is idempotent and quick when its
# work is already done, so both commands can be run again at any time.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

say() { printf '\033[1;32m[arbor]\033[0m %s\n' "$*"; }
die() { printf '\033[1;31m[arbor] ERROR:\033[0m %s\n' "$*" >&2; exit 1; }

# Debian packages, installed only when missing (apt-get update runs at most once per call).
ensure_debian_packages() {
  local missing=()
  for pkg in "$@"; do
    dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  [ "$(id -u)" -eq 0 ] || die "missing Debian packages (${missing[*]}); run as root or install them first."
  say "Installing Debian packages: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q >/dev/null
  apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
}

ensure_node() {
  command -v node >/dev/null 2>&1 || die "Node.js 20 or newer is required."
  local major
  major="$(node -p 'process.versions.node.split(".")[0]')"
  [ "$major" -ge 20 ] || die "Node.js 20 or newer is required (found $(node --version))."
}

# Installs exactly what package-lock.json records, only when it changed since the last install.
# Not `npm ci`: the registry these machines reach lacks other platforms' optional packages (for
# example @next/swc-darwin-*), so no lock file made here lists them and `npm ci` refuses it as out of
# sync. `npm install --no-save` follows the lock and never rewrites it.
ensure_npm_packages() {
  local stamp="node_modules/.arbor-lock-hash" want
  want="$(sha256sum package-lock.json | cut -c1-64)"
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
    say "npm packages are up to date."
  else
    say "Installing npm packages…"
    npm install --no-save --no-audit --no-fund --loglevel=error
    echo "$want" >"$stamp"
  fi
}

ensure_database() {
  say "Generating the Prisma clients and applying migrations…"
  # Both clients, whichever database is in use (server/db.ts imports both). prisma.config.ts picks
  # the schema by DATABASE_URL; generating connects to nothing, so the URLs only name the provider.
  DATABASE_URL="file:./data/arbor.db" npx --no-install prisma generate >/dev/null
  DATABASE_URL="postgresql://generate-only@127.0.0.1/none" npx --no-install prisma generate >/dev/null
  if [[ "${DATABASE_URL:-}" =~ ^postgres(ql)?:// ]]; then
    npx --no-install tsx scripts/db/migrate-postgres.ts || die "the PostgreSQL migrations failed (see above)."
  else
    # umask 077: a database the migration creates is the owner's alone (it holds password hashes).
    # SQLite creates the file but not its folder: ensure_secrets (run first) makes the data directory.
    # A failed migration stops here, loudly (an app without its tables fails later and less clearly).
    local out
    out="$(umask 077 && npx --no-install prisma migrate deploy 2>&1)" || {
      echo "$out" >&2
      die "the database migrations failed (see above)."
    }
    echo "$out" | grep -E "applied|No pending" || true
  fi
}

# The generated secrets (<data dir>/auth-secret, secret-key) that the environment does not set, once.
# Only this start step writes them: importing server/env.ts never does (the build imports it too).
ensure_secrets() {
  (umask 077 && npx --no-install tsx scripts/ensure-secrets.ts) || die "could not create Arbor's secrets in its data directory."
}

ensure_sandbox() {
  bash scripts/ensure-docker.sh
  # gVisor for projects that choose it (optional: warns and goes on when it cannot be set up).
  bash scripts/ensure-runsc.sh
  bash sandbox-image/build.sh
}

# next build only when the sources differ from the last build.
ensure_build() {
  local stamp=".next/.arbor-build-hash" want
  want="$( (git rev-parse HEAD 2>/dev/null; git status --porcelain 2>/dev/null; git diff 2>/dev/null) | sha256sum | cut -c1-64)"
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] && [ -f .next/BUILD_ID ]; then
    say "The production build is up to date."
  else
    say "Checking the environment (scripts/check-env.ts)…"
    npx --no-install tsx scripts/check-env.ts || die "the environment is invalid (see above)."
    say "Building the app (next build)…"
    npx --no-install next build >/tmp/arbor-next-build.log 2>&1 || { tail -n 40 /tmp/arbor-next-build.log >&2; die "next build failed."; }
    echo "$want" >"$stamp"
  fi
}
