"""Renders the public examples (environment/examples, tests/examples) and the shipped months
(environment/app/network, tests/shipped) from gen.py with fixed seeds. Never run at grading time."""
import os
import random
import shutil
import sys
from datetime import date

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gen  # noqa: E402

TASK = os.path.dirname(HERE)
FINDING_HEADER = "station,date,reason,field,reported,corrected"


def write_folder(folder, files):
    for name, data in sorted(files.items()):
        path = os.path.join(folder, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(data if isinstance(data, bytes) else data.encode("utf-8"))


def audit_text(findings):
    return "\n".join([FINDING_HEADER] + [",".join(f) for f in sorted(findings)]) + "\n"


def main():
    for where in ("environment/examples", "tests/examples", "environment/app/network", "tests/shipped"):
        shutil.rmtree(os.path.join(TASK, where), ignore_errors=True)
    for name, seed in (("example1", "station-example-1"), ("example2", "station-example-2")):
        files, truth = gen.build(random.Random(seed), "example", agency=True)
        for root in ("environment/examples", "tests/examples"):
            base = os.path.join(TASK, root, name)
            write_folder(os.path.join(base, "input"), files)
            write_folder(os.path.join(base, "expected"), {
                "daily.csv": gen.daily_text(truth["daily"]),
                "flags.csv": gen.summary_text(truth["summary"]),
                "audit.csv": audit_text(truth["findings"])})
    july, jtruth = gen.build(random.Random("shipped-2026-07"), "full", ndays=31, first=date(2026, 7, 1), nstations=6)
    june, utruth = gen.build(random.Random("shipped-2026-06"), "full", ndays=30, first=date(2026, 6, 1), nstations=5, agency=True)
    write_folder(os.path.join(TASK, "environment/app/network/2026-07"), july)
    write_folder(os.path.join(TASK, "environment/app/network/2026-06"), june)
    write_folder(os.path.join(TASK, "tests/shipped/2026-07/input"), july)
    write_folder(os.path.join(TASK, "tests/shipped/2026-07/expected"), {
        "daily.csv": gen.daily_text(jtruth["daily"]), "flags.csv": gen.summary_text(jtruth["summary"])})
    write_folder(os.path.join(TASK, "tests/shipped/2026-06/input"), june)
    write_folder(os.path.join(TASK, "tests/shipped/2026-06/expected"), {"audit.csv": audit_text(utruth["findings"])})


if __name__ == "__main__":
    main()
