"""Renders the public examples (environment/examples, tests/examples) and the shipped study with the
other group's claims (environment/app/study, environment/app/claims, tests/shipped) from gen.py with
fixed seeds; expected files come from ref.py. Never run at grading time."""
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
    os.makedirs(folder, exist_ok=True)
    for name, data in files.items():
        with open(os.path.join(folder, name), "wb") as f:
            f.write(data)


def answers(study_dir, parsed):
    res = ref.study(study_dir)
    cv = ["outcome,feature_set,lambda,cv_rmse,se"]
    tab = ["outcome,feature_set,n,lambda_min,lambda_1se,cv_rmse"]
    for (oc, fs), (n, cc, (lmin, l1, c1)) in res.items():
        cv += ["%s,%s,%r,%r,%r" % (oc, fs, lam, c, se) for lam, c, se in cc]
        tab.append("%s,%s,%d,%r,%r,%r" % (oc, fs, n, lmin, l1, c1))
    found = ref.audit_expected(study_dir, parsed)
    aud = ["outcome,feature_set,reason,lambda,cv_rmse"]
    for oc, fs, _, _ in parsed:
        if (oc, fs) in found:
            why, l1, c1 = found[(oc, fs)]
            aud.append("%s,%s,%s,%r,%r" % (oc, fs, why, l1, c1))
    return {name: ("\n".join(lines) + "\n").encode() for name, lines in
            (("cv.csv", cv), ("table.csv", tab), ("audit.csv", aud))}


def main():
    for where in ("environment/examples", "tests/examples", "environment/app/study",
                  "environment/app/claims", "tests/shipped"):
        shutil.rmtree(os.path.join(TASK, where), ignore_errors=True)
    for name, seed, kind in (("example1", "example-1", "folds"), ("example2", "example-2", "formats")):
        rng = random.Random(seed)
        files = gen.build(rng, kind)
        tmp = os.path.join(TASK, "tests/examples", name, "study")
        put(tmp, files)
        claims, parsed = gen.plant_claims(rng, tmp, semicolon=(kind == "formats"))
        put(os.path.join(TASK, "tests/examples", name), {"claims.csv": claims})
        put(os.path.join(TASK, "tests/examples", name, "expected"), answers(tmp, parsed))
        shutil.copytree(os.path.join(TASK, "tests/examples", name), os.path.join(TASK, "environment/examples", name))
    rng = random.Random("shipped-study")
    files = gen.build(rng, "mixed")
    put(os.path.join(TASK, "tests/shipped/study"), files)
    claims, parsed = gen.plant_claims(rng, os.path.join(TASK, "tests/shipped/study"))
    put(os.path.join(TASK, "tests/shipped"), {"claims.csv": claims})
    put(os.path.join(TASK, "tests/shipped/expected"), answers(os.path.join(TASK, "tests/shipped/study"), parsed))
    put(os.path.join(TASK, "environment/app/study"), files)
    put(os.path.join(TASK, "environment/app/claims"), {"other-group.csv": claims})


if __name__ == "__main__":
    main()
