"""Regenerates the public examples and the shipped batches from fixed seeds (run from the task folder:
python3 tests/make_examples.py). Writes environment/examples + tests/examples (identical),
environment/app/plates + tests/shipped (inputs and the answers)."""
import json, os, random, shutil, sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gen, pngkit  # noqa: E402

TASK = os.path.dirname(HERE)


def put(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())


def table_json(t):
    t = dict(t, blobs=[dict(b, cx=round(b["cx"], 2), cy=round(b["cy"], 2)) for b in t["blobs"]])
    t["blobs"].sort(key=lambda b: (b["cy"], b["cx"]))
    return json.dumps(t) + "\n"


def batch_folder(root, rng, n, prefix, with_manual, encodings=None):
    files, plates, report = gen.batch(rng, n, prefix, encodings)
    for name, data in files.items():
        put(os.path.join(root, name), data)
    findings = None
    if with_manual:
        text, findings = gen.manual(rng, plates, prefix)
        put(os.path.join(root, "manual.csv"), text)
    return report, findings


def counts_csv(report):
    return "plate,colonies,border,cfu,status\n" + "".join(r + "\n" for r in report)


def audit_csv(findings):
    return "plate,reason,reported,expected\n" + "".join(",".join(f) + "\n" for f in findings)


def main():
    ex = os.path.join(TASK, "environment", "examples")
    shutil.rmtree(ex, ignore_errors=True)
    rng = random.Random(20261127)
    d1, t1 = pngkit.make(rng, "plain", (0, 8))
    d2, t2 = pngkit.make(rng, "noisy", (2, 8))
    put(os.path.join(ex, "example1.png"), d1)
    put(os.path.join(ex, "example1.json"), table_json(t1))
    put(os.path.join(ex, "example2.png"), d2)
    put(os.path.join(ex, "example2.json"), table_json(t2))
    report, findings = batch_folder(os.path.join(ex, "demo"), rng, 4, "D", True, [(0, 8), (2, 8), (0, 8), (2, 8)])
    put(os.path.join(ex, "demo-expected", "counts.csv"), counts_csv(report))
    put(os.path.join(ex, "demo-expected", "audit.csv"), audit_csv(findings))
    dst = os.path.join(HERE, "examples")
    shutil.rmtree(dst, ignore_errors=True)
    shutil.copytree(ex, dst)
    plates = os.path.join(TASK, "environment", "app", "plates")
    shipped = os.path.join(HERE, "shipped")
    shutil.rmtree(plates, ignore_errors=True)
    shutil.rmtree(shipped, ignore_errors=True)
    rng = random.Random(1127)
    report, _ = batch_folder(os.path.join(plates, "batch-1127"), rng, 6, "K", False)
    put(os.path.join(shipped, "expected", "batch-1127.csv"), counts_csv(report))
    _, findings = batch_folder(os.path.join(plates, "batch-1120"), rng, 6, "J", True)
    put(os.path.join(shipped, "expected", "audit-1120.csv"), audit_csv(findings))
    for b in ("batch-1127", "batch-1120"):
        shutil.copytree(os.path.join(plates, b), os.path.join(shipped, b))


if __name__ == "__main__":
    main()
