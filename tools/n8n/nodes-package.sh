#!/usr/bin/env bash
# Build the n8n community package in n8n-nodes/ (npm name n8n-nodes-twin-core) with n8n's own
# tooling (@n8n/node-cli: TypeScript build + n8n's node linter), from its lock file, and pack it
# the way it is published. Needs the npm registry only when node_modules is missing or stale.
#
#   tools/n8n/nodes-package.sh           # build + pack; prints the tarball's path on its last line
#   tools/n8n/nodes-package.sh --lint    # also run n8n's linter and the package's unit tests (CI)
#
# Exit codes: 0 built, 75 the dependencies are not installed and the npm registry cannot be
# reached (callers skip on this one, and only this one), anything else: a real failure.
set -euo pipefail
pkg=$(cd "$(dirname "$0")/../../n8n-nodes" && pwd)
cd "$pkg"
log() { printf '[n8n-nodes] %s\n' "$*" >&2; }
command -v npm >/dev/null 2>&1 || { log "npm is required"; exit 1; }
out=$(mktemp)
trap 'rm -f "$out"' EXIT
quiet() {  # the node CLI draws spinners: keep its output for when a step fails
  if ! "$@" >"$out" 2>&1; then cat "$out" >&2; return 1; fi
}

# One build at a time per checkout (two test workers, or two runs, building together share
# node_modules/ and dist/).
exec 9>"$pkg/.build.lock"
if command -v flock >/dev/null 2>&1; then flock 9; fi

want=$(sha256sum package-lock.json | cut -d' ' -f1)
if [ "$(cat node_modules/.lock-sha256 2>/dev/null)" != "$want" ]; then
  log "npm ci (package-lock.json)"
  if ! quiet npm ci --ignore-scripts --no-audit --no-fund --loglevel=error; then
    if ! npm ping --fetch-retries=0 --fetch-timeout=15000 >/dev/null 2>&1; then
      log "the npm registry ($(npm config get registry 2>/dev/null)) cannot be reached"
      exit 75
    fi
    exit 1
  fi
  echo "$want" >node_modules/.lock-sha256
fi
log "n8n-node build"
quiet npm run build
if [ "${1:-}" = "--lint" ]; then
  log "n8n-node lint"
  quiet npm run lint
  log "npm test (node --test on dist/)"
  quiet npm test
fi
dest="${TWIN_NODES_PACK_DIR:-$pkg/.pack}"
mkdir -p "$dest"
tarball=$(npm pack --pack-destination "$dest" --loglevel=error 2>/dev/null | tail -n1)
echo "$dest/$tarball"
