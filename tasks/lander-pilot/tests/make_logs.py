"""Renders the public audit example and the shipped logs (run once by the author; the outputs are
committed): environment/examples/audit/ and environment/app/logs/ for the agent, and the grader's
own copies with their answers under tests/examples/audit/ and tests/shipped/."""
import csv
import os
import random
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import flightlog  # noqa: E402

TASK = os.path.dirname(HERE)
# The shipped batch: every case, then more of the common outcomes of a real week.
SHIPPED = flightlog.CASES + [("OK", "calm"), ("OK", "wind"), ("OK", "calm"), ("HARD_LANDING", "plain"),
                             ("WIND_DRIFT", "plain"), ("FUEL_EXHAUSTED", "plain"), ("SENSOR_DROPOUT", "window_start")]


def write(files, answers, dirs, answer_dirs):
    for d in dirs:
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(d)
        for name, data in files.items():
            with open(os.path.join(d, name), "wb") as f:
                f.write(data)
    for d in answer_dirs:
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "expected-audit.csv"), "w", newline="") as f:
            w = csv.writer(f, lineterminator="\n")
            w.writerow(["flight", "cause", "step"])
            w.writerows(sorted(answers))


files, answers = flightlog.build(random.Random("lander-pilot/example"), prefix="ex")
write(files, answers, [os.path.join(TASK, "environment/examples/audit/logs"), os.path.join(HERE, "examples/audit/logs")],
      [os.path.join(TASK, "environment/examples/audit"), os.path.join(HERE, "examples/audit")])
files, answers = flightlog.build(random.Random("lander-pilot/shipped"), SHIPPED, prefix="ep")
write(files, answers, [os.path.join(TASK, "environment/app/logs"), os.path.join(HERE, "shipped/logs")],
      [os.path.join(HERE, "shipped")])
print("example and shipped logs written")
