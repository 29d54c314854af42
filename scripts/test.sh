#!/usr/bin/env bash
# Runs the whole test suite: type check, lint, then vitest (whose last line is `N passed, N failed`).
# Starts the services the tests need (a private redis-server on loopback) and stops them after.
set -euo pipefail
cd "$(dirname "$0")/.."

[ -d node_modules ] || { echo "test: run scripts/setup.sh first (node_modules missing)" >&2; exit 2; }
npm run build --silent >&2
npx tsc -p tsconfig.check.json >&2
npx biome check src test bench >&2

redis_dir=$(mktemp -d)
export LONGHAUL_TEST_REDIS_PORT="${LONGHAUL_TEST_REDIS_PORT:-6391}"
if command -v redis-server >/dev/null 2>&1; then
  redis-server --port "$LONGHAUL_TEST_REDIS_PORT" --bind 127.0.0.1 --save '' --appendonly no \
    --dir "$redis_dir" --daemonize yes --pidfile "$redis_dir/redis.pid" >/dev/null
fi
cleanup() {
  [ -f "$redis_dir/redis.pid" ] && kill "$(cat "$redis_dir/redis.pid")" 2>/dev/null || true
  rm -rf "$redis_dir"
}
trap cleanup EXIT
npx vitest run "$@"
