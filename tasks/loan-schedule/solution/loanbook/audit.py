"""Audit of a servicer's statements against the contracts (SERVICING.md §6)."""
import csv
import os

from .amendments import terms
from .money import fmt, parse_loose
from .schedule import build

# Columns compared, in this order; the first that differs names the finding.
CHECKED = (("date", "WRONG_DATE"), ("interest", "WRONG_INTEREST"), ("principal", "WRONG_PRINCIPAL"),
           ("extra", "WRONG_EXTRA"), ("payment", "WRONG_PAYMENT"), ("balance", "WRONG_BALANCE"))
HEADER = ["contract", "k", "reason", "field", "reported", "corrected"]


def _same(field, reported, right):
    if field == "date":
        return reported.strip() == right
    value = parse_loose(reported)
    return value is not None and value == right


def _shown(field, reported):
    value = parse_loose(reported) if field != "date" else None
    return fmt(value) if value is not None else reported.strip()


def findings(contracts_dir, statements_csv):
    stmts = {}
    with open(statements_csv, newline="", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            row = {(a or "").strip(): (b or "").strip() for a, b in row.items()}
            by_k = stmts.setdefault(row["contract"], {})
            by_k.setdefault(int(row["k"]), row)
    out = []
    for stem in sorted(stmts):
        path = os.path.join(contracts_dir, stem + ".txt")
        if not os.path.isfile(path):
            out.append([stem, "", "UNKNOWN_CONTRACT", "", "", ""])
            continue
        with open(path, encoding="utf-8") as f:
            right = {r["k"]: r for r in build(terms(f.read()))}
        got = stmts[stem]
        for k in sorted(set(right) | set(got)):
            if k not in got:
                out.append([stem, k, "MISSING_INSTALMENT", "", "", fmt(right[k]["payment"])])
            elif k not in right:
                out.append([stem, k, "EXTRA_INSTALMENT", "", _shown("payment", got[k].get("payment", "")), ""])
            else:
                for field, reason in CHECKED:
                    reported = got[k].get(field, "")
                    want = right[k][field]
                    if not _same(field, reported, want):
                        out.append([stem, k, reason, field, _shown(field, reported),
                                    want if field == "date" else fmt(want)])
                        break
    return out


def audit(contracts_dir, statements_csv, out_csv):
    rows = findings(contracts_dir, statements_csv)
    os.makedirs(os.path.dirname(os.path.abspath(out_csv)), exist_ok=True)
    with open(out_csv, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(HEADER)
        w.writerows(rows)
