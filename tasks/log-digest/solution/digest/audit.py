"""Audit of another team's digest claims (docs/DIGEST.md §8)."""
import csv
import json

from .report import FIELDS, TOTALS, build

REASON = {"count": "COUNT_MISMATCH", "errors": "ERROR_MISMATCH", "error_rate": "ERROR_MISMATCH",
          "p50_ms": "LATENCY_MISMATCH", "p95_ms": "LATENCY_MISMATCH", "bytes": "BYTES_MISMATCH"}
HEADER = ["method", "route", "reason", "field", "claimed", "actual"]


def same(a, b):
    if isinstance(a, bool) or isinstance(b, bool):
        return a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return abs(a - b) < 1e-9
    return a == b


def cell(v):
    if v is None:
        return ""
    if isinstance(v, float) and v == int(v):
        return str(int(v))
    return str(v)


def findings(truth, claims):
    rows = []
    for k in TOTALS:
        if not same(claims.get(k), truth[k]):
            rows.append(["*", "*", "TOTALS_MISMATCH", k, cell(claims.get(k)), cell(truth[k])])
            break
    mine = {(e["method"], e["route"]): e for e in truth["endpoints"]}
    theirs = {}
    for e in claims.get("endpoints") or []:
        if isinstance(e, dict):
            theirs[(e.get("method"), e.get("route"))] = e
    for key in set(mine) | set(theirs):
        t, c = mine.get(key), theirs.get(key)
        if c is None:
            rows.append([key[0], key[1], "MISSING_ENDPOINT", "count", "", cell(t["count"])])
        elif t is None:
            rows.append([key[0], key[1], "PHANTOM_ENDPOINT", "count", cell(c.get("count")), ""])
        else:
            for f in FIELDS:
                if not same(c.get(f), t[f]):
                    rows.append([key[0], key[1], REASON[f], f, cell(c.get(f)), cell(t[f])])
                    break
    rows.sort(key=lambda r: (r[1], r[0]))
    return rows


def audit(input_dir, claims_path, out_path, since=None, until=None):
    truth = build(input_dir, since, until)
    with open(claims_path, encoding="utf-8") as f:
        claims = json.load(f)
    rows = findings(truth, claims)
    with open(out_path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(HEADER)
        w.writerows(rows)
    return rows
