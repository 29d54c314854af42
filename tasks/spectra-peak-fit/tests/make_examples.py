"""Renders the public batches (never run at grading time):

    python3 tests/make_examples.py

writes environment/examples/{example1,example2}/{input,expected} and the grader's copy under
tests/examples/. The expected files hold the planted values of tests/gen.py.
"""
import csv
import io
import os
import random
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gen  # noqa: E402

SEEDS = {"example1": 20261, "example2": 20262}


def table(header, rows):
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(header)
    for r in rows:
        w.writerow(["%.6g" % v if isinstance(v, float) else v for v in r])
    return buf.getvalue().encode()


def main():
    for ex, seed in SEEDS.items():
        files, exp = gen.build(random.Random(seed), ex, 0)
        out = {"input/" + k: v for k, v in files.items()}
        out["expected/peaks.csv"] = table(["sample", "peak", "center", "fwhm", "area"], exp["peaks"])
        out["expected/report.csv"] = table(["sample", "analyte", "ratio", "concentration", "flag"],
                                           exp["report"])
        if exp["audit"]:
            out["expected/audit.csv"] = table(["sample", "analyte", "codes"], exp["audit"])
        for root in (os.path.join(HERE, "..", "environment", "examples"), os.path.join(HERE, "examples")):
            d = os.path.join(root, ex)
            shutil.rmtree(d, ignore_errors=True)
            for name, data in out.items():
                p = os.path.join(d, name)
                os.makedirs(os.path.dirname(p), exist_ok=True)
                with open(p, "wb") as f:
                    f.write(data)


if __name__ == "__main__":
    main()
