"""Grades /app/leasekit.py on the public portfolios and on seeded hidden portfolios whose answers
come from the generator's plan (gen.py): terms planted first, documents rendered after."""
import csv
import json
import os
import random
import shutil
import sys
import tempfile

sys.path.insert(0, "/tests")
from lh import SEED, WORK, Grader, generate, run
import gen

g = Grader()
TMP = tempfile.mkdtemp(prefix="hidden-")
TOOL = os.path.join(WORK, "leasekit.py")
# The grader's own copy of the public cases: /app/examples is the agent's to edit.
PUB = os.path.join(os.path.dirname(os.path.abspath(__file__)), "examples")
FIELDS = ("landlord", "tenant", "premises", "area_sqft", "commencement", "expiry", "rent_schedule", "renewal",
          "breaks", "documents")


def csv_rows(path, cols):
    try:
        with open(path, newline="", encoding="utf-8") as f:
            return [tuple((r.get(c) or "").strip() for c in cols) for r in csv.DictReader(f)]
    except Exception:
        return None


def load_json(path):
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
        return data if isinstance(data, list) else None
    except Exception:
        return None


def share_rows(want, got):
    """Expected rows reproduced (as a multiset) over max(expected, produced); extra rows count against."""
    if got is None:
        return 0.0
    pool = list(got)
    hit = 0
    for w in want:
        if w in pool:
            pool.remove(w)
            hit += 1
    n = max(len(want), len(got))
    return 1.0 if n == 0 else hit / n


def share_abstract(want, got):
    """Per lease, the share of the ten fields right; leases missing or extra count as 0."""
    if got is None:
        return 0.0
    by_id = {}
    for r in got:
        if isinstance(r, dict) and isinstance(r.get("lease_id"), str):
            by_id.setdefault(r["lease_id"], r)
    total = 0.0
    for w in want:
        r = by_id.get(w["lease_id"])
        if r is not None:
            total += sum(1 for f in FIELDS if r.get(f) == w[f]) / len(FIELDS)
    return total / max(len(want), len(by_id))


def execute(args, timeout=30):
    code, _, err = run(["python3", TOOL] + list(args), timeout=timeout)
    return code, err.strip()[-160:]


def write_portfolio(tag, files):
    d = os.path.join(TMP, tag)
    os.makedirs(d)
    for name, data in sorted(files.items()):
        with open(os.path.join(d, name), "wb") as f:
            f.write(data)
        g.digest(name.encode() + data)
    return d


def prepare(kind, n):
    """Every hidden portfolio of a kind, with its planned answers, built before any program runs."""
    try:
        rng = random.Random("%d#%s" % (SEED, kind))
        out = []
        for i in range(n):
            files, want = generate(gen.build, rng, kind)
            out.append(("%s%d" % (kind, i), write_portfolio("%s%d" % (kind, i), files), want))
        return out
    except Exception as e:  # reported by that kind's check; the other checks still run
        return e


def one(command, tag, d, want):
    out = os.path.join(TMP, "%s-%s.out" % (tag, command))
    if command == "abstract":
        code, err = execute(["abstract", d, out])
        s = share_abstract(want["abstract"], load_json(out))
    elif command == "rentroll":
        code, err = execute(["rentroll", d, want["quarters"][0], want["quarters"][1], out])
        s = share_rows(sorted((k[0], k[1], v) for k, v in want["rentroll"].items()),
                       csv_rows(out, ("lease_id", "quarter", "rent")))
    elif command == "dates":
        code, err = execute(["dates", d, want["window"][0], want["window"][1], out])
        s = share_rows(want["dates"], csv_rows(out, ("date", "lease_id", "event")))
    else:
        code, err = execute(["issues", d, out])
        s = share_rows(want["issues"], csv_rows(out, ("document", "lease_id", "code")))
    msg = "%s %s: %.3f" % (tag, command, s)
    if code:
        msg += " (exit %s %s)" % (code, err)
    return s, msg


def hidden(kind, commands):
    def fn():
        cases = CASES[kind]
        if isinstance(cases, Exception):
            raise cases
        res = [one(c, *case) for case in cases for c in commands]
        return sum(r[0] for r in res) / len(res), "; ".join(r[1] for r in res)
    return fn


def public():
    ok, notes = 0, []
    n = 0
    for ex in ("example1", "example2"):
        src = os.path.join(PUB, ex)
        d = os.path.join(TMP, "public", ex)
        shutil.copytree(os.path.join(src, "portfolio"), d)
        with open(os.path.join(src, "args.json")) as f:
            args = json.load(f)
        exp = os.path.join(src, "expected")
        with open(os.path.join(exp, "abstract.json")) as f:
            want = {"abstract": json.load(f), "quarters": args["quarters"], "window": args["window"]}
        want["rentroll"] = {(a, b): c for a, b, c in csv_rows(os.path.join(exp, "rentroll.csv"), ("lease_id", "quarter", "rent"))}
        want["dates"] = csv_rows(os.path.join(exp, "dates.csv"), ("date", "lease_id", "event"))
        want["issues"] = csv_rows(os.path.join(exp, "issues.csv"), ("document", "lease_id", "code"))
        for command in ("abstract", "rentroll", "dates", "issues"):
            s, msg = one(command, "public-" + ex, d, want)
            n += 1
            if s == 1.0:
                ok += 1
            else:
                notes.append(msg)
    return float(ok == n), "%d of %d outputs right%s" % (ok, n, ("; " + "; ".join(notes)) if notes else "")


KINDS = (("plain", 2), ("amend", 2), ("rentroll", 2), ("dates", 2), ("issues", 2))
CASES = {k: prepare(k, n) for k, n in KINDS}
g.check("public_examples", public)
g.check("hidden_abstract_styles", hidden("plain", ("abstract",)))
g.check("hidden_amendments", hidden("amend", ("abstract",)))
g.check("hidden_rent_roll", hidden("rentroll", ("rentroll",)))
g.check("hidden_critical_dates", hidden("dates", ("dates",)))
g.check("hidden_issues", hidden("issues", ("issues",)))
shutil.rmtree(TMP, ignore_errors=True)
g.finish()
