"""Renders the public examples (environment/examples, tests/examples) and the shipped periods
(environment/app/periods, tests/shipped) from gen.py with fixed seeds. Never run at grading time."""
import csv
import os
import random
import shutil
import sys
from datetime import date

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gen  # noqa: E402
import payref  # noqa: E402

TASK = os.path.dirname(HERE)


def write_folder(folder, files, skip=()):
    for name, data in sorted(files.items()):
        if name in skip:
            continue
        path = os.path.join(folder, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(data)


def write_answer(folder, want, audit=True):
    os.makedirs(folder, exist_ok=True)
    reg = [[eid] + list(v) for eid, v in sorted(want["register"].items())]
    order = {"REG": 0, "OT": 1, "NIGHT": 2, "SAL": 3, "RETRO": 4}
    lines = [[eid, code, h, a] for (eid, code), (h, a) in sorted(want["lines"].items(), key=lambda kv: (kv[0][0], order[kv[0][1]]))]
    ytd = [[eid] + list(v) for eid, v in sorted(want["ytd"].items())]
    files = {"register.csv": gen.table(["employee_id"] + payref.ORDER, reg),
             "lines.csv": gen.table(["employee_id", "code", "hours", "amount"], lines),
             "ytd.csv": gen.table(["employee_id", "year", "gross", "pension", "withholding", "carry_forward"], ytd)}
    if audit:
        files["audit.csv"] = gen.table(["employee_id", "reason", "field", "reported", "corrected"], sorted(want["findings"]))
    write_folder(folder, files)


def main():
    for where in ("environment/examples", "tests/examples", "environment/app/periods", "tests/shipped"):
        shutil.rmtree(os.path.join(TASK, where), ignore_errors=True)
    for name, seed, jan in (("example1", "example-1-5", False), ("example2", "example-2-0", True)):
        files, want = gen.build(random.Random(seed), "mixed", january=jan, vendor=True)
        for root in ("environment/examples", "tests/examples"):
            base = os.path.join(TASK, root, name)
            write_folder(os.path.join(base, "period"), files, skip=("vendor/register.csv",))
            write_folder(base, {"vendor-register.csv": files["vendor/register.csv"]})
            write_answer(os.path.join(base, "expected"), want)
    # the period to run, and the previous period with the other vendor's register to audit
    run_files, run_want = gen.build(random.Random("shipped-run"), "mixed", january=False, first_day=date(2026, 7, 6))
    audit_files, audit_want = gen.build(random.Random("shipped-audit-1"), "mixed", january=False, vendor=True, first_day=date(2026, 6, 22))
    write_folder(os.path.join(TASK, "environment/app/periods/2026-07-06"), run_files)
    write_folder(os.path.join(TASK, "environment/app/periods/2026-06-22"), audit_files)
    write_folder(os.path.join(TASK, "tests/shipped/2026-07-06/period"), run_files)
    write_answer(os.path.join(TASK, "tests/shipped/2026-07-06/expected"), run_want, audit=False)
    write_folder(os.path.join(TASK, "tests/shipped/2026-06-22/period"), audit_files)
    write_folder(os.path.join(TASK, "tests/shipped/2026-06-22/expected"),
                 {"audit.csv": gen.table(["employee_id", "reason", "field", "reported", "corrected"], sorted(audit_want["findings"]))})


if __name__ == "__main__":
    main()
