"""Regenerates the public examples (tests/examples and environment/examples, byte-identical) and
the shipped contest (tests/shipped/contest with its answers; environment/app/contest without).

    python3 tests/make_examples.py
"""
import os
import random
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import cases  # noqa: E402

TASK = os.path.dirname(HERE)
EX_PLANS = {
    "example1": (101, [("classic", 6, False, False), ("classic", 6, True, False), ("jigsaw", 6, False, False),
                       ("signs", 6, True, False)]),
    "example2": (204, [("killer", 6, True, True), ("thermo", 6, True, False), ("mixed", 6, False, True),
                       ("killer", 6, False, False)]),
}
CONTEST = (303, [("classic", 9, False, False), ("classic", 8, False, False), ("jigsaw", 9, False, False),
                 ("jigsaw", 6, True, False), ("killer", 6, True, False), ("killer", 6, True, False),
                 ("killer", 6, False, True), ("signs", 6, True, False), ("signs", 6, False, False),
                 ("thermo", 6, True, False), ("thermo", 6, True, False), ("mixed", 6, True, False)])


def lay(folder, tree):
    for rel, data in sorted(tree.items()):
        p = os.path.join(folder, rel)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "wb") as f:
            f.write(data)


def build(seed, plan, people):
    rng = random.Random(seed)
    items = cases.batch(rng, plan)
    subs, rows = cases.contest(rng, items, people)
    return {
        "puzzles": cases.files(items),
        "submissions": subs,
        "expected/answers": cases.answers(items),
        "expected": {"audit.csv": cases.audit_csv(rows)},
    }


def write(folder, parts, keep_expected=True):
    shutil.rmtree(folder, ignore_errors=True)
    for sub, tree in parts.items():
        if keep_expected or not sub.startswith("expected"):
            lay(os.path.join(folder, sub), tree)


def main():
    for name, (seed, plan) in EX_PLANS.items():
        parts = build(seed, plan, 2)
        write(os.path.join(HERE, "examples", name), parts)
        write(os.path.join(TASK, "environment", "examples", name), parts)
    seed, plan = CONTEST
    parts = build(seed, plan, 4)
    write(os.path.join(HERE, "shipped", "contest"), parts)
    write(os.path.join(TASK, "environment", "app", "contest"), parts, keep_expected=False)


if __name__ == "__main__":
    main()
