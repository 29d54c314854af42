"""Renders the public examples (environment/examples, tests/examples) and the shipped repositories
(environment/app/repos, tests/shipped) with fixed seeds. Never run at grading time."""
import json
import os
import random
import shutil
import sys
from datetime import datetime, timedelta

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import cases  # noqa: E402
import refsnap as R  # noqa: E402

TASK = os.path.dirname(HERE)


def csv_text(header, rows):
    return "".join(",".join(str(x) for x in r) + "\n" for r in [header] + list(rows))


def write(root, files):
    for rel, data in sorted(files.items()):
        path = os.path.join(root, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(data if isinstance(data, bytes) else data.encode())


def example(seed, offset):
    rnd = random.Random(seed)
    w, trees, snaps = cases.written_repo(rnd, 3, 2, offset=offset)
    aw = cases.audit_case(rnd)[0]
    audit_rows = cases.check_repo(aw.files)
    files = {"notes.bin": R.content(rnd, "rand"), "padding.bin": R.content(rnd, "tail")}
    t1 = datetime.strptime(snaps[1]["time"], "%Y-%m-%dT%H:%M:%SZ") + timedelta(seconds=rnd.randint(1, 900))
    spec = {"restore": R.stamp(t1), "diff": [snaps[0]["id"], snaps[2]["id"]],
            "forget": ["--keep-last", "1", "--keep-daily", "2", "--dry-run"]}
    out = {}
    for rel, data in w.files.items():
        out["repo/" + rel] = data
    for rel, data in aw.files.items():
        out["audit-repo/" + rel] = data
    for name, data in files.items():
        out["files/" + name] = data
        ends = R.cut_points(data)
        out["expected/chunk-%s.csv" % name] = csv_text(("offset", "length", "id"),
                                                       [(x, y - x, R.sha(data[x:y])) for x, y in zip([0] + ends[:-1], ends)])
    out["example.json"] = json.dumps(spec, indent=1) + "\n"
    out["expected/restore.json"] = json.dumps(R.listing_of(trees[1])) + "\n"
    out["expected/diff.csv"] = csv_text(("change", "path"), R.diff_rows(snaps[0]["entries"], snaps[2]["entries"]))
    out["expected/forget.csv"] = csv_text(("snapshot", "time", "action", "reasons"), R.forget_rows(snaps, offset, {"last": 1, "daily": 2}))
    out["expected/audit.csv"] = csv_text(("code", "snapshot", "path", "object"), audit_rows)
    return out


def shipped():
    rnd = random.Random("shipped-main-3")
    offset = -300
    w = R.RepoWriter(offset, rnd)
    tree = R.plan_tree(rnd, extra=2)
    times = cases.forget_times(rnd, 2026, offset)[-18:]
    trees, snaps = [], []
    for k, t in enumerate(times):
        if k:
            tree = cases.mutate(rnd, tree, allow_type=(k == 5))
        data = {R.sha(c): c for n in tree.values() if n["type"] == "file" for c in R.pieces(n["data"])}
        snaps.append(w.add(t, R.entries_of(tree), data))
        trees.append(tree)
        if k == 9:
            w.repack()
    k = 11
    at = snaps[k]["time"]  # a time at which a snapshot was taken: that snapshot is the one
    keep = {"last": 2, "daily": 5, "weekly": 4, "monthly": 3}
    args = ["--keep-last", "2", "--keep-daily", "5", "--keep-weekly", "4", "--keep-monthly", "3"]
    prnd = random.Random("shipped-partner-2")
    pw, prow, planted = cases.audit_case(prnd)
    expected = {"restore_at": at, "restore": R.listing_of(trees[k]),
                "diff": [snaps[4]["id"], snaps[13]["id"]],
                "diff_rows": [["change", "path"]] + [list(r) for r in R.diff_rows(snaps[4]["entries"], snaps[13]["entries"])],
                "forget": args,
                "forget_rows": [["snapshot", "time", "action", "reasons"]] + [list(r) for r in R.forget_rows(snaps, offset, keep)],
                "audit_rows": [["code", "snapshot", "path", "object"]] + [list(r) for r in prow],
                "planted": planted}
    return w, pw, expected


def main():
    for where in ("environment/examples", "tests/examples", "environment/app/repos", "tests/shipped"):
        shutil.rmtree(os.path.join(TASK, where), ignore_errors=True)
    for name, seed, offset in (("example1", "example-one-1", 60), ("example2", "example-two-1", -240)):
        out = example(seed, offset)
        for root in ("environment/examples", "tests/examples"):
            write(os.path.join(TASK, root, name), out)
    w, pw, expected = shipped()
    for root in ("environment/app/repos", "tests/shipped"):
        w.write(os.path.join(TASK, root, "main"))
        pw.write(os.path.join(TASK, root, "partner"))
    with open(os.path.join(TASK, "tests/shipped/expected.json"), "w") as f:
        json.dump(expected, f, indent=0)
        f.write("\n")
    print("restore at", expected["restore_at"], "diff", expected["diff"], "planted", expected["planted"])


if __name__ == "__main__":
    main()
