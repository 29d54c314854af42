"""The digest of a bundle: totals and one row per (method, route)."""
import json

from . import stats
from .bots import is_bot
from .parsers import parse_sources
from .routes import route_of
from .sources import discover
from .timeutil import in_window

FIELDS = ("count", "errors", "error_rate", "p50_ms", "p95_ms", "bytes")
TOTALS = ("total_requests", "bot_requests", "malformed_lines", "duplicate_files")


class Group:
    def __init__(self, method, route):
        self.method, self.route = method, route
        self.count = self.errors = self.bytes = 0
        self.latencies = []

    def add(self, rec):
        self.count += 1
        if 500 <= rec.status <= 599:
            self.errors += 1
        self.bytes += rec.bytes
        self.latencies.append(rec.latency_ms)

    def row(self):
        return {"method": self.method, "route": self.route, "count": self.count, "errors": self.errors,
                "error_rate": stats.rate(self.errors, self.count),
                "p50_ms": stats.ms(stats.nearest_rank(self.latencies, 50)),
                "p95_ms": stats.ms(stats.nearest_rank(self.latencies, 95)), "bytes": self.bytes}


def build(input_dir, since=None, until=None):
    sources, dups = discover(input_dir)
    parsed = parse_sources(sources)
    groups, total, bots = {}, 0, 0
    for rec in parsed.records:
        if not in_window(rec.ts, since, until):
            continue
        if is_bot(rec.ua):
            bots += 1
            continue
        total += 1
        key = (rec.method, route_of(rec.path))
        if key not in groups:
            groups[key] = Group(*key)
        groups[key].add(rec)
    rows = sorted((g.row() for g in groups.values()), key=lambda r: (-r["count"], r["route"], r["method"]))
    return {"total_requests": total, "bot_requests": bots, "malformed_lines": parsed.malformed,
            "duplicate_files": dups, "endpoints": rows}


def write(digest, path):
    with open(path, "w", encoding="utf-8") as f:
        json.dump(digest, f, indent=1)
        f.write("\n")
