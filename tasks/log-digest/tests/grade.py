"""Grades the repaired /app/logdigest.py: the digest on the public examples and on seeded hidden
bundles whose answers are counted from the planted records (gen.py), `audit` on claims with planted
errors, and the shipped fleet bundle against its answers in tests/shipped."""
import csv
import json
import os
import random
import shutil
import sys
import tempfile

sys.path.insert(0, "/tests")
from lh import SEED, WORK, Grader, generate, run  # noqa: E402
import gen  # noqa: E402

g = Grader()
TMP = tempfile.mkdtemp(prefix="hidden-")
TOOL = os.path.join(WORK, "logdigest.py")
# The grader's own copies of the examples and of the shipped bundle: /app is the agent's to edit.
HERE = os.path.dirname(os.path.abspath(__file__))
TOTAL_KEYS = ("total_requests", "bot_requests", "malformed_lines", "duplicate_files")
ROW_KEYS = ("count", "errors", "error_rate", "p50_ms", "p95_ms", "bytes")


def close(a, b):
    if isinstance(a, bool) or isinstance(b, bool) or not isinstance(a, (int, float)) or not isinstance(b, (int, float)):
        return False
    return abs(a - b) < 1e-6


def score_digest(want, got):
    """0.25 for the totals and the row order, 0.75 for the share of endpoint rows exactly right."""
    if not isinstance(got, dict):
        return 0.0
    rows = [e for e in got.get("endpoints") or [] if isinstance(e, dict)]
    mine = {(e["method"], e["route"]): e for e in want["endpoints"]}
    theirs = {(e.get("method"), e.get("route")): e for e in rows}
    good = sum(1 for k, e in mine.items() if k in theirs and all(close(theirs[k].get(f), e[f]) for f in ROW_KEYS))
    share = good / max(len(mine), len(theirs), 1)
    order = [(e.get("method"), e.get("route")) for e in rows] == [(e["method"], e["route"]) for e in want["endpoints"]]
    totals = all(close(got.get(k), want[k]) for k in TOTAL_KEYS) and order
    return 0.25 * totals + 0.75 * share


def cell(text):
    t = (text or "").strip()
    try:
        return "%.6f" % float(t)
    except ValueError:
        return t


def read_audit(path):
    try:
        with open(path, newline="", encoding="utf-8") as f:
            return {tuple(cell(r.get(c)) for c in ("method", "route", "reason", "field", "claimed", "actual"))
                    for r in csv.DictReader(f)}
    except Exception:
        return set()


def planted(found):
    return {tuple(cell("" if v == "" else str(v)) for v in row) for row in found}


def share(want, got):
    n = max(len(want), len(got))
    return 1.0 if n == 0 else len(want & got) / n


def write_bundle(d, files):
    for name, data in sorted(files.items()):
        path = os.path.join(d, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(data)
        g.digest(name.encode() + data)


def digest_case(tag, d, args, want):
    out = os.path.join(TMP, tag + "-out.json")
    code, _, err = run(["python3", TOOL, d, "-o", out] + args, timeout=30)
    try:
        with open(out, encoding="utf-8") as f:
            got = json.load(f)
    except Exception:
        got = None
    s = score_digest(want, got)
    return s, "%s: %.3f%s" % (tag, s, (" exit %s %s" % (code, err.strip()[-120:])) if code else "")


def audit_case(tag, d, claims, args, want):
    out = os.path.join(TMP, tag + "-audit.csv")
    code, _, err = run(["python3", TOOL, "audit", d, claims, "-o", out] + args, timeout=30)
    s = share(want, read_audit(out))
    return s, "%s audit: %.3f%s" % (tag, s, (" exit %s %s" % (code, err.strip()[-120:])) if code else "")


def prepare(kind, n):
    """Every hidden bundle of a kind with its answers, written before any submitted program runs."""
    try:
        rng = random.Random("%d@%s" % (SEED, kind))
        out = []
        for i in range(n):
            tag = "%s%d" % (kind, i)
            files, args, want, claims, found = generate(gen.build, rng, kind)
            d = os.path.join(TMP, tag)
            write_bundle(os.path.join(d, "in"), files)
            cpath = os.path.join(d, "claims.json")
            with open(cpath, "wb") as f:
                f.write(claims)
            g.digest(claims + json.dumps(args).encode())
            out.append((tag, os.path.join(d, "in"), args, want, cpath, planted(found)))
        return out
    except Exception as e:  # reported by that kind's check, the other checks still run
        return e


def hidden(kind):
    def fn():
        cases = CASES[kind]
        if isinstance(cases, Exception):
            raise cases
        if kind == "audit":
            res = [audit_case(tag, d, cpath, args, found) for tag, d, args, _, cpath, found in cases]
        else:
            res = [digest_case(tag, d, args, want) for tag, d, args, want, _, _ in cases]
        return sum(r[0] for r in res) / len(res), "; ".join(r[1] for r in res)
    return fn


def stage(src, tag):
    dst = os.path.join(TMP, "public", tag)
    shutil.copytree(src, dst, symlinks=True)
    return dst


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def answers(src):
    with open(os.path.join(src, "expected-audit.csv"), newline="", encoding="utf-8") as f:
        rows = {tuple(cell(r.get(c)) for c in ("method", "route", "reason", "field", "claimed", "actual"))
                for r in csv.DictReader(f)}
    return load(os.path.join(src, "expected.json")), rows


def public():
    ok = []
    for ex in ("example1", "example2"):
        src = os.path.join(HERE, "examples", ex)
        d = stage(src, ex)
        want, rows = answers(src)
        args = load(os.path.join(src, "args.json"))
        s, _ = digest_case(ex, os.path.join(d, "input"), args, want)
        a, _ = audit_case(ex, os.path.join(d, "input"), os.path.join(d, "claims.json"), args, rows)
        ok.append(s == 1.0 and a == 1.0)
    return float(all(ok)), "examples right: %s" % ok


def shipped():
    """The fleet bundle's digest (60%) and the audit of the other team's claims (40%)."""
    src = os.path.join(HERE, "shipped")
    d = stage(src, "fleet")
    want, rows = answers(src)
    args = load(os.path.join(src, "args.json"))
    s, m1 = digest_case("fleet-2026-11", os.path.join(d, "fleet-2026-11"), args, want)
    a, m2 = audit_case("fleet-2026-11", os.path.join(d, "fleet-2026-11"), os.path.join(d, "claims.json"), args, rows)
    return 0.6 * s + 0.4 * a, m1 + "; " + m2


CASES = {k: prepare(k, n) for k, n in (("sources", 3), ("parsing", 3), ("window", 3), ("audit", 2))}
g.check("public_examples", public)
g.check("hidden_sources", hidden("sources"))
g.check("hidden_parsing", hidden("parsing"))
g.check("hidden_window", hidden("window"))
g.check("hidden_audit", hidden("audit"))
g.check("shipped_fleet", shipped)
shutil.rmtree(TMP, ignore_errors=True)
g.finish()
