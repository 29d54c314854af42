"""Renders the public examples (environment/examples and the grader's copy tests/examples) and the
shipped project (environment/app/project) from gen.py and project.py. Never run at grading time."""
import json
import os
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from lh import Rng  # noqa: E402
import gen  # noqa: E402
import project  # noqa: E402

TASK = os.path.dirname(HERE)


def write(root, files):
    for name, (data, mtime) in sorted(files.items()):
        path = os.path.join(root, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(data)
        os.utime(path, (mtime, mtime))


def examples(dest):
    shutil.rmtree(dest, ignore_errors=True)
    g, bf, state, goals = gen.case_dirty(Rng("public-example-1"))
    write(os.path.join(dest, "example1", "workspace"), gen.workspace(g, bf, state))
    plan, explain = gen.plan_lines(g, ["all"], g.files, state)
    write(os.path.join(dest, "example1", "expected"), {
        "plan.txt": (("\n".join(plan) + "\n").encode(), gen.T0), "explain.txt": (("\n".join(explain) + "\n").encode(), gen.T0)})
    g, bf, state, log, rows = gen.case_audit(Rng("public-example-2"))
    files = gen.workspace(g, bf, state)
    files["build.log"] = (log.encode(), gen.T0 + 2000)
    write(os.path.join(dest, "example2", "case"), files)
    csv = "target,verdict,reason\n" + "".join("%s,%s,%s\n" % r for r in sorted(rows))
    write(os.path.join(dest, "example2", "expected"), {"audit.csv": (csv.encode(), gen.T0)})


def main():
    examples(os.path.join(TASK, "environment", "examples"))
    examples(os.path.join(HERE, "examples"))
    proj = os.path.join(TASK, "environment", "app", "project")
    shutil.rmtree(proj, ignore_errors=True)
    files, _ = project.build()
    write(proj, files)
    print(json.dumps({"project_files": len(files)}))


if __name__ == "__main__":
    main()
