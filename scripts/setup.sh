#!/usr/bin/env bash
# Installs everything longhaul needs on a fresh Debian machine (run as root): the system packages
# it uses (only those missing), the npm dependencies (npm ci), and the build.
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
for pkg in g++ make bubblewrap tmux chromium sqlite3 python3 util-linux procps mount e2fsprogs findutils docker.io debootstrap tar redis-server; do
  dpkg -s "$pkg" >/dev/null 2>&1 || need+=("$pkg")
done
if [ "${#need[@]}" -gt 0 ]; then
  echo "setup: installing system packages: ${need[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2
  apt-get install -y -qq --no-install-recommends "${need[@]}" >&2
fi

bash scripts/check-prereqs.sh

if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "setup: npm ci" >&2
  # node-gyp's output is long; keep it in a file and say in one line what went wrong.
  npm_log="$(mktemp -t longhaul-npm-ci.XXXXXX)"
  if ! npm ci --no-audit --no-fund >"$npm_log" 2>&1; then
    cause="$(grep -m1 -E 'gyp ERR! (stack )?Error|error: |ERR! code' "$npm_log" || tail -n 1 "$npm_log")"
    echo "setup: npm ci failed: ${cause} (full log: $npm_log)" >&2
    exit 1
  fi
  rm -f "$npm_log"
fi
# Image environments and the docker provider need a running daemon.
bash scripts/start-docker.sh
echo "setup: build" >&2
npm run build --silent >&2
# The bundled tasks build FROM longhaul's Debian base image: made offline once (about a minute
# and a half), reused after.
echo "setup: base image" >&2
node dist/cli/main.js images bootstrap --if-missing >/dev/null
# `longhaul` on the PATH: a link in npm's global bin folder to this checkout's CLI.
chmod +x dist/cli/main.js
bin_dir="$(npm prefix -g)/bin"
if mkdir -p "$bin_dir" 2>/dev/null && ln -sfn "$PWD/dist/cli/main.js" "$bin_dir/longhaul" 2>/dev/null; then
  case ":$PATH:" in
    *":$bin_dir:"*) echo "setup: longhaul is on the PATH ($bin_dir/longhaul)" >&2 ;;
    *) echo "setup: linked $bin_dir/longhaul, but $bin_dir is not on the PATH; call node $PWD/dist/cli/main.js" >&2 ;;
  esac
else
  echo "setup: could not link $bin_dir/longhaul; call node $PWD/dist/cli/main.js" >&2
fi
echo "setup: done" >&2
