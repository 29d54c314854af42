"""Renders the public examples (environment/examples and the grader's copy tests/examples), the
shipped puzzle batch (environment/app/batch) and the shipped claims (environment/app/claims) from
shipped.py. Never run at grading time."""
import os
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import shipped  # noqa: E402

TASK = os.path.dirname(HERE)


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def examples(dest):
    shutil.rmtree(dest, ignore_errors=True)
    solve = shipped.solve_examples()
    for name, (text, _, _, _) in solve.items():
        write(os.path.join(dest, "solve", name), text)
    write(os.path.join(dest, "solve", "expected.txt"), "".join("%s %s\n" % (n, v[1]) for n, v in sorted(solve.items())))
    for name, text, want in shipped.puzzle_examples():
        write(os.path.join(dest, "puzzles", name + ".pzl"), text)
        write(os.path.join(dest, "puzzles", name + ".ans"), "\n".join(want) + "\n")
    files, want = shipped.audit_example()
    for name, text in files.items():
        write(os.path.join(dest, "audit", "claims", name), text)
    write(os.path.join(dest, "audit", "expected-audit.csv"),
          "instance,code,detail\n" + "".join("%s,%s,%s\n" % (k, v[0], v[1]) for k, v in sorted(want.items())))


def main():
    examples(os.path.join(TASK, "environment", "examples"))
    examples(os.path.join(TASK, "tests", "examples"))
    app = os.path.join(TASK, "environment", "app")
    shutil.rmtree(os.path.join(app, "batch"), ignore_errors=True)
    for name, text, _ in shipped.batch():
        write(os.path.join(app, "batch", name), text)
    shutil.rmtree(os.path.join(app, "claims"), ignore_errors=True)
    files, _ = shipped.claims()
    for name, text in files.items():
        write(os.path.join(app, "claims", name), text)


if __name__ == "__main__":
    main()
