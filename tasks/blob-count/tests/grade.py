"""Grades /app/blobs.py: the single-image contract on seeded hidden PNGs, the batch report and the
audit of technician sheets on seeded hidden batches, the public examples and the shipped batches."""
import csv, io, json, os, random, shutil, sys, tempfile
sys.path.insert(0, "/tests")
from lh import SEED, WORK, Grader, run, generate
import gen, pngkit

g = Grader()
TMP = tempfile.mkdtemp(prefix="hidden-")
TOOL = os.path.join(WORK, "blobs.py")
# The grader's own copies of the public cases and the shipped batches: /app is the agent's to edit,
# so neither the inputs nor the expected answers are read from there.
HERE = os.path.dirname(os.path.abspath(__file__))
PUB = os.path.join(HERE, "examples")
SHIP = os.path.join(HERE, "shipped")


def stage(src, rel):
    """Copies a file or folder into scratch space and returns the copy's path."""
    dst = os.path.join(TMP, "staged", rel)
    if os.path.isdir(src):
        shutil.copytree(src, dst, symlinks=True)
    else:
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        shutil.copyfile(src, dst)
    return dst


def score_image(exp, got):
    s = 0.4 * (got.get("count") == exp["count"]) + 0.1 * (got.get("border_count") == exp["border_count"])
    pool = [b for b in got.get("blobs", []) if isinstance(b, dict)]
    hit = 0
    for e in exp["blobs"]:
        for b in pool:
            try:
                if b["area"] == e["area"] and abs(b["cx"] - e["cx"]) <= 0.011 and abs(b["cy"] - e["cy"]) <= 0.011:
                    pool.remove(b)
                    hit += 1
                    break
            except (KeyError, TypeError):
                continue
    return s + 0.5 * hit / max(len(exp["blobs"]), len(got.get("blobs", [])), 1)


def run_image(path, exp):
    code, out, err = run(["python3", TOOL, path], timeout=20)
    try:
        got = json.loads(out)
        assert isinstance(got, dict)
    except Exception:
        return 0.0, "exit %s, no JSON %s" % (code, err.strip()[-120:])
    s = score_image(exp, got)
    return s, "%.2f (count %s vs %d)" % (s, got.get("count"), exp["count"])


def rows_of(path):
    """CSV data rows as tuples of stripped cells (header dropped); [] when missing or unreadable."""
    try:
        with open(path, newline="") as f:
            rows = [tuple(c.strip() for c in r) for r in csv.reader(io.StringIO(f.read()))]
    except (OSError, UnicodeDecodeError, csv.Error):
        return []
    return [r for r in rows[1:] if r]


def share(want, got):
    """Rows matched exactly (as a multiset) over the larger of the two row counts."""
    pool, hit = list(got), 0
    for r in want:
        if r in pool:
            pool.remove(r)
            hit += 1
    return hit / max(len(want), len(got), 1) if (want or got) else 1.0


def run_batch(folder, want):
    out = os.path.join(TMP, "out-%s.csv" % os.path.basename(folder))
    code, _, err = run(["python3", TOOL, "batch", folder, out], timeout=40)
    s = share(want, rows_of(out))
    return s, "batch %s: %.2f (exit %s %s)" % (os.path.basename(folder), s, code, err.strip()[-80:])


def run_audit(folder, sheet, want):
    out = os.path.join(TMP, "audit-%s.csv" % os.path.basename(folder))
    code, _, err = run(["python3", TOOL, "audit", folder, sheet, out], timeout=40)
    s = share(want, rows_of(out))
    return s, "audit %s: %.2f (exit %s %s)" % (os.path.basename(folder), s, code, err.strip()[-80:])


def images(specs):
    def fn():
        rng = random.Random("%d:images:%s" % (SEED, specs[0][0]))
        res = []
        for i, (kind, enc, inter) in enumerate(specs):
            data, exp = generate(pngkit.make, rng, kind, enc, inter)
            g.digest(data)
            p = os.path.join(TMP, "%s%d.png" % (kind, i))
            with open(p, "wb") as f:
                f.write(data)
            res.append(run_image(p, exp))
        return sum(r[0] for r in res) / len(res), "; ".join(r[1] for r in res)
    return fn


def write_batch(tag, files):
    d = os.path.join(TMP, tag)
    os.makedirs(d)
    for name, data in sorted(files.items()):
        g.digest(data)
        with open(os.path.join(d, name), "wb") as f:
            f.write(data)
    return d


def hidden_batch():
    rng = random.Random("%d:batch" % SEED)
    res = []
    for k in range(2):
        files, _, report = generate(gen.batch, rng, 5, "P")
        res.append(run_batch(write_batch("batch%d" % k, files), [tuple(r.split(",")) for r in report]))
    return sum(r[0] for r in res) / len(res), "; ".join(r[1] for r in res)


def hidden_audit():
    rng = random.Random("%d:audit" % SEED)
    res = []
    for k in range(2):
        files, plates, _ = generate(gen.batch, rng, 6, "A")
        text, found = generate(gen.manual, rng, plates, "A")
        d = write_batch("sheet%d" % k, dict(files, **{"manual.csv": text.encode()}))
        res.append(run_audit(d, os.path.join(d, "manual.csv"), found))
    return sum(r[0] for r in res) / len(res), "; ".join(r[1] for r in res)


def public():
    ok, msg = [], []
    for ex in ("example1", "example2"):
        exp = json.load(open(os.path.join(PUB, ex + ".json")))
        s, m = run_image(stage(os.path.join(PUB, ex + ".png"), ex + ".png"), exp)
        ok.append(s == 1.0)
        msg.append(m)
    d = stage(os.path.join(PUB, "demo"), "demo")
    s, m = run_batch(d, rows_of(os.path.join(PUB, "demo-expected", "counts.csv")))
    ok.append(s == 1.0)
    msg.append(m)
    s, m = run_audit(d, os.path.join(d, "manual.csv"), rows_of(os.path.join(PUB, "demo-expected", "audit.csv")))
    ok.append(s == 1.0)
    msg.append(m)
    return float(all(ok)), "; ".join(msg)


def shipped():
    """The shipped batch-1127 report (60%) and the audit of batch-1120's manual sheet (40%)."""
    d = stage(os.path.join(SHIP, "batch-1127"), "batch-1127")
    s1, m1 = run_batch(d, rows_of(os.path.join(SHIP, "expected", "batch-1127.csv")))
    d = stage(os.path.join(SHIP, "batch-1120"), "batch-1120")
    s2, m2 = run_audit(d, os.path.join(d, "manual.csv"), rows_of(os.path.join(SHIP, "expected", "audit-1120.csv")))
    return 0.6 * s1 + 0.4 * s2, m1 + "; " + m2


g.check("public_examples", public)
g.check("hidden_images", images([("plain", None, 0), ("plain", None, 0), ("noisy", None, 0), ("noisy", None, 0)]))
g.check("hidden_encodings", images([("encodings", (3, 8), 0), ("encodings", (4, 8), 0), ("encodings", (4, 16), 0),
                                    ("encodings", (6, 16), 0), ("encodings", (3, 8), 1), ("encodings", (4, 16), 1)]))
g.check("hidden_batch", hidden_batch)
g.check("hidden_audit", hidden_audit)
g.check("shipped_work", shipped)
shutil.rmtree(TMP, ignore_errors=True)
g.finish()
