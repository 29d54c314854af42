#!/usr/bin/env bash
# Checks what the install cannot fix by itself, before npm ci: a supported Node, a C++ tool chain
# and Node's headers for the native SQLite addon (node-gyp builds it offline), and a bubblewrap
# that can create namespaces here. Prints one line naming every missing piece and exits 1.
set -uo pipefail

missing=()
node_major="$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)"
if [ "$node_major" -lt 20 ]; then
  missing+=("Node 20 or newer (found: $(node -v 2>/dev/null || echo none))")
fi
for tool in g++ make python3; do
  command -v "$tool" >/dev/null 2>&1 || missing+=("$tool (apt-get install -y g++ make python3)")
done
# node-gyp builds against npm's nodedir when set (no download needed), else next to the node binary.
nodedir="$(npm config get nodedir 2>/dev/null || true)"
[ -z "$nodedir" ] || [ "$nodedir" = "undefined" ] && nodedir="$(dirname "$(dirname "$(readlink -f "$(command -v node)")")")"
if [ ! -f "$nodedir/include/node/node.h" ]; then
  missing+=("Node's C headers ($nodedir/include/node/node.h not found; install the headers matching $(node -v 2>/dev/null) and set 'npm config set nodedir <prefix>')")
fi
if ! command -v bwrap >/dev/null 2>&1; then
  missing+=("bubblewrap (apt-get install -y bubblewrap)")
elif ! bwrap --unshare-all --ro-bind / / --dev /dev --proc /proc /bin/true >/dev/null 2>&1; then
  missing+=("a working bubblewrap: 'bwrap --unshare-all' fails here (user namespaces disabled? run as root or enable kernel.unprivileged_userns_clone)")
fi

if [ "${#missing[@]}" -gt 0 ]; then
  line="setup: missing: ${missing[0]}"
  for m in "${missing[@]:1}"; do line="$line; $m"; done
  echo "$line" >&2
  exit 1
fi
