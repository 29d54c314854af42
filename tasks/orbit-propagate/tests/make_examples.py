"""Regenerates the public examples, the shipped catalogue and the shipped claims from fixed seeds.

  python3 tests/make_examples.py   (from the task folder)

Batch inputs come from gen.case, catalogues from gen.catalog, claims from gen.claims; every expected
file is written by the grader's own routes (fg_reference, ref), never by the solution."""
import json
import os
import random
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import fg_reference  # noqa: E402
import gen  # noqa: E402
import ref  # noqa: E402

TASK = os.path.dirname(HERE)


def dump(path, doc):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")


def audit_file(doc):
    rows = []
    for c in sorted(doc["claims"], key=lambda c: c["claim_id"]):
        why, right, per = ref.audit_reason(c)
        if why:
            rows.append({"claim_id": c["claim_id"], "reason": why, "r": right, "period": per})
    return {"findings": rows}


def main():
    env = os.path.join(TASK, "environment", "examples")
    for n, (seed, kind) in enumerate([(11, "general"), (12, "general")], 1):
        rng = random.Random(seed)
        d = os.path.join(env, "example%d" % n)
        bodies = gen.case(rng, kind)
        dump(os.path.join(d, "bodies.json"), bodies)
        dump(os.path.join(d, "bodies.expected.json"), fg_reference.solve(bodies))
        cat = gen.catalog(rng, "time", 3)
        dump(os.path.join(d, "catalog.json"), cat)
        dump(os.path.join(d, "report.expected.json"), {"window": cat["window"], "objects": ref.report(cat)})
        claims = gen.claims(rng, 6)
        dump(os.path.join(d, "claims.json"), claims)
        dump(os.path.join(d, "audit.expected.json"), audit_file(claims))
    dst = os.path.join(HERE, "examples")
    shutil.rmtree(dst, ignore_errors=True)
    shutil.copytree(env, dst)
    rng = random.Random(2026)
    cat = gen.catalog(rng, "orbits", 8)
    claims = gen.claims(rng, 16)
    for folder in (os.path.join(TASK, "environment", "app"), os.path.join(HERE, "shipped")):
        dump(os.path.join(folder, "catalog", "catalog.json") if "app" in folder else os.path.join(folder, "catalog.json"), cat)
        dump(os.path.join(folder, "claims", "other-team.json") if "app" in folder else os.path.join(folder, "claims.json"), claims)


if __name__ == "__main__":
    main()
