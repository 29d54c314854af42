"""Renders the two public hosts (environment/examples and its byte copy tests/examples) from
fixed seeds with gen.py. Never run at grading time."""
import csv
import io
import os
import random
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gen  # noqa: E402

TASK = os.path.dirname(HERE)


def csv_text(header, rows):
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(header)
    for r in rows:
        w.writerow(r)
    return buf.getvalue()


def main():
    for dest in (os.path.join(TASK, "environment", "examples"), os.path.join(HERE, "examples")):
        shutil.rmtree(dest, ignore_errors=True)
    for i, seed in enumerate(("public-1", "public-2"), 1):
        files, want = gen.build(random.Random(seed), "example")
        key = lambda r: (r[1], r[4])  # noqa: E731
        sess = sorted(([k] + list(v) for k, v in want["sessions"].items()), key=lambda r: (r[5], r[0]))
        out = {
            "sessions.csv": csv_text(("login_line", "user", "source", "port", "method", "start", "end", "close_line"), sess),
            "timeline.csv": csv_text(("event", "time", "user", "source", "line"), sorted(want["timeline"], key=key)),
            "alerts.csv": csv_text(("alert", "time", "user", "source", "line"), sorted(want["alerts"], key=lambda r: (r[1], r[0], r[4]))),
        }
        for dest in (os.path.join(TASK, "environment", "examples"), os.path.join(HERE, "examples")):
            base = os.path.join(dest, "example%d" % i)
            for name, data in files.items():
                p = os.path.join(base, "host", name)
                os.makedirs(os.path.dirname(p), exist_ok=True)
                with open(p, "wb") as f:
                    f.write(data)
            os.makedirs(os.path.join(base, "expected"), exist_ok=True)
            for name, text in out.items():
                with open(os.path.join(base, "expected", name), "w", encoding="utf-8") as f:
                    f.write(text)


if __name__ == "__main__":
    main()
