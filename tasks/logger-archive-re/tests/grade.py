"""Grades /app/kla.py (decode and encode of DL-7 logger archives) on the public examples and on
seeded hidden archives whose contents are planned first and rendered by gen.py's own writer."""
import json, math, os, random, shutil, sys, tempfile
from collections import Counter
sys.path.insert(0, "/tests")
from lh import SEED, WORK, Grader, run, generate
import gen

g = Grader()
TMP = tempfile.mkdtemp(prefix="hidden-")
TOOL = os.path.join(WORK, "kla.py")
# The grader's own copy of the public cases: /app/examples is the agent's to edit, so neither the
# inputs nor the expected answers are read from there.
PUB = os.path.join(os.path.dirname(os.path.abspath(__file__)), "examples")


def stage(rel):
    """Copies a public input from the grader's copy into scratch space and returns the copy's path."""
    src, dst = os.path.join(PUB, rel), os.path.join(TMP, "public", rel)
    os.makedirs(os.path.dirname(dst), exist_ok=True)
    shutil.copyfile(src, dst)
    return dst


def raw_of(v, exp):
    """A decoded value back as the integer reading it stands for, or a marker that it is wrong."""
    if v is None:
        return None
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
        return ("bad", repr(v))
    x = v * 10.0 ** (-exp)
    r = round(x)
    return r if abs(x - r) < 1e-3 else ("bad", repr(v))


def record_keys(doc, chans):
    keys = []
    for r in doc.get("records") or []:
        try:
            vals = r.get("values") or []
            keys.append((r.get("t"), r.get("status"),
                         tuple(raw_of(v, c["exp"]) for v, c in zip(vals, chans)) + (len(vals),)))
        except Exception:
            keys.append(("bad", repr(r)[:40]))
    return keys


def score_decode(exp, doc, parts=(0.2, 0.6, 0.2)):
    """parts: the shares of header, records (multiset share, extra rows count against it) and
    integrity fields. A damaged archive weighs integrity most: a decoder that misreports which
    chunks failed their check misleads whoever relies on the archive."""
    if not isinstance(doc, dict):
        return 0.0, "no JSON object"
    chans = exp["channels"]
    header = all(doc.get(k) == exp[k] for k in ("version", "station", "start")) and doc.get("channels") == chans
    want = Counter((t, s, tuple(v) + (len(v),)) for t, s, v in exp["records"])
    got = Counter(record_keys(doc, chans))
    most = max(sum(want.values()), sum(got.values()))
    share = sum((want & got).values()) / most if most else 1.0
    bad = doc.get("bad_chunks")
    try:
        bad = sorted((b.get("index"), b.get("tag")) for b in bad)
    except Exception:
        bad = "?"
    meta = (bad == [(b["index"], b["tag"]) for b in exp["bad_chunks"]]
            and doc.get("truncated") is exp["truncated"] and doc.get("declared_records") == exp["declared_records"])
    s = parts[0] * header + parts[1] * share + parts[2] * meta
    return s, "header %s, records %.3f, integrity %s" % ("ok" if header else "wrong", share, "ok" if meta else "wrong")


def decode(path, out):
    code, _, err = run(["python3", TOOL, "decode", path, out])
    if code != 0 or not os.path.exists(out):
        return None, "exit %s %s" % (code, err.strip()[-160:])
    try:
        with open(out, encoding="utf-8") as f:
            return json.load(f), ""
    except Exception as e:
        return None, "unreadable JSON: %s" % e


def public():
    res = []
    for ex in ("example1", "example2"):
        with open(os.path.join(PUB, ex, "expected.json"), encoding="utf-8") as f:
            want = json.load(f)
        exp = dict(want, records=[[r["t"], r["status"], [raw_of(v, c["exp"]) for v, c in zip(r["values"], want["channels"])]]
                                  for r in want["records"]])
        doc, msg = decode(stage(ex + "/input.kla"), os.path.join(TMP, ex + ".json"))
        s, m = score_decode(exp, doc) if doc is not None else (0.0, msg)
        res.append("%s decode %s" % (ex, m))
        if s < 1.0:
            return 0.0, "; ".join(res)
    out = os.path.join(TMP, "example1.kla")
    code, _, err = run(["python3", TOOL, "encode", stage("example1/expected.json"), out])
    with open(os.path.join(PUB, "example1", "input.kla"), "rb") as f:
        same = os.path.exists(out) and open(out, "rb").read() == f.read()
    res.append("example1 encode %s" % ("identical" if same else "differs (exit %s %s)" % (code, err.strip()[-120:])))
    return float(same), "; ".join(res)


PARTS = {"v1": (0.2, 0.6, 0.2), "v2": (0.2, 0.6, 0.2), "corrupt": (0.1, 0.3, 0.6)}


def hidden_decode(kind, specs):
    def fn():
        rng = random.Random("%d/%s" % (SEED, kind))
        scores, msgs = [], []
        for i, (version, nrec, opts, damage) in enumerate(specs):
            def make():
                plan = gen.plan_archive(rng, version, rng.randint(*nrec), **opts)
                return gen.build(plan, rng, **damage)
            data, exp = generate(make)
            g.digest(data)
            path = os.path.join(TMP, "%s%d.kla" % (kind, i))
            with open(path, "wb") as f:
                f.write(data)
            doc, msg = decode(path, path + ".json")
            s, m = score_decode(exp, doc, PARTS[kind]) if doc is not None else (0.0, msg)
            scores.append(s)
            msgs.append("case %d (v%d, %d records): %.3f %s" % (i, version, len(exp["records"]), s, m))
        return sum(scores) / len(scores), "; ".join(msgs)
    return fn


def hidden_encode():
    rng = random.Random("%d/encode" % SEED)
    ok, msgs = 0, []
    sizes = [(70, 120), (64, 64), (33, 60), (96, 150)]
    for i, nrec in enumerate(sizes):
        def make():
            station = "Zürich-Fluntern" if i == 2 else None
            plan = gen.plan_archive(rng, 1, rng.randint(*nrec), station=station)
            doc = {"version": 2 if i == 3 else 1, "station": plan["station"], "start": plan["start"],
                   "channels": [{"name": n, "unit": u, "exp": e} for n, u, e in plan["channels"]],
                   "records": plan["records"], "bad_chunks": [], "truncated": False,
                   "declared_records": len(plan["records"])}
            return gen.to_json(doc).encode("utf-8"), gen.v1_bytes(plan)
        src, want = generate(make)
        g.digest(src)
        path = os.path.join(TMP, "encode%d.json" % i)
        with open(path, "wb") as f:
            f.write(src)
        out = os.path.join(TMP, "encode%d.kla" % i)
        code, _, err = run(["python3", TOOL, "encode", path, out])
        got = open(out, "rb").read() if os.path.exists(out) else None
        ok += got == want
        msgs.append("case %d: %s" % (i, "identical" if got == want else
                                      "exit %s, %s bytes vs %d %s" % (code, None if got is None else len(got), len(want), err.strip()[-100:])))
    return ok / len(sizes), "; ".join(msgs)


g.check("public_examples", public)
g.check("hidden_v1", hidden_decode("v1", [
    (1, (70, 140), {}, {}),
    (1, (32, 32), {}, {}),
    (1, (150, 260), {}, {}),
]))
g.check("hidden_v2", hidden_decode("v2", [
    (2, (60, 120), {"missing": 0.08}, {}),
    (2, (80, 160), {"missing": 0.15, "step_back": True, "notes": True}, {}),
    (2, (100, 200), {"missing": 0.05, "step_back": True, "notes": True}, {}),
]))
g.check("hidden_corrupt", hidden_decode("corrupt", [
    (1, (120, 200), {}, {"corrupt": 2}),
    (1, (100, 180), {}, {"truncate": True}),
    (2, (120, 200), {"missing": 0.1, "step_back": True, "notes": True}, {"corrupt": 1, "truncate": True, "note_corrupt": True}),
    (2, (90, 160), {"missing": 0.1, "notes": True}, {"corrupt": 1, "note_corrupt": True}),
    (2, (60, 120), {"missing": 0.05, "notes": True}, {"note_corrupt": True}),
]))
g.check("hidden_encode", hidden_encode)
shutil.rmtree(TMP, ignore_errors=True)
g.finish()
