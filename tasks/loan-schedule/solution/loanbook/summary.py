"""summary.json entries (SERVICING.md §5)."""
from .money import ZERO, fmt


def entry(t, rows):
    return dict(currency=t["cur"], n_payments=len(rows),
                total_interest=fmt(sum((r["interest"] for r in rows), ZERO)),
                total_paid=fmt(sum((r["payment"] + r["extra"] for r in rows), ZERO)))
