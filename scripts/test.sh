#!/usr/bin/env bash
# Runs the whole test suite: build, type check, lint, then vitest (whose last line is
# `N passed, N failed`). Run scripts/setup.sh once first.
set -euo pipefail
cd "$(dirname "$0")/.."

[ -d node_modules ] || { echo "test: run scripts/setup.sh first (node_modules missing)" >&2; exit 2; }
# Container tests need the Docker daemon; after a reboot nothing has started it yet.
bash scripts/start-docker.sh
npm run build --silent >&2
# After the build: the tests' type check reads src from its built declarations.
npx tsc -p tsconfig.check.json >&2
npx biome check src test bench >&2
npx vitest run "$@"
