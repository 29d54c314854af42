#!/usr/bin/env bash
# Installs everything longhaul needs on a fresh Debian machine (run as root): the system packages
# it uses (only those missing), the npm dependencies (npm ci), and the build.
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
for pkg in bubblewrap tmux chromium sqlite3 python3 util-linux procps mount e2fsprogs findutils docker.io debootstrap tar redis-server; do
  dpkg -s "$pkg" >/dev/null 2>&1 || need+=("$pkg")
done
if [ "${#need[@]}" -gt 0 ]; then
  echo "setup: installing system packages: ${need[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2
  apt-get install -y -qq --no-install-recommends "${need[@]}" >&2
fi

if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "setup: npm ci" >&2
  npm ci --no-audit --no-fund >&2
fi
# Image environments and the docker provider need a running daemon.
bash scripts/start-docker.sh
echo "setup: build" >&2
npm run build --silent >&2
# The bundled tasks build FROM longhaul's Debian base image: made offline once (about a minute
# and a half), reused after.
echo "setup: base image" >&2
node dist/cli/main.js images bootstrap --if-missing >/dev/null
