"""Audit of a register produced elsewhere (policy §9)."""
import csv
from decimal import Decimal, InvalidOperation

from .money import fmt
from .periods import read_csv
from .register import COLUMNS, compute

REASONS = {"regular_hours": "OVERTIME", "overtime_hours": "OVERTIME", "night_hours": "NIGHT",
           "pension": "CAP", "health": "DEDUCTION", "taxable": "DEDUCTION", "post_tax": "DEDUCTION",
           "carry_in": "DEDUCTION", "withholding": "BRACKET", "net": "CARRY", "carry_out": "CARRY"}


def _num(text):
    try:
        return Decimal((text or "").strip())
    except InvalidOperation:
        return None


def reason_for(field, emp):
    if field == "gross":
        return "PRORATION" if emp["pay_type"] == "salaried" else "ROUNDING"
    return REASONS[field]


def audit(folder, register_path, out_path):
    _, paid = compute(folder)
    reported = {r["employee_id"]: r for r in read_csv(register_path)}
    findings = []
    for emp, row, _, _ in paid:
        theirs = reported.get(emp["employee_id"])
        if theirs is None:
            continue
        for col in COLUMNS[1:]:
            got = _num(theirs.get(col))
            if got is None or got != row[col]:
                findings.append([emp["employee_id"], reason_for(col, emp), col,
                                 fmt(got) if got is not None else theirs.get(col, ""), fmt(row[col])])
                break
    with open(out_path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["employee_id", "reason", "field", "reported", "corrected"])
        w.writerows(findings)
