"""Reads every log of a host folder into one time-ordered stream of records."""
import gzip
import json
import os
import re

from .stamps import YearGuess, iso_to_seconds, journal_seconds, parse_prefix

TAG = re.compile(r"^(?P<host>\S+) (?P<prog>[^\s\[:]+)(?:\[(?P<pid>\d+)\])?: (?P<msg>.*)$")


class Record:
    __slots__ = ("t", "file", "lineno", "prog", "pid", "msg", "rank")

    def __init__(self, t, file, lineno, prog, pid, msg, rank):
        self.t, self.file, self.lineno, self.prog, self.pid, self.msg, self.rank = t, file, lineno, prog, pid, msg, rank

    @property
    def line_id(self):
        return "%s:%d" % (self.file, self.lineno)


def file_rank(name):
    """Oldest first: auth.log.N[.gz] by descending N, then auth.log, then journal exports."""
    m = re.fullmatch(r"auth\.log(?:\.(\d+))?(?:\.gz)?", name)
    if m:
        return (0, -int(m.group(1) or 0), name)
    return (1, 0, name)


def read_text(path):
    if path.endswith(".gz"):
        with gzip.open(path, "rb") as f:
            data = f.read()
    else:
        with open(path, "rb") as f:
            data = f.read()
    return data.decode("utf-8", errors="replace")


def message_text(value):
    if isinstance(value, list):
        return bytes(int(b) & 0xFF for b in value).decode("utf-8", errors="replace")
    return "" if value is None else str(value)


def load(info):
    folder = os.path.join(info.folder, "logs")
    years = YearGuess(iso_to_seconds(info.collected_at), info.offset_min)
    names = sorted((n for n in os.listdir(folder) if not n.startswith(".")), key=file_rank)
    records = []
    for rank, name in enumerate(names):
        text = read_text(os.path.join(folder, name))
        for lineno, line in enumerate(text.split("\n"), 1):
            line = line.rstrip("\r")
            if not line.strip():
                continue
            if line.lstrip().startswith("{"):
                try:
                    rec = json.loads(line)
                except ValueError:
                    continue
                if "__REALTIME_TIMESTAMP" not in rec:
                    continue
                pid = rec.get("_PID") or rec.get("SYSLOG_PID")
                records.append(Record(journal_seconds(rec["__REALTIME_TIMESTAMP"]), name, lineno,
                                      str(rec.get("SYSLOG_IDENTIFIER", "")), int(pid) if pid else None,
                                      message_text(rec.get("MESSAGE")), rank))
                continue
            parsed = parse_prefix(line, years)
            if parsed is None:
                continue
            t, rest = parsed
            m = TAG.match(rest)
            if not m:
                continue
            records.append(Record(t, name, lineno, m["prog"], int(m["pid"]) if m["pid"] else None, m["msg"], rank))
    records.sort(key=lambda r: (r.t, r.rank, r.lineno))
    return records
