"""Days overdue and the aging buckets of the open balances, in EUR at the report date."""
from decimal import Decimal

BUCKETS = ("current", "1-30", "31-60", "61-90", "90+")


def days_overdue(inv, report_date):
    if inv["open"] <= 0:
        return 0
    return max(0, (report_date - inv["due"]).days)


def bucket(days):
    if days == 0:
        return "current"
    if days <= 30:
        return "1-30"
    if days <= 60:
        return "31-60"
    if days <= 90:
        return "61-90"
    return "90+"


def aging(invoices, report_date, fx):
    totals = {b: Decimal("0.00") for b in BUCKETS}
    for inv in invoices.values():
        if inv["open"] > 0:
            totals[bucket(days_overdue(inv, report_date))] += fx.conv(inv["open"], inv["currency"], "EUR", report_date)
    return totals
