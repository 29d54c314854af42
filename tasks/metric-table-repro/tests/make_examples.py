"""Renders the public examples (environment/examples, tests/examples) and the shipped paper release
with the other group's claims (environment/app/paper, tests/shipped) from gen.py with fixed seeds;
expected files come from ref.py. Never run at grading time."""
import os
import random
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gen  # noqa: E402
import ref  # noqa: E402

TASK = os.path.dirname(HERE)


def put(folder, files):
    for name, data in files.items():
        path = os.path.join(folder, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(data)


def render(folder, rng, kind, public=True):
    data = os.path.join(folder, "data")
    put(data, gen.build(rng, kind, public))
    rows = ref.table(data)
    shown = [(a, b, {c: ref.show(c, v) for c, v in r.items()}) for a, b, r in rows]
    alts = ref.variants(data)
    put(folder, {"claims.csv": gen.plant_claims(rng, shown, lambda a, b: alts[(a, b)])})
    tab = [",".join(["dataset", "model"] + ref.COLS)]
    tab += [",".join([a, b] + [cells[c] for c in ref.COLS]) for a, b, cells in shown]
    want = ref.audit_expected(data, os.path.join(folder, "claims.csv"))
    aud = ["dataset,model,column,reason,claimed,correct"]
    claims = {(r["dataset"].strip(), r["model"].strip()): r for r in ref.table_of(os.path.join(folder, "claims.csv"))}
    for key in sorted(want):
        col, why, v = want[key]
        claimed = (claims.get(key, {}).get(col) or "").strip() if col else ""
        aud.append(",".join([key[0], key[1], col, why, claimed, ref.show(col, v) if col else ""]))
    put(os.path.join(folder, "expected"), {"table.csv": ("\n".join(tab) + "\n").encode(),
                                           "audit.csv": ("\n".join(aud) + "\n").encode()})


def main():
    for where in ("environment/examples", "tests/examples", "environment/app/paper", "tests/shipped"):
        shutil.rmtree(os.path.join(TASK, where), ignore_errors=True)
    for name, seed, kind in (("example1", "example-1", "binary"), ("example2", "example-2", "messy")):
        render(os.path.join(TASK, "tests/examples", name), random.Random(seed), kind)
        shutil.copytree(os.path.join(TASK, "tests/examples", name), os.path.join(TASK, "environment/examples", name))
    render(os.path.join(TASK, "tests/shipped"), random.Random("shipped-paper"), "paper", public=False)
    shutil.copytree(os.path.join(TASK, "tests/shipped/data"), os.path.join(TASK, "environment/app/paper/data"))
    put(os.path.join(TASK, "environment/app/paper/claims"),
        {"other-group.csv": open(os.path.join(TASK, "tests/shipped/claims.csv"), "rb").read()})


if __name__ == "__main__":
    main()
