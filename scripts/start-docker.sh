#!/usr/bin/env bash
# Starts a Docker daemon when none answers (the docker provider, image builds and image
# environments need one). Machines without a bridge network or iptables get a daemon without
# them: builds then use --network host, and containers have no network or the host's.
set -euo pipefail

if docker version --format '{{.Server.Version}}' >/dev/null 2>&1; then exit 0; fi
if ! command -v dockerd >/dev/null 2>&1; then
  echo "start-docker: dockerd is not installed (apt-get install -y docker.io)" >&2
  exit 1
fi
log=/var/log/longhaul-dockerd.log
echo "start-docker: starting dockerd (log: $log)" >&2
nohup dockerd --bridge=none --iptables=false >"$log" 2>&1 &
for _ in $(seq 1 60); do
  if docker version --format '{{.Server.Version}}' >/dev/null 2>&1; then exit 0; fi
  sleep 0.5
done
echo "start-docker: dockerd did not answer within 30 s; last lines of $log:" >&2
tail -n 20 "$log" >&2
exit 1
