"""forget: which snapshots a keep policy keeps (docs/FORMAT.md section 6)."""
from . import timeutil

BUCKETS = ("daily", "weekly", "monthly")


def period_key(kind, local):
    if kind == "daily":
        return local.date().isoformat()
    if kind == "weekly":
        year, week, _ = local.isocalendar()
        return "%04d-W%02d" % (year, week)
    return "%04d-%02d" % (local.year, local.month)


def plan(snaps, offset_minutes, keep):
    """[(snapshot, reasons)] newest first; reasons empty means the snapshot is removed."""
    order = sorted(snaps, key=lambda s: (s["time"], s["id"]), reverse=True)
    reasons = {s["id"]: [] for s in order}
    for s in order[:keep.get("last", 0)]:
        reasons[s["id"]].append("last")
    for kind in BUCKETS:
        left = keep.get(kind, 0)
        last = None
        for s in order:
            if left <= 0:
                break
            key = period_key(kind, timeutil.local(timeutil.parse(s["time"]), offset_minutes))
            if key != last:
                reasons[s["id"]].append(kind)
                last = key
                left -= 1
    return [(s, reasons[s["id"]]) for s in order]
