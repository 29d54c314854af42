"""Period files and calendar helpers."""
import csv
import json
import os
from datetime import date, timedelta


def parse_date(text):
    text = (text or "").strip()
    return date.fromisoformat(text) if text else None


def read_csv(path):
    if not os.path.exists(path):
        return []
    with open(path, newline="", encoding="utf-8") as f:
        return [{(k or "").strip(): (v or "").strip() for k, v in r.items()} for r in csv.DictReader(f)]


class Period:
    def __init__(self, folder):
        with open(os.path.join(folder, "period.json")) as f:
            p = json.load(f)
        with open(os.path.join(folder, "company.json")) as f:
            self.company = json.load(f)
        self.start = parse_date(p["period_start"])
        self.end = parse_date(p["period_end"])
        self.pay_date = parse_date(p["pay_date"])
        self.per_year = int(p.get("periods_per_year", 26))
        self.holidays = {parse_date(h) for h in self.company.get("holidays", [])}
        self.employees = read_csv(os.path.join(folder, "employees.csv"))
        self.timesheets = read_csv(os.path.join(folder, "timesheets.csv"))
        self.ytd = {r["employee_id"]: r for r in read_csv(os.path.join(folder, "ytd.csv"))}
        self.retro = read_csv(os.path.join(folder, "retro.csv"))

    def days(self):
        return [self.start + timedelta(days=i) for i in range((self.end - self.start).days + 1)]

    def week_of(self, day):
        return (day - self.start).days // 7

    def is_working_day(self, day):
        return day.weekday() < 5 and day not in self.holidays


def employed_range(emp, period):
    hire = parse_date(emp["hire_date"]) or period.start
    term = parse_date(emp.get("term_date"))
    first = max(hire, period.start)
    last = min(term, period.end) if term else period.end
    return first, last


def is_paid(emp, period):
    first, last = employed_range(emp, period)
    return first <= last
