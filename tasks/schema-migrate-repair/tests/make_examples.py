"""Renders the public examples (tests/examples, copied byte for byte to environment/examples), the
shipped legacy database and the shipped deployments (environment/app) from gen.py and project.py.
Never run at grading time."""
import os
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from lh import Rng  # noqa: E402
import gen  # noqa: E402
import project  # noqa: E402

TASK = os.path.dirname(HERE)
CODES = ["FAILED", "DRIFT", "MISSING", "UNKNOWN", "OUT_OF_ORDER"]


def write_files(folder, files):
    os.makedirs(folder, exist_ok=True)
    for name, data in sorted(files.items()):
        with open(os.path.join(folder, name), "wb") as f:
            f.write(data)


def write_case(folder, case):
    write_files(os.path.join(folder, "migrations"), case.files)
    case.build_db(os.path.join(folder, "app.db"))


def audit_csv(rows):
    key = lambda r: (tuple(int(p) for p in r[0].split(".")), CODES.index(r[1]))  # noqa: E731
    return "version,code\n" + "".join("%s,%s\n" % r for r in sorted(rows, key=key))


def examples(dest):
    shutil.rmtree(dest, ignore_errors=True)
    c = gen.case_incremental(Rng("public-example-1"), kind="plain")
    write_case(os.path.join(dest, "example1", "case"), c)
    lines = ["rank,version,description,type,script,checksum,success"]
    for rank, row in enumerate(c.final_history, 1):
        lines.append(",".join([str(rank)] + ["" if x is None else str(x) for x in row]))
    write_files(os.path.join(dest, "example1", "expected"), {"history.csv": ("\n".join(lines) + "\n").encode()})
    c = gen.case_audit(Rng("public-example-2"))
    write_case(os.path.join(dest, "example2", "case"), c)
    write_files(os.path.join(dest, "example2", "expected"), {"audit.csv": audit_csv(c.audit).encode()})


def main():
    own = os.path.join(HERE, "examples")
    examples(own)
    env = os.path.join(TASK, "environment", "examples")
    shutil.rmtree(env, ignore_errors=True)
    shutil.copytree(own, env)
    app = os.path.join(TASK, "environment", "app")
    legacy = os.path.join(app, "legacy")
    shutil.rmtree(legacy, ignore_errors=True)
    write_files(os.path.join(legacy, "migrations"), project.files())
    project.build_legacy(os.path.join(legacy, "shop.db"))
    deps = os.path.join(app, "deployments")
    shutil.rmtree(deps, ignore_errors=True)
    for name in project.DEPLOYMENTS:
        write_case(os.path.join(deps, name), project.deployment(name))


if __name__ == "__main__":
    main()
