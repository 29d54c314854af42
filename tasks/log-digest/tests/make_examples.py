"""Renders the public examples (environment/examples, tests/examples) and the shipped fleet bundle
(environment/app/bundles, tests/shipped) from gen.py with fixed seeds. Never run at grading time."""
import json
import os
import random
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gen  # noqa: E402

TASK = os.path.dirname(HERE)
SHIPPED_WINDOW = (gen.T0, gen.T0 + 2 * 86400)


def put(folder, files):
    for name, data in sorted(files.items()):
        path = os.path.join(folder, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(data)


def main():
    for where in ("environment/examples", "tests/examples", "environment/app/bundles", "tests/shipped"):
        shutil.rmtree(os.path.join(TASK, where), ignore_errors=True)
    for name, seed, kind in (("example1", "example-1-2", "parsing"), ("example2", "example-2-4", "window")):
        files, args, want, claims, found = gen.build(random.Random(seed), kind, public=True)
        for root in ("environment/examples", "tests/examples"):
            base = os.path.join(TASK, root, name)
            put(os.path.join(base, "input"), files)
            put(base, {"args.json": json.dumps(args).encode() + b"\n",
                       "expected.json": json.dumps(want, indent=1).encode() + b"\n",
                       "claims.json": claims, "expected-audit.csv": gen.findings_csv(found)})
    files, args, want, claims, found = gen.build(random.Random("fleet-2026-11"), "shipped", window=SHIPPED_WINDOW, size=2.5)
    put(os.path.join(TASK, "environment/app/bundles/fleet-2026-11"), files)
    put(os.path.join(TASK, "environment/app/bundles"), {"fleet-2026-11-claims.json": claims})
    base = os.path.join(TASK, "tests/shipped")
    put(os.path.join(base, "fleet-2026-11"), files)
    put(base, {"args.json": json.dumps(args).encode() + b"\n", "claims.json": claims,
               "expected.json": json.dumps(want, indent=1).encode() + b"\n",
               "expected-audit.csv": gen.findings_csv(found)})


if __name__ == "__main__":
    main()
