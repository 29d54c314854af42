"""A pay run: register, lines and year-to-date files (policy §8)."""
import csv
import os

from .deductions import net_pay, pension, withholding, ytd_of
from .earnings import earnings
from .money import D, ZERO, fmt
from .periods import Period, is_paid

COLUMNS = ["employee_id", "regular_hours", "overtime_hours", "night_hours", "gross", "pension", "health",
           "taxable", "withholding", "post_tax", "carry_in", "net", "carry_out"]


def pay_employee(emp, period):
    lines, hours = earnings(emp, period)
    gross = sum((l[2] for l in lines), ZERO)
    retro = sum((l[2] for l in lines if l[0] == "RETRO"), ZERO)
    ytd = ytd_of(emp, period)
    pen = pension(emp, period, gross, ytd)
    health = D(emp["health"])
    taxable = gross - pen - health
    tax = withholding(period, taxable, retro)
    post_tax = D(emp["post_tax"])
    carry_in = ytd["carry_forward"]
    net, carry_out = net_pay(taxable, tax, post_tax, carry_in)
    row = {"employee_id": emp["employee_id"], "regular_hours": hours["regular"],
           "overtime_hours": hours["overtime"], "night_hours": hours["night"], "gross": gross,
           "pension": pen, "health": health, "taxable": taxable, "withholding": tax,
           "post_tax": post_tax, "carry_in": carry_in, "net": net, "carry_out": carry_out}
    new_ytd = {"employee_id": emp["employee_id"], "year": str(period.pay_date.year),
               "gross": ytd["gross"] + gross, "pension": ytd["pension"] + pen,
               "withholding": ytd["withholding"] + tax, "carry_forward": carry_out}
    return row, lines, new_ytd


def compute(folder):
    period = Period(folder)
    out = []
    for emp in sorted(period.employees, key=lambda e: e["employee_id"]):
        if is_paid(emp, period):
            out.append((emp,) + pay_employee(emp, period))
    return period, out


def _write(path, header, rows):
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(header)
        for r in rows:
            w.writerow([r[h] if isinstance(r[h], str) else fmt(r[h]) for h in header])


def run(folder, out_dir):
    _, paid = compute(folder)
    os.makedirs(out_dir, exist_ok=True)
    _write(os.path.join(out_dir, "register.csv"), COLUMNS, [p[1] for p in paid])
    lines = [{"employee_id": p[0]["employee_id"], "code": c, "hours": h, "amount": a} for p in paid for c, h, a in p[2]]
    _write(os.path.join(out_dir, "lines.csv"), ["employee_id", "code", "hours", "amount"], lines)
    _write(os.path.join(out_dir, "ytd.csv"), ["employee_id", "year", "gross", "pension", "withholding", "carry_forward"],
           [p[3] for p in paid])
