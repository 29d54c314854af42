#!/usr/bin/env bash
# Stage 2 and 3 with whatever /app/minibuild.py is installed: one build of the project's default
# goal (log kept in /app/project/build.log), then an audit of each recorded build.
set -euo pipefail
cd /app/project
python3 /app/minibuild.py build /app/project/Buildfile /app/project/.minibuild/state.json > /app/project/build.log || true
mkdir -p /app/results
for d in /app/project/audits/*/; do
  name=$(basename "$d")
  python3 /app/minibuild.py audit "$d" > "/app/results/audit-$name.csv" || true
done
