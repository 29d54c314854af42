"""Reading event logs (CSV with header user,ts,event)."""
import csv


def load(path):
    """Events as (user, second, event, row index). Rows without a user are skipped; user names and
    event names lose surrounding whitespace; timestamps are truncated to whole seconds."""
    events = []
    with open(path, newline="", encoding="utf-8") as f:
        for i, row in enumerate(csv.DictReader(f)):
            if not row or not (row.get("user") or "").strip():
                continue
            events.append((row["user"].strip(), int(float(row["ts"])), row["event"].strip(), i))
    return events
