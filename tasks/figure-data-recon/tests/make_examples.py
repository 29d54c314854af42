"""Renders the public examples and the shipped paper from gen.py (never run at grading time).

  python3 tests/make_examples.py          # from the task folder

writes environment/examples/ (three figures with expected extract outputs, an example paper with
expected results and audit), environment/paper/ (the paper to reproduce and audit, no answers),
tests/examples/ (the grader's copy of the examples, byte for byte), tests/examples_truth.json
(their plans), tests/paper/ (the grader's copy of the shipped paper) and tests/paper_truth.json
(the shipped paper's answers).
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
ENV_EX = os.path.join(TASK, "environment", "examples")
ENV_PAPER = os.path.join(TASK, "environment", "paper")
TEST_EX = os.path.join(HERE, "examples")
TEST_PAPER = os.path.join(HERE, "paper")

FIGURES = [("line.png", "line", dict(grid=True), 11), ("scatter.png", "scatter", dict(invert=True, jitter=10), 12),
           ("bar.png", "bar", dict(), 13)]
EXAMPLE_PAPER = dict(figures=[("line", dict(ylog=True, grid=True)), ("line", dict(series=(3, 3))),
                              ("scatter", dict(grid=True)), ("bar", dict(jitter=10))], requests=10, claims=10)
SHIPPED_PAPER = dict(figures=[("line", dict(invert=True, grid=True)), ("line", dict(xlog=True, jitter=10)),
                              ("line", dict(ylog=True, scale=2, series=(3, 3))), ("scatter", dict(ylog=True, jitter=10)),
                              ("bar", dict(scale=2, grid=True))], requests=16, claims=16)


def expected_extract(t):
    ya, xa = gen.axis_from(t["yaxis"]), gen.axis_from(t["xaxis"])
    if t["kind"] == "line":
        return {"kind": "line", "x": t["qx"], "series": {nm: [ya.val(p) for p in t["rows"][nm]] for nm in t["names"]}}
    if t["kind"] == "scatter":
        return {"kind": "scatter",
                "series": {nm: sorted([xa.val(u), ya.val(v)] for u, v in t["points"][nm]) for nm in t["names"]}}
    return {"kind": "bar", "series": {nm: [ya.val(p) for p in t["tops"][nm]] for nm in t["names"]}}


def dump(path, obj):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        json.dump(obj, f, indent=1, sort_keys=True)
        f.write("\n")


def write(folder, files):
    os.makedirs(folder, exist_ok=True)
    for name, data in files.items():
        with open(os.path.join(folder, name), "wb") as f:
            f.write(data)


def paper_answers(ans, claims_file):
    results = {rid: v[0] for rid, v in ans["requests"].items()}
    claims = json.loads(claims_file)
    audit = [{"id": c["id"], "reason": ans["claims"][c["id"]]} for c in sorted(claims, key=lambda c: c["id"])]
    return results, audit


def main():
    for d in (ENV_EX, ENV_PAPER, TEST_EX, TEST_PAPER):
        shutil.rmtree(d, ignore_errors=True)
    truth = {"figures": {}}
    for name, kind, opts, seed in FIGURES:
        fig = gen.build_figure(random.Random(seed), kind, opts)
        data = fig.render()
        for d in (ENV_EX, TEST_EX):
            write(d, {name: data})
        for d in (ENV_EX, TEST_EX):
            dump(os.path.join(d, "expected", name.replace(".png", ".json")), expected_extract(fig.truth))
        truth["figures"][name] = fig.truth
    files, ans = gen.build_paper(random.Random(21), EXAMPLE_PAPER)
    for d in (ENV_EX, TEST_EX):
        write(os.path.join(d, "paper"), files)
    results, audit = paper_answers(ans, files["claims.json"])
    for d in (ENV_EX, TEST_EX):
        dump(os.path.join(d, "paper", "expected", "results.json"), results)
        dump(os.path.join(d, "paper", "expected", "audit.json"), audit)
    truth["requests"], truth["claims"] = ans["requests"], ans["claims"]
    dump(os.path.join(HERE, "examples_truth.json"), truth)
    files, ans = gen.build_paper(random.Random(34), SHIPPED_PAPER)
    write(ENV_PAPER, files)
    write(TEST_PAPER, files)
    dump(os.path.join(HERE, "paper_truth.json"), {"requests": ans["requests"], "claims": ans["claims"]})


if __name__ == "__main__":
    main()
