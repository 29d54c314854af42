"""CSV output."""
import csv
import datetime as dt


def iso(t):
    return dt.datetime.fromtimestamp(t, dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def write(path, header, rows):
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(header)
        for r in rows:
            w.writerow(r)


def session_rows(sessions):
    for s in sessions:
        lg = s.login
        yield (lg.rec.line_id, lg.user, lg.src, lg.port, lg.method, iso(lg.t),
               iso(s.end.t) if s.end else "", s.end.rec.line_id if s.end else "")
