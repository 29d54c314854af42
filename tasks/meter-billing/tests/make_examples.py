"""Renders the public examples (environment/examples, tests/examples) and the shipped periods
(environment/app/periods, tests/shipped) from gen.py with fixed seeds. Never run at grading time."""
import os
import random
import shutil
import sys
from datetime import date

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import billref  # noqa: E402
import gen  # noqa: E402

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
    bills = [[a] + list(v) for a, v in sorted(want["bills"].items())]
    lines = [list(k) + list(v) for k, v in sorted(want["lines"].items())]
    files = {"bills.csv": gen.table(["account"] + list(billref.ORDER), bills),
             "lines.csv": gen.table(["account", "kind", "version", "item", "quantity", "amount"], lines)}
    if audit:
        files["audit.csv"] = gen.table(["account", "reason", "field", "reported", "corrected"], sorted(want["findings"]))
    write_folder(folder, files)


def main():
    for where in ("environment/examples", "tests/examples", "environment/app/periods", "tests/shipped"):
        shutil.rmtree(os.path.join(TASK, where), ignore_errors=True)
    for name, seed in (("example1", "example-1"), ("example2", "example-2")):
        files, want = gen.build_audit(random.Random(seed), "example", ndays=6, n_accounts=4)
        for root in ("environment/examples", "tests/examples"):
            base = os.path.join(TASK, root, name)
            write_folder(os.path.join(base, "period"), files, skip=("vendor/bills.csv",))
            write_folder(base, {"vendor-bills.csv": files["vendor/bills.csv"]})
            write_answer(os.path.join(base, "expected"), want)
    # the period to bill, and the previous period with the other supplier's bills to audit
    run_files, run_want = gen.build(random.Random("shipped-run"), "mixed", first=date(2026, 10, 1), ndays=31,
                                    n_accounts=6, zone="Europe/London")
    audit_files, audit_want = gen.build_audit(random.Random("shipped-audit"), "audit", first=date(2026, 9, 1), ndays=30,
                                              n_accounts=5, zone="Europe/London")
    write_folder(os.path.join(TASK, "environment/app/periods/2026-10"), run_files)
    write_folder(os.path.join(TASK, "environment/app/periods/2026-09"), audit_files)
    write_folder(os.path.join(TASK, "tests/shipped/2026-10/period"), run_files)
    write_answer(os.path.join(TASK, "tests/shipped/2026-10/expected"), run_want, audit=False)
    write_folder(os.path.join(TASK, "tests/shipped/2026-09/period"), audit_files)
    write_answer(os.path.join(TASK, "tests/shipped/2026-09/expected"), audit_want)


if __name__ == "__main__":
    main()
