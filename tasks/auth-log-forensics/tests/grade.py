"""Grades /app/irkit.py (sessions, timeline, alerts) on the public hosts and on seeded hidden hosts
whose answers come from the generator's plan (gen.py), never from parsing the logs."""
import csv
import os
import random
import shutil
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from lh import SEED, WORK, Grader, generate, run  # noqa: E402
import gen  # noqa: E402

g = Grader()
TMP = tempfile.mkdtemp(prefix="hidden-")
TOOL = os.path.join(WORK, "irkit.py")
# The grader's own copy of the public cases: /app/examples is the agent's to edit.
PUB = os.path.join(HERE, "examples")
COMMANDS = ("sessions", "timeline", "alerts")
SESSION_COLS = ("user", "source", "port", "method", "start", "end", "close_line")
ROW_COLS = {"timeline": ("event", "time", "user", "source", "line"), "alerts": ("alert", "time", "user", "source", "line")}


def rows(path):
    try:
        with open(path, newline="", encoding="utf-8") as f:
            return list(csv.DictReader(f))
    except Exception:
        return None


def cell(r, k):
    return (r.get(k) or "").strip()


def read(command, path):
    got = rows(path) or []
    if command == "sessions":
        return {cell(r, "login_line"): tuple(cell(r, k) for k in SESSION_COLS) for r in got}
    return {tuple(cell(r, k) for k in ROW_COLS[command]) for r in got}


def share(want, got):
    """Share of expected rows reproduced exactly; extra rows count against it."""
    if isinstance(want, set):
        ok = len(want & got)
    else:
        ok = sum(1 for k, v in want.items() if got.get(k) == v)
    n = max(len(want), len(got))
    return 1.0 if n == 0 else ok / n


def case_score(want, got):
    """A host whose rows are all right scores 1; otherwise half the share of right rows."""
    s = share(want, got)
    return (1.0 if s == 1.0 else 0.5 * s), s


def execute(command, host, out):
    code, _, err = run(["python3", TOOL, command, host, out], timeout=30)
    return code, err.strip()[-160:]


def write_case(tag, built):
    files, want = built
    d = os.path.join(TMP, tag)
    for name, data in sorted(files.items()):
        p = os.path.join(d, name)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "wb") as f:
            f.write(data)
        g.digest(tag.encode() + name.encode() + data)
    return d, want


def prepare(kind, n):
    """Every hidden host of a kind with its answers, built before any submitted program runs."""
    rng = random.Random("%d#%s" % (SEED, kind))
    return [("%s%d" % (kind, i),) + write_case("%s%d" % (kind, i), generate(gen.build, rng, kind)) for i in range(n)]


def outputs(cases, command):
    """Runs one command on every host of a list once; returns {tag: (rows, note)}."""
    res = {}
    for tag, d, _ in cases:
        out = d + "-" + command + ".csv"
        code, err = execute(command, d, out)
        res[tag] = (read(command, out), ("exit %s %s" % (code, err)) if code else "")
    return res


def hidden(cases, command, pick=None):
    def fn():
        if pick is None:
            got = outputs(cases, command)
        else:
            if command not in RUNS:
                RUNS[command] = outputs(cases, command)
            got = RUNS[command]
        scores, notes = [], []
        for tag, _, want in cases:
            w = want[command]
            rows_got, note = got[tag]
            if pick is not None:
                w = {r for r in w if r[0] == pick}
                rows_got = {r for r in rows_got if r[0] == pick}
            sc, s = case_score(w, rows_got)
            scores.append(sc)
            notes.append("%s: %d rows, share %.3f%s" % (tag, len(w), s, (" " + note) if note else ""))
        return sum(scores) / len(scores), "; ".join(notes)
    return fn


def public():
    ok, notes = [], []
    for ex in sorted(os.listdir(PUB)):
        host = os.path.join(TMP, "public", ex)
        shutil.copytree(os.path.join(PUB, ex, "host"), host, symlinks=True)
        for command in COMMANDS:
            out = os.path.join(TMP, "public-%s-%s.csv" % (ex, command))
            code, err = execute(command, host, out)
            want = read(command, os.path.join(PUB, ex, "expected", command + ".csv"))
            good = code == 0 and share(want, read(command, out)) == 1.0
            ok.append(good)
            if not good:
                notes.append("%s %s: exit %s %s" % (ex, command, code, err))
    return float(all(ok)), "%d of %d outputs right%s" % (sum(ok), len(ok), ("; " + "; ".join(notes)) if notes else "")


RUNS = {}
CASES = {k: prepare(k, 3) for k in ("formats", "edges", "timeline", "alerts")}
g.check("public_examples", public)
g.check("hidden_sessions", hidden(CASES["formats"], "sessions"))
g.check("hidden_session_edges", hidden(CASES["edges"], "sessions"))
g.check("hidden_timeline", hidden(CASES["timeline"], "timeline"))
g.check("hidden_bruteforce", hidden(CASES["alerts"], "alerts", "bruteforce"))
g.check("hidden_travel", hidden(CASES["alerts"], "alerts", "impossible_travel"))
g.check("hidden_offhours", hidden(CASES["alerts"], "alerts", "offhours_root"))
shutil.rmtree(TMP, ignore_errors=True)
g.finish()
