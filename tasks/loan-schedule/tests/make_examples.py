"""Renders the public examples (environment/examples, tests/examples) and the shipped portfolio
(environment/app/portfolio, tests/shipped) from gen.py with fixed seeds; expected schedules come
from amortise.py, expected audits from the planted errors. Never run at grading time."""
import json
import os
import random
import shutil
import sys
from datetime import date
from decimal import Decimal

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gen  # noqa: E402

TASK = os.path.dirname(HERE)
D = Decimal


def T(cur, principal, rate, n, first, io=0, balloon="0.00", changes=None, extras=None):
    return dict(cur=cur, principal=D(principal), rate=D(rate), rate_s=rate, n=n, first=first, io=io, balloon=D(balloon),
                changes={k: D(v) for k, v in (changes or {}).items()}, extras={k: D(v) for k, v in (extras or {}).items()})


# Each example contract: (terms, render kind, amendment schedule?, rng seed of its text)
EXAMPLES = {
    "example1": [
        (T("GBP", "441320.00", "8.48", 24, date(2027, 1, 31)), "plain", False),
        (T("EUR", "185000.00", "5.15", 60, date(2026, 3, 15), io=6, balloon="37000.00",
           extras={10: "5000.00", 20: "2500.00", 21: "1000.00"}), "prepay_balloon", False),
        (T("USD", "96550.00", "3.90", 48, date(2026, 11, 30), extras={30: "40000.00"}), "prepay_balloon", False),
    ],
    "example2": [
        (T("EUR", "62220.00", "5.04", 180, date(2027, 3, 29)), "phrasing", True),
        (T("CHF", "240000.00", "4.35", 120, date(2025, 8, 31)), "years", False),
        (T("USD", "310000.00", "6.20", 84, date(2026, 5, 5), io=6, changes={4: "6.70", 25: "5.95", 61: "4.80"}),
         "rate_change", False),
    ],
}


def years_text(rng, t):
    """A phrasing contract whose term is written in years and whose principal has no separators."""
    for _ in range(500):
        text = gen.render(rng, t, "phrasing", amend=False)
        if "over a term of %d years" % (t["n"] // 12) in text:
            return text
    raise SystemExit("no years phrasing found")


def write(folder, files):
    for name, data in sorted(files.items()):
        path = os.path.join(folder, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(data)


def expected_files(stems_rows):
    files, summary = {}, {}
    for stem, (t, rows) in sorted(stems_rows.items()):
        money = gen.as_money(rows)
        files[stem + ".csv"] = gen.table(["k", "date"] + list(gen.MONEY),
                                         [[r["k"], r["date"]] + [str(r[c]) for c in gen.MONEY] for r in money])
        summary[stem] = dict(currency=t["cur"], n_payments=len(rows),
                             total_interest=gen.c2s(sum(r["interest"] for r in rows)),
                             total_paid=gen.c2s(sum(r["payment"] + r["extra"] for r in rows)))
    files["summary.json"] = (json.dumps(summary, indent=1) + "\n").encode()
    return files


def audit_table(found):
    return gen.table(["contract", "k", "reason", "field", "reported", "corrected"],
                     sorted(found, key=lambda f: (f[0], str(f[1]).zfill(4), f[2])))


def example(name, spec):
    rng = random.Random("example-" + name)
    contracts, stems_rows, stmts, found = {}, {}, [], set()
    plans = {"example1": [["WRONG_INTEREST"], ["WRONG_EXTRA", "MISSING_INSTALMENT"], ["EXTRA_INSTALMENT", "WRONG_DATE"]],
             "example2": [["WRONG_PRINCIPAL", "WRONG_BALANCE"], [], ["WRONG_PAYMENT", "WRONG_PRINCIPAL"]]}[name]
    for i, (t, kind, amend) in enumerate(spec):
        stem = "contract_%02d" % (i + 1)
        rows = gen.consistent(t)
        assert rows and not gen.near_tie(t, rows), (name, stem)
        text = years_text(rng, t) if kind == "years" else gen.render(rng, t, kind, amend=amend)
        contracts[stem + ".txt"] = text.encode()
        stems_rows[stem] = (t, rows)
        srows, f = plant_fixed(rng, stem, rows, t["first"], plans[i])
        stmts += srows
        found |= set(f)
    t, rows = gen.contract(rng, "plain")
    stmts += gen.plant(rng, "contract_07", rows[:3], t["first"], 0)[0]
    found.add(("contract_07", "", "UNKNOWN_CONTRACT", "", "", ""))
    return contracts, stems_rows, gen.table(gen.STATEMENT_COLS, stmts), found


def plant_fixed(rng, stem, rows, first, kinds):
    """gen.plant with the error kinds given (the examples show each reason at least once)."""
    saved = gen.ERRORS
    try:
        gen.ERRORS = list(kinds)
        return gen.plant(rng, stem, rows, first, len(kinds))
    finally:
        gen.ERRORS = saved


def main():
    for where in ("environment/examples", "tests/examples", "environment/app/portfolio", "tests/shipped"):
        shutil.rmtree(os.path.join(TASK, where), ignore_errors=True)
    for name, spec in EXAMPLES.items():
        contracts, stems_rows, stmts, found = example(name, spec)
        for root in ("environment/examples", "tests/examples"):
            base = os.path.join(TASK, root, name)
            write(os.path.join(base, "contracts"), contracts)
            write(base, {"statements.csv": stmts})
            write(os.path.join(base, "expected"), dict(expected_files(stems_rows), **{"audit.csv": audit_table(found)}))
    # the portfolio to book, with the servicer's statements of it to audit
    rng = random.Random("shipped-portfolio")
    files, found, stems_rows = portfolio(rng)
    write(os.path.join(TASK, "environment/app/portfolio"), files)
    write(os.path.join(TASK, "tests/shipped"), files)
    write(os.path.join(TASK, "tests/shipped/expected"), dict(expected_files(stems_rows), **{"audit.csv": audit_table(found)}))


def portfolio(rng):
    files, stmts, found, stems_rows = {}, [], set(), {}
    kinds = ["plain", "phrasing", "phrasing", "rate_change", "rate_change", "prepay_balloon", "prepay_balloon", "prepay_balloon"]
    for i, kind in enumerate(kinds):
        t, rows = gen.contract(rng, kind)
        stem = "LN-%04d" % (3100 + 7 * i)
        # the third contract: a phrasing one whose term is written in years (no amendment schedule)
        text = years_text(rng, t) if i == 2 else gen.render(rng, t, kind)
        files["contracts/" + stem + ".txt"] = text.encode()
        stems_rows[stem] = (t, rows)
        srows, f = gen.plant(rng, stem, rows, t["first"], [1, 2, 0, 3, 1, 2, 1, 2][i])
        stmts += srows
        found |= set(f)
    t, rows = gen.contract(rng, "plain")
    stmts += gen.plant(rng, "LN-3999", rows[:5], t["first"], 0)[0]
    found.add(("LN-3999", "", "UNKNOWN_CONTRACT", "", "", ""))
    files["statements.csv"] = gen.table(gen.STATEMENT_COLS, stmts)
    return files, found, stems_rows


if __name__ == "__main__":
    main()
