"""The grader's own payroll reference, written from POLICY.md alone: exact fractions, shifts walked
minute by minute, tax from a cumulative bracket table. `flaws` switches on the vendor errors that
the audit cases plant (each one a named departure from the policy)."""
from datetime import date, timedelta
from fractions import Fraction as F

ORDER = ["regular_hours", "overtime_hours", "night_hours", "gross", "pension", "health", "taxable",
         "withholding", "post_tax", "carry_in", "net", "carry_out"]
CAUSE = {"regular_hours": "OVERTIME", "overtime_hours": "OVERTIME", "night_hours": "NIGHT",
         "pension": "CAP", "health": "DEDUCTION", "taxable": "DEDUCTION", "post_tax": "DEDUCTION",
         "carry_in": "DEDUCTION", "withholding": "BRACKET", "net": "CARRY", "carry_out": "CARRY"}


def q(text):
    text = (text or "").strip()
    return F(text) if text else F(0)


def half_up(x):
    """Nearest cent, ties away from zero (amounts here are never negative when rounded)."""
    x = F(x)
    sign = -1 if x < 0 else 1
    n = abs(x) * 100
    whole = n.numerator // n.denominator
    if n - whole >= F(1, 2):
        whole += 1
    return F(sign * whole, 100)


def two(x):
    x = half_up(x)
    sign = "-" if x < 0 else ""
    c = abs(x) * 100
    c = c.numerator // c.denominator
    return "%s%d.%02d" % (sign, c // 100, c % 100)


def d(text):
    return date.fromisoformat(text.strip()) if text and text.strip() else None


def clock(text):
    hh, mm = text.strip().split(":")
    return 60 * int(hh) + int(mm)


def walk(start, end, brk, same_day_night=False):
    """(worked minutes, night minutes) of one shift, minute by minute."""
    a, b = clock(start), clock(end)
    if b <= a:
        b += 24 * 60
    night = 0
    for m in range(a, b):
        t = m if same_day_night else m % 1440
        if t < 360 or 1320 <= t < 1440:
            night += 1
    day = (b - a) - night
    night -= max(0, brk - day)
    return (b - a) - brk, max(0, night)


class Ref:
    def __init__(self, period, company, employees, sheets, ytd, retro):
        self.p, self.c = period, company
        self.start, self.end, self.pay_day = d(period["period_start"]), d(period["period_end"]), d(period["pay_date"])
        self.n = int(period.get("periods_per_year", 26))
        self.hol = {d(h) for h in company.get("holidays", [])}
        self.emps = sorted(employees, key=lambda e: e["employee_id"])
        self.sheets, self.ytd, self.retro = sheets, {r["employee_id"]: r for r in ytd}, retro

    def span(self, e):
        lo = max(d(e["hire_date"]) or self.start, self.start)
        hi = min(d(e["term_date"]) or self.end, self.end)
        return lo, hi

    def workdays(self, lo, hi):
        k, day = 0, lo
        while day <= hi:
            if day.weekday() < 5 and day not in self.hol:
                k += 1
            day += timedelta(days=1)
        return k

    def hours(self, e, flaws):
        lo, hi = self.span(e)
        daily = {}
        night = 0
        for r in self.sheets:
            if r["employee_id"] != e["employee_id"]:
                continue
            day = d(r["date"])
            if not lo <= day <= hi:
                continue
            w, nm = walk(r["start"], r["end"], int(r.get("break_min") or 0), "night_same_day" in flaws)
            daily[day] = daily.get(day, 0) + w
            night += nm
        dcap = int(q(self.c["overtime"]["daily_hours"]) * 60)
        wcap = int(q(self.c["overtime"]["weekly_hours"]) * 60)
        ot = 0
        for week in (0, 1):
            days = [m for day, m in daily.items() if (day - self.start).days // 7 == week]
            dot = sum(max(0, m - dcap) for m in days)
            if "double_ot" in flaws:
                ot += dot + max(0, sum(days) - wcap)
            else:
                ot += dot + max(0, sum(days) - dot - wcap)
        total = sum(daily.values())
        return F(total - ot, 60), F(ot, 60), F(night, 60)

    def shift_nights(self, e):
        lo, hi = self.span(e)
        out = []
        for r in self.sheets:
            if r["employee_id"] == e["employee_id"] and lo <= d(r["date"]) <= hi:
                out.append(F(walk(r["start"], r["end"], int(r.get("break_min") or 0))[1], 60))
        return out

    def tax_table(self):
        rows = [(q(t), q(r)) for t, r in self.c["tax"]["brackets"]]
        cum, acc = [], F(0)
        for i, (t, r) in enumerate(rows):
            cum.append(acc)
            if i + 1 < len(rows):
                acc += (rows[i + 1][0] - t) * r
        return rows, cum

    def annual_tax(self, annual, flaws):
        rows, cum = self.tax_table()
        i = max(k for k, (t, _) in enumerate(rows) if t < annual or k == 0)
        if annual <= rows[0][0]:
            return F(0)
        if "flat_bracket" in flaws:
            return annual * rows[i][1]
        return cum[i] + (annual - rows[i][0]) * rows[i][1]

    def pay(self, e, flaws=()):
        """(register row as Fractions, lines [(code, hours, amount)], ytd row)."""
        mult = q(self.c["overtime"]["multiplier"])
        prem = q(self.c["night"]["premium"])
        lines = []
        reg = ot = night = F(0)
        if e["pay_type"] == "salaried":
            lo, hi = self.span(e)
            base = q(e["rate"]) / self.n
            if (lo, hi) != (self.start, self.end):
                if "calendar" in flaws:
                    base = base * ((hi - lo).days + 1) / ((self.end - self.start).days + 1)
                else:
                    base = base * self.workdays(lo, hi) / self.workdays(self.start, self.end)
            lines.append(("SAL", F(0), half_up(base)))
        else:
            rate = q(e["rate"])
            reg, ot, night = self.hours(e, flaws)
            lines.append(("REG", reg, half_up(reg * rate)))
            lines.append(("OT", ot, half_up(ot * rate * mult)))
            if "night_per_shift" in flaws:
                lines.append(("NIGHT", night, sum((half_up(h * prem) for h in self.shift_nights(e)), F(0))))
            else:
                lines.append(("NIGHT", night, half_up(night * prem)))
            rr = [r for r in self.retro if r["employee_id"] == e["employee_id"]]
            lines.append(("RETRO", sum((q(r["regular_hours"]) + q(r["overtime_hours"]) for r in rr), F(0)),
                          half_up(sum(((q(r["new_rate"]) - q(r["old_rate"])) * (q(r["regular_hours"]) + q(r["overtime_hours"]) * mult) for r in rr), F(0)))))
        lines = [l for l in lines if l[2] != 0]
        gross = sum((l[2] for l in lines), F(0))
        retro = sum((l[2] for l in lines if l[0] == "RETRO"), F(0))
        y = self.ytd.get(e["employee_id"], {})
        fresh = not y.get("year") or int(y["year"]) != self.pay_day.year
        if "no_year_reset" in flaws:
            fresh = not y.get("year")
        prev = {k: F(0) if fresh else q(y.get(k)) for k in ("gross", "pension", "withholding")}
        room = q(self.c["pension_annual_cap"]) - (F(0) if "no_ytd_cap" in flaws else prev["pension"])
        pension = min(half_up(gross * q(e["pension_pct"]) / 100), max(F(0), room))
        health = F(0) if "no_health" in flaws else q(e["health"])
        taxable = gross - pension - health
        regular = taxable if "retro_annual" in flaws else taxable - retro
        annual = max(F(0), regular * self.n)
        tax = half_up(self.annual_tax(annual, flaws) / self.n)
        if "retro_annual" not in flaws:
            tax += half_up(retro * q(self.c["tax"]["supplemental_rate"]))
        post = q(e["post_tax"])
        carry_in = q(y.get("carry_forward"))
        net = taxable - tax - post - carry_in
        carry_out = F(0)
        if net < 0:
            carry_out = F(0) if "drop_shortfall" in flaws else -net
            net = F(0)
        row = {"regular_hours": reg, "overtime_hours": ot, "night_hours": night, "gross": gross,
               "pension": pension, "health": health, "taxable": taxable, "withholding": tax,
               "post_tax": post, "carry_in": carry_in, "net": net, "carry_out": carry_out}
        ytd = (str(self.pay_day.year), prev["gross"] + gross, prev["pension"] + pension, prev["withholding"] + tax, carry_out)
        return row, lines, ytd

    def paid(self):
        return [e for e in self.emps if (lambda s: s[0] <= s[1])(self.span(e))]

    def run(self, flaws_by_emp=None):
        flaws_by_emp = flaws_by_emp or {}
        return {e["employee_id"]: self.pay(e, flaws_by_emp.get(e["employee_id"], ())) for e in self.paid()}


def first_difference(emp, mine, theirs):
    """(reason, field, reported, corrected) for the first column where two register rows differ."""
    for col in ORDER:
        if half_up(mine[col]) != half_up(theirs[col]):
            if col == "gross":
                reason = "PRORATION" if emp["pay_type"] == "salaried" else "ROUNDING"
            else:
                reason = CAUSE[col]
            return reason, col, two(theirs[col]), two(mine[col])
    return None
