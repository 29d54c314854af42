#!/usr/bin/env python3
"""Reference log digest: wrappers, manifests, renamed fields, windows, nearest-rank percentiles."""
import argparse, base64, binascii, gzip, json, math, os, re, sys
from datetime import datetime, timezone, timedelta

ALIASES = {
    "ts": ["ts", "time", "timestamp", "@timestamp"],
    "method": ["method", "verb", "http_method"],
    "path": ["path", "url", "uri", "request_path"],
    "status": ["status", "code", "status_code"],
    "bytes": ["bytes", "size", "resp_bytes", "body_bytes"],
}
LAT_MS = ["latency_ms", "duration_ms", "elapsed_ms"]
LAT_STR = ["duration", "latency", "elapsed"]
CLF = re.compile(r'^(\S+) \S+ \S+ \[([^\]]+)\] "(\S+) (\S+) [^"]*" (\d{3}) (\d+|-) "[^"]*" "[^"]*" ([0-9.]+)$')
HEXID = re.compile(r"^[0-9a-fA-F]{16,}$")
UUID = re.compile(r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$")


def unwrap(data, name):
    while True:
        if name.endswith(".b64"):
            data = base64.b64decode(b"".join(data.split()))
            name = name[:-4]
        elif name.endswith(".gz"):
            data = gzip.decompress(data)
            name = name[:-3]
        else:
            if data[:2] == b"\x1f\x8b":
                data = gzip.decompress(data)
                continue
            return data, name


def parse_iso(s):
    s = s.strip()
    if s.endswith("Z"):
        s = s[:-1] + "+00:00"
    d = datetime.fromisoformat(s)
    if d.tzinfo is None:
        d = d.replace(tzinfo=timezone.utc)
    return d.timestamp()


def parse_ts(v):
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        return float(v)
    return parse_iso(str(v))


def route(path):
    path = path.split("?", 1)[0].split("#", 1)[0]
    segs = [s for s in path.split("/") if s]
    out = ["{id}" if (s.isdigit() or HEXID.match(s) or UUID.match(s)) else s for s in segs]
    return "/" + "/".join(out)


def dur_ms(v):
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        return float(v) * 1000.0
    s = str(v).strip()
    if s.endswith("ms"):
        return float(s[:-2])
    if s.endswith("us"):
        return float(s[:-2]) / 1000.0
    if s.endswith("s"):
        return float(s[:-1]) * 1000.0
    return float(s) * 1000.0


def pick(obj, key):
    for k in ALIASES[key]:
        if k in obj:
            return obj[k]
    raise KeyError(key)


def parse_json_line(line):
    o = json.loads(line)
    if not isinstance(o, dict):
        raise ValueError("not an object")
    lat = None
    for k in LAT_MS:
        if k in o:
            lat = float(o[k])
            break
    if lat is None:
        for k in LAT_STR:
            if k in o:
                lat = dur_ms(o[k])
                break
    if lat is None:
        raise KeyError("latency")
    b = pick(o, "bytes")
    return dict(ts=parse_ts(pick(o, "ts")), method=str(pick(o, "method")).upper(), path=str(pick(o, "path")),
                status=int(pick(o, "status")), bytes=0 if b in (None, "-") else int(b), lat=lat)


def parse_clf(line):
    m = CLF.match(line)
    if not m:
        raise ValueError("bad line")
    ts = datetime.strptime(m.group(2), "%d/%b/%Y:%H:%M:%S %z").timestamp()
    b = m.group(6)
    return dict(ts=ts, method=m.group(3).upper(), path=m.group(4), status=int(m.group(5)),
                bytes=0 if b == "-" else int(b), lat=float(m.group(7)) * 1000.0)


def collect(root):
    files = []
    man = os.path.join(root, "manifest.json")
    if os.path.exists(man):
        seen = set()

        def walk(mpath):
            mpath = os.path.normpath(mpath)
            if mpath in seen:
                return
            seen.add(mpath)
            with open(mpath, "rb") as f:
                data, _ = unwrap(f.read(), mpath)
            m = json.loads(data)
            base = os.path.dirname(mpath)
            for e in m.get("files", []):
                p = e if isinstance(e, str) else e["path"]
                files.append(os.path.normpath(os.path.join(base, p)))
            for inc in m.get("include", []):
                walk(os.path.join(base, inc))

        walk(man)
    else:
        for d, _, fs in os.walk(root):
            for f in fs:
                files.append(os.path.join(d, f))
    out, seenf = [], set()
    for f in sorted(files):
        if f not in seenf:
            seenf.add(f)
            out.append(f)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("input_dir")
    ap.add_argument("-o", "--output", required=True)
    ap.add_argument("--since")
    ap.add_argument("--until")
    a = ap.parse_args()
    since = parse_iso(a.since) if a.since else None
    until = parse_iso(a.until) if a.until else None
    recs, bad = [], 0
    for f in collect(a.input_dir):
        with open(f, "rb") as fh:
            data, name = unwrap(fh.read(), os.path.basename(f))
        if not (name.endswith(".log") or name.endswith(".jsonl")):
            continue
        for line in data.decode("utf-8", "replace").splitlines():
            if not line.strip():
                continue
            try:
                r = parse_json_line(line) if name.endswith(".jsonl") else parse_clf(line.strip())
            except Exception:
                bad += 1
                continue
            if since is not None and r["ts"] < since:
                continue
            if until is not None and r["ts"] >= until:
                continue
            recs.append(r)
    groups = {}
    for r in recs:
        groups.setdefault((r["method"], route(r["path"])), []).append(r)
    eps = []
    for (m, rt), rs in groups.items():
        lats = sorted(x["lat"] for x in rs)
        n = len(lats)
        pr = lambda p: round(lats[max(0, math.ceil(p / 100.0 * n) - 1)], 3)
        err = sum(1 for x in rs if x["status"] >= 500)
        eps.append(dict(method=m, route=rt, count=n, errors=err, error_rate=round(err / n, 4),
                        p50_ms=pr(50), p95_ms=pr(95), bytes=sum(x["bytes"] for x in rs)))
    eps.sort(key=lambda e: (-e["count"], e["route"], e["method"]))
    with open(a.output, "w") as f:
        json.dump(dict(total_requests=len(recs), malformed_lines=bad, endpoints=eps), f, indent=2)


if __name__ == "__main__":
    main()
