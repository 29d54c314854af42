"""Renders the public examples and the shipped campaign from gen.py (never run at grading time).

    python3 tests/make_examples.py      (from the task folder)

writes environment/examples/example{1,2}/{input,expected}, environment/campaign/ and the
grader's copies under tests/ (tests/examples, tests/campaign, tests/campaign_expected.json).
"""
import json
import os
import random
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gen  # noqa: E402

TASK = os.path.dirname(HERE)


def write(d, files):
    os.makedirs(d, exist_ok=True)
    for name, data in files.items():
        with open(os.path.join(d, name), "wb") as f:
            f.write(data)


def main():
    for sub in ("environment/examples", "tests/examples", "environment/campaign", "tests/campaign"):
        shutil.rmtree(os.path.join(TASK, sub), ignore_errors=True)
    for ex, kind, seed in (("example1", "example", "public/1"), ("example2", "audit", "public/2")):
        files, exp = gen.build(random.Random(seed), kind, 6)
        for root in ("environment/examples", "tests/examples"):
            base = os.path.join(TASK, root, ex)
            write(os.path.join(base, "input"), files)
            write(os.path.join(base, "expected"), {
                "report.csv": gen.report_csv(exp["report"]).encode(),
                "audit.csv": gen.audit_csv(exp["audit"]).encode()})
    files, exp = gen.build(random.Random("campaign/2026"), "campaign", 10)
    for root in ("environment/campaign", "tests/campaign"):
        write(os.path.join(TASK, root), files)
    want = {"report": exp["report"], "audit": [[n, sorted(c)] for n, c in exp["audit"]]}
    with open(os.path.join(HERE, "campaign_expected.json"), "w") as f:
        json.dump(want, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
