"""Grades the repaired /app/snap.py: chunking, backups (read back with the grader's own reader),
restores, diffs, forget plans and audits of repositories the grader plans and writes itself, the
public examples and the shipped repositories (answers held in tests/)."""
import csv
import io
import json
import os
import shutil
import sys
import tempfile

sys.path.insert(0, "/tests")
from lh import SEED, WORK, Grader, generate, present_steps, rng_for, run  # noqa: E402
import cases  # noqa: E402
import refsnap  # noqa: E402

g = Grader()
TMP = tempfile.mkdtemp(prefix="snapgrade-")
TOOL = os.path.join(WORK, "snap.py")
HERE = os.path.dirname(os.path.abspath(__file__))
BATCH = os.path.join(TMP, "batch_runner.py")
shutil.copyfile(os.path.join(HERE, "batch.py"), BATCH)


def rnd_for(label):
    import random
    return random.Random(rng_for(label).next_u32())


def put(root, files):
    for rel, data in sorted(files.items()):
        path = os.path.join(root, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(data)
        g.digest(rel.encode() + data)


def tool(*args):
    return ["python3", TOOL] + [str(a) for a in args]


def batch(tag, steps, lists=None, copies=None, mkdirs=()):
    """One sealed call running every step, then listing/copying the named folders."""
    plan = os.path.join(TMP, tag + "-plan.json")
    # Calls that only read a repository or a file may reach the program through a scaled child's
    # input channel (docs/scale.md); init and backup change a repository in place and never do.
    steps, ro = present_steps(steps, (TMP,), commands=("chunk", "restore", "diff", "forget", "audit"))
    with open(plan, "w") as f:
        json.dump({"steps": steps, "list": lists or {}, "copy": copies or {}, "mkdirs": list(mkdirs), "timeout": 8, "budget": 20}, f)
    code, out, err = run(["python3", BATCH, plan], timeout=30, ro=ro)
    try:
        return json.loads(out)
    except ValueError:
        raise RuntimeError("batch %s failed: exit %s %s" % (tag, code, err.strip()[-200:]))


def rows(text):
    out = []
    for r in csv.reader(io.StringIO(text.replace("\r\n", "\n"))):
        if r:
            out.append(tuple(x.strip() for x in r))
    return out


def same_rows(text, header, want):
    got = rows(text)
    return bool(got) and got[0] == tuple(header) and got[1:] == [tuple(str(x) for x in r) for r in want]


def share(want, got):
    want, got = set(want), set(got)
    n = max(len(want), len(got))
    return 1.0 if n == 0 else len(want & got) / n


def listing_rows(rows_):
    return [list(r) for r in rows_] if rows_ is not None else None


# ---- hidden: chunking -------------------------------------------------------------------------

def chunking():
    rnd = rnd_for("chunking")
    files, want = generate(cases.chunk_case, rnd)
    d = os.path.join(TMP, "chunks")
    put(d, files)
    names = sorted(files)
    res = batch("chunks", [tool("chunk", os.path.join(d, n)) for n in names])
    ok = [same_rows(out, ("offset", "length", "id"), want[n]) for n, (code, out, err) in zip(names, res["steps"])]
    return sum(ok) / len(ok), "files chunked exactly: %d/%d (%s)" % (sum(ok), len(ok), ", ".join(n for n, k in zip(names, ok) if not k))


# ---- hidden: backup ---------------------------------------------------------------------------

def read_repo(files):
    """The grader's reader over a copied repository (path -> bytes): manifests and effective chunks."""
    best = {}
    for path, blob in files.items():
        if path.startswith("index/") and path.endswith(".json"):
            doc = json.loads(blob)
            for e in doc["entries"]:
                if e["id"] not in best or best[e["id"]][0] < doc["seq"]:
                    best[e["id"]] = (doc["seq"], e)
    snaps = sorted((json.loads(b) for p, b in files.items() if p.startswith("snapshots/") and p.endswith(".json")),
                   key=lambda s: s["time"])

    def chunk(cid):
        if cid not in best:
            return None
        e = best[cid][1]
        blob = files.get("packs/%s.pack" % e["pack"], b"")
        return blob[e["offset"]:e["offset"] + e["length"]]
    return snaps, chunk


KEYS = ("path", "type", "mode", "mtime", "size", "chunks", "target")


def backup_plan(i):
    rnd = rnd_for("backup%d" % i)
    (t1, t2, times, offset), want = generate(cases.backup_case, rnd)
    d = os.path.join(TMP, "backup%d" % i)
    refsnap.materialize(t1, os.path.join(d, "v1"))
    refsnap.materialize(t2, os.path.join(d, "v2"))
    g.digest(json.dumps([times, want["restore"]]))
    repo = "/tmp/work/repo%d" % i
    steps = [tool("init", repo, "--utc-offset", offset),
             tool("backup", repo, os.path.join(d, "v1"), "--time", times[0]),
             tool("backup", repo, os.path.join(d, "v2"), "--time", times[1]),
             tool("restore", repo, "latest", "/tmp/work/out%d" % i)]
    return steps, want


def backup_score(i, res, want):
    files = {k: bytes.fromhex(v) for k, v in (res["trees"]["repo%d" % i] or {}).items()}
    notes = []
    try:
        snaps, chunk = read_repo(files)
        got = [{"id": s["id"], "time": s["time"], "parent": s["parent"],
                "entries": [{k: e.get(k) for k in KEYS} for e in s["entries"]]} for s in snaps]
        manifests = got == want["snaps"]
        if not manifests:
            notes.append("manifests differ")
        readable = all(chunk(c) == want["chunk_bytes"].get(c) for s in want["snaps"] for e in s["entries"] for c in e["chunks"])
        if not readable:
            notes.append("chunks not readable through the effective index")
    except (ValueError, KeyError, TypeError, AttributeError) as e:
        manifests = readable = False
        notes.append("unreadable repository: %s" % e)
    restored = listing_rows(res["trees"]["out%d" % i]) == [list(r) for r in want["restore"]]
    if not restored:
        notes.append("restore of latest differs")
    s = 0.5 * (manifests and readable) + 0.5 * restored
    return s, "backup%d: %.2f %s" % (i, s, "; ".join(notes) or "ok")


def backups():
    plans = [backup_plan(i) for i in range(2)]
    res = batch("backup", [st for steps, _ in plans for st in steps],
                lists={"out%d" % i: "/tmp/work/out%d" % i for i in range(2)},
                copies={"repo%d" % i: "/tmp/work/repo%d" % i for i in range(2)}, mkdirs=["/tmp/work"])
    scored = [backup_score(i, res, want) for i, (_, want) in enumerate(plans)]
    return sum(r[0] for r in scored) / len(scored), " | ".join(r[1] for r in scored)


# ---- hidden: restore --------------------------------------------------------------------------

def restores():
    steps, lists, wants = [], {}, []
    for i in range(3):
        rnd = rnd_for("restore%d" % i)
        w, want = generate(cases.restore_case, rnd)
        d = os.path.join(TMP, "restore%d" % i)
        put(d, w.files)
        for k, (ref, lst) in enumerate(want):
            name = "r%d-%d" % (i, k)
            steps.append(tool("restore", d, ref, "/tmp/out/" + name))
            lists[name] = "/tmp/out/" + name
            wants.append((name, lst))
    res = batch("restore", steps, lists=lists, mkdirs=["/tmp/out"])
    ok = [listing_rows(res["trees"][name]) == [list(r) for r in lst] for name, lst in wants]
    return sum(ok) / len(ok), "restores exact (3 repos x id, exact time, time between, latest): " + "".join("1" if x else "0" for x in ok)


# ---- hidden: diff and forget ------------------------------------------------------------------

def diff_forget():
    steps, wants = [], []
    for i in range(3):
        rnd = rnd_for("diffforget%d" % i)
        w, f, (a, b), diff_want, args, forget_want = generate(cases.diff_forget_case, rnd)
        d1, d2 = os.path.join(TMP, "diff%d" % i), os.path.join(TMP, "forget%d" % i)
        put(d1, w.files)
        put(d2, f.files)
        steps += [tool("diff", d1, a, b), tool("forget", d2, *(args + ["--dry-run"]))]
        wants += [(("change", "path"), diff_want), (("snapshot", "time", "action", "reasons"), forget_want)]
    res = batch("diffforget", steps)
    ok = [same_rows(step[1], head, want) for step, (head, want) in zip(res["steps"], wants)]
    return sum(ok) / len(ok), "diff/forget exact per case: " + " ".join("%s%s" % ("1" if a else "0", "1" if b else "0") for a, b in zip(ok[::2], ok[1::2]))


# ---- hidden: audit ----------------------------------------------------------------------------

def audits():
    steps, wants = [], []
    for i in range(3):
        rnd = rnd_for("audit%d" % i)
        w, want, planted = generate(cases.audit_case, rnd)
        d = os.path.join(TMP, "audit%d" % i)
        put(d, w.files)
        steps.append(tool("audit", d))
        wants.append((want, planted))
    res = batch("audit", steps)
    scores, msgs = [], []
    for i, (step, (want, planted)) in enumerate(zip(res["steps"], wants)):
        got = rows(step[1])
        ok_header = bool(got) and got[0] == ("code", "snapshot", "path", "object")
        body = got[1:] if ok_header else got
        s = share([tuple(r) for r in want], body)
        if s == 1.0 and body != [tuple(r) for r in want]:
            s = 0.9  # right findings, wrong order
        if not ok_header:
            s *= 0.5
        scores.append(s)
        msgs.append("repo%d (%s): %.3f" % (i, ",".join(sorted(set(planted))), s))
    return sum(scores) / len(scores), "; ".join(msgs)


# ---- public examples and shipped repositories -------------------------------------------------

def copy_in(src, tag):
    dst = os.path.join(TMP, "pub", tag)
    shutil.copytree(src, dst, symlinks=True)
    return dst


def examples():
    steps, lists, checks = [], {}, []
    for ex in ("example1", "example2"):
        d = copy_in(os.path.join(HERE, "examples", ex), ex)
        spec = json.load(open(os.path.join(d, "example.json")))
        exp = os.path.join(d, "expected")
        for n in sorted(os.listdir(os.path.join(d, "files"))):
            steps.append(tool("chunk", os.path.join(d, "files", n)))
            checks.append((ex, "csv", os.path.join(exp, "chunk-%s.csv" % n)))
        steps.append(tool("restore", os.path.join(d, "repo"), spec["restore"], "/tmp/out/" + ex))
        lists[ex] = "/tmp/out/" + ex
        checks.append((ex, "tree", os.path.join(exp, "restore.json")))
        steps += [tool("diff", os.path.join(d, "repo"), *spec["diff"]),
                  tool("forget", os.path.join(d, "repo"), *spec["forget"]),
                  tool("audit", os.path.join(d, "audit-repo"))]
        checks += [(ex, "csv", os.path.join(exp, n)) for n in ("diff.csv", "forget.csv", "audit.csv")]
    res = batch("public", steps, lists=lists, mkdirs=["/tmp/out"])
    wrong = []
    for step, (ex, kind, path) in zip(res["steps"], checks):
        if kind == "tree":
            ok = listing_rows(res["trees"][ex]) == json.load(open(path))
        else:
            ok = rows(step[1]) == rows(open(path).read())
        if not ok:
            wrong.append("%s/%s" % (ex, os.path.basename(path)))
    return float(not wrong), "examples: %s" % ("all exact" if not wrong else "wrong: " + ", ".join(wrong))


def shipped():
    root = copy_in(os.path.join(HERE, "shipped"), "shipped")
    spec = json.load(open(os.path.join(root, "expected.json")))
    res = batch("shipped", [tool("restore", os.path.join(root, "main"), spec["restore_at"], "/tmp/out/r"),
                            tool("diff", os.path.join(root, "main"), *spec["diff"]),
                            tool("forget", os.path.join(root, "main"), *spec["forget"], "--dry-run"),
                            tool("audit", os.path.join(root, "partner"))],
                lists={"r": "/tmp/out/r"}, mkdirs=["/tmp/out"])
    parts = [listing_rows(res["trees"]["r"]) == spec["restore"],
             rows(res["steps"][1][1]) == [tuple(r) for r in spec["diff_rows"]],
             rows(res["steps"][2][1]) == [tuple(r) for r in spec["forget_rows"]]]
    want = [tuple(r) for r in spec["audit_rows"]]
    got = rows(res["steps"][3][1])
    a = share(want[1:], got[1:]) if got[:1] == want[:1] else 0.0
    s = (sum(parts) + a) / 4
    return s, "restore %s, diff %s, forget %s, audit %.3f" % tuple(["ok" if p else "WRONG" for p in parts] + [a])


g.check("public_examples", examples)
g.check("hidden_chunking", chunking)
g.check("hidden_backup", backups)
g.check("hidden_restore", restores)
g.check("hidden_diff_forget", diff_forget)
g.check("hidden_audit", audits)
g.check("shipped_repos", shipped)
shutil.rmtree(TMP, ignore_errors=True)
g.finish()
