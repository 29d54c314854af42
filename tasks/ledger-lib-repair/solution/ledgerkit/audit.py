"""The audit list: every rejected transaction with its reason, in journal order."""
from .report import write_csv

HEADER = ["line", "date", "reason"]


def write_audit(path, rejected):
    rows = [(txn.line, txn.date_text, reason) for txn, reason in sorted(rejected, key=lambda r: r[0].line)]
    write_csv(path, HEADER, rows)
    return len(rows)
