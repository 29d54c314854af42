"""Hidden log bundles for log-digest, built from planted request records. The expected digest is
counted from the records themselves (which are in the window, which are bots, which files are
read) -- never by parsing the rendered text."""
import base64
import gzip
import json
from datetime import datetime, timedelta, timezone
from fractions import Fraction

T0 = 1794614400  # 2026-11-14T00:00:00Z
MON = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
TEMPLATES = [
    ("GET", "/api/users/{id}"), ("GET", "/api/users/{id}/orders"), ("POST", "/api/orders"),
    ("GET", "/api/orders/{id}"), ("DELETE", "/api/sessions/{id}"), ("GET", "/"),
    ("GET", "/static/app.js"), ("PUT", "/api/items/{id}/tags/{id}"), ("GET", "/health"),
    ("GET", "/api/search"), ("PATCH", "/api/users/{id}/profile"), ("GET", "/api/tokens/cafe1234cafe123"),
    ("POST", "/api/v2/carts/{id}/checkout"), ("GET", "/api/reports/q3-2026"),
]
HUMANS = ["Mozilla/5.0 (X11; Linux x86_64) Firefox/131.0", "Mozilla/5.0 (Macintosh) Safari/17.1",
          "curl/8.4.0", "python-requests/2.31.0", "okhttp/4.12.0", "Go-http-client/1.1"]
BOTS_LOWER = ["Googlebot/2.1 (+http://www.google.com/bot.html)", "Mozilla/5.0 (compatible; bingbot/2.0)",
              "Baiduspider/2.0", "Yahoo! Slurp"]
BOTS_MIXED = ["Mozilla/5.0 (compatible; AhrefsBot/7.0)", "SemrushBot/7~bl", "YandexBot/3.0",
              "Mozilla/5.0 (compatible; DotBot/1.2)", "SiteCrawler/1.0", "FeedSpider 2.1"]
OK_STATUS = [200, 200, 200, 200, 201, 204, 301, 304, 400, 404, 404, 499]
BAD_STATUS = [500, 502, 503, 504]
KEYSETS = {
    "ts": ["ts", "time", "timestamp", "@timestamp"], "method": ["method", "verb", "http_method"],
    "path": ["path", "url", "uri", "request_path"], "status": ["status", "code", "status_code"],
    "bytes": ["bytes", "size", "resp_bytes", "body_bytes"], "ua": ["ua", "user_agent", "agent"],
    "ms": ["latency_ms", "duration_ms", "elapsed_ms"], "dur": ["duration", "latency", "elapsed"],
}


class Req:
    __slots__ = ("t", "method", "tpl", "path", "status", "size", "us", "ua", "bot")

    def __init__(self, **kw):
        for k, v in kw.items():
            setattr(self, k, v)


# ---------------------------------------------------------------- ids and paths

def hexid(rng, n, case):
    s = "".join(rng.choice("0123456789abcdef") for _ in range(n))
    if not any(c.isalpha() for c in s):
        s = "a" + s[1:]
    if case == "upper":
        return s.upper()
    if case == "mixed":
        return "".join(c.upper() if rng.random() < 0.5 else c for c in s)
    return s


def make_id(rng, hard):
    k = rng.randrange(6 if hard else 3)
    if k == 0:
        return str(rng.randrange(1, 10 ** rng.randint(1, 9)))
    if k == 1:
        return hexid(rng, rng.randint(16, 32), "lower")
    if k == 2:
        return "-".join(hexid(rng, n, "lower") for n in (8, 4, 4, 4, 12))
    if k == 3:
        return hexid(rng, rng.randint(16, 24), rng.choice(["upper", "mixed"]))
    if k == 4:
        return "-".join(hexid(rng, n, "upper") for n in (8, 4, 4, 4, 12))
    return str(rng.randrange(10 ** 11, 10 ** 12))


def concrete(rng, tpl, hard):
    parts = [make_id(rng, hard) if seg == "{id}" else seg for seg in tpl.split("/")]
    path = "/".join(parts)
    if hard and rng.random() < 0.3:
        path = path.replace("/", "//", 1)
    if rng.random() < 0.2 and path != "/":
        path += "/"
    if rng.random() < 0.3:
        path += "?page=%d&q=x%%2Fy" % rng.randint(1, 9)
    if rng.random() < 0.1:
        path += "#top"
    return path


# ---------------------------------------------------------------- records

def new_req(rng, t, method, tpl, hard, bot=None, status=None):
    if bot is None:
        bot = rng.random() < 0.07
    if bot:
        ua = rng.choice(BOTS_MIXED if (hard and rng.random() < 0.6) else BOTS_LOWER)
    else:
        ua = rng.choice(HUMANS)
    if status is None:
        status = rng.choice(BAD_STATUS) if rng.random() < 0.12 else rng.choice(OK_STATUS)
    size = 0 if status in (204, 304) else rng.randint(0, 60000)
    return Req(t=t, method=method, tpl=tpl, path=concrete(rng, tpl, hard), status=status, size=size,
               us=rng.randint(150, 2500000), ua=ua, bot=bot)


def tie_group(rng, tpl, method, lo, hi, hard):
    """Exactly 32 counted requests with 1, 5 or 9 errors: the rate's fifth decimal is a 5."""
    errs = rng.choice([1, 5, 9])
    out = []
    for i in range(32):
        st = rng.choice(BAD_STATUS) if i < errs else rng.choice(OK_STATUS)
        out.append(new_req(rng, rng.randrange(lo, hi), method, tpl, hard, bot=False, status=st))
    return out


# ---------------------------------------------------------------- rendering

def clf_time(t, off_min):
    d = datetime.fromtimestamp(t + off_min * 60, timezone.utc)
    sign = "-" if off_min < 0 else "+"
    a = abs(off_min)
    return "%02d/%s/%04d:%02d:%02d:%02d %s%02d%02d" % (d.day, MON[d.month - 1], d.year, d.hour, d.minute,
                                                       d.second, sign, a // 60, a % 60)


def iso(t, off_min, style):
    d = datetime.fromtimestamp(t + off_min * 60, timezone.utc)
    base = "%04d-%02d-%02dT%02d:%02d:%02d" % (d.year, d.month, d.day, d.hour, d.minute, d.second)
    if style == "naive":
        return base
    if style == "z" or off_min == 0:
        return base + "Z"
    a = abs(off_min)
    return base + "%s%02d:%02d" % ("-" if off_min < 0 else "+", a // 60, a % 60)


def secs(us):
    return "%d.%06d" % divmod(us, 1000000)


def access_line(rng, r, off_min, hard):
    size = "-" if (r.size == 0 and hard) else str(r.size)
    ip = "10.%d.%d.%d" % (rng.randrange(256), rng.randrange(256), rng.randrange(1, 255))
    ref = rng.choice(["-", "https://shop.example.com/", "-"])
    return '%s - %s [%s] "%s %s HTTP/1.1" %d %s "%s" "%s" %s' % (
        ip, rng.choice(["-", "alice"]), clf_time(r.t, off_min), r.method, r.path, r.status, size, ref, r.ua,
        secs(r.us))


def trace_lines(rng):
    out = ["Traceback (most recent call last):"]
    for _ in range(rng.randint(1, 3)):
        out.append('  File "/srv/app/views.py", line %d, in handler' % rng.randint(10, 900))
        out.append("    return render(request)")
    out.append(rng.choice(["ValueError: bad cursor", "KeyError: 'user'", "TimeoutError"]))
    return out


def bad_log_lines(rng):
    return rng.choice([
        ["10.0.0.1 - - [14/Nov/2026:10:00:00 +0000] \"GET /x HTTP/1.1\" 200 12"],
        ["GET /api/users/1 200"],
        ["10.0.0.9 - - [14/Foo/2026:10:00:00 +0000] \"GET /a HTTP/1.1\" 200 1 \"-\" \"x\" 0.1"],
        ["   stray indented text outside a trace"],
        ["10.0.0.2 - - [14/Nov/2026:10:00:00 +0000] \"GET /a HTTP/1.1\" 200 1 \"-\" \"x\" fast"],
    ])


def json_obj(rng, r, keys, hard, lat_style):
    o = {}
    tstyle = rng.choice(["z", "offset", "naive", "epoch", "epoch_ms"] if hard else ["z", "offset", "naive", "epoch"])
    if tstyle == "epoch":
        o[keys["ts"]] = r.t
    elif tstyle == "epoch_ms":
        o[keys["ts"]] = r.t * 1000
    else:
        o[keys["ts"]] = iso(r.t, rng.choice([-300, 60, 120, 330]) if tstyle == "offset" else 0, tstyle)
    o[keys["method"]] = r.method.lower() if rng.random() < 0.3 else r.method
    o[keys["path"]] = r.path
    o[keys["status"]] = str(r.status) if rng.random() < 0.3 else r.status
    o[keys["bytes"]] = r.size
    style = lat_style or rng.choice(["ms", "dur_ms", "dur_s", "bare"])
    if style == "ms":
        o[keys["ms"]] = float(Fraction(r.us, 1000)) if r.us % 1000 else r.us // 1000
    elif style == "dur_ms":
        o[keys["dur"]] = "%d.%03dms" % divmod(r.us, 1000)
    elif style == "dur_s":
        o[keys["dur"]] = secs(r.us) + "s"
    elif style == "us":
        o[keys["dur"]] = "%dus" % r.us
    else:
        o[keys["dur"]] = float(secs(r.us))
    if rng.random() < 0.9 or r.bot:
        o[keys["ua"]] = r.ua
    items = list(o.items())
    rng.shuffle(items)
    return json.dumps(dict(items))


def bad_json_lines(rng):
    return rng.choice([
        ['{"ts": "2026-11-14T10:00:00Z", "method": "GET", "path": "/a", "status": 200'],
        ["[1, 2, 3]"],
        ['{"ts": "2026-11-14T10:00:00Z", "method": "GET", "path": "/a", "bytes": 5, "latency_ms": 3}'],
        ['{"ts": "2026-11-14T10:00:00Z", "method": "GET", "path": "/a", "status": "ok", "bytes": 5, "latency_ms": 3}'],
        ["null"],
        ['{"ts": "yesterday", "method": "GET", "path": "/a", "status": 200, "bytes": 5, "latency_ms": 3}'],
    ])


def gz(data):
    return gzip.compress(data, mtime=0)


def b64(data):
    s = base64.b64encode(data)
    return b"\n".join(s[i:i + 76] for i in range(0, len(s), 76)) + b"\n"


# ---------------------------------------------------------------- expected digest (counted)

def pick_rank(values, pct):
    n = len(values)
    k = 0
    while k * 100 < pct * n:
        k += 1
    return sorted(values)[max(k, 1) - 1]


def ms_of(us):
    return float("%d.%03d" % divmod(us, 1000))


def rate_of(errs, n):
    q, r = divmod(errs * 10000 * 2 + n, 2 * n)
    return float("%d.%04d" % divmod(q, 10000))


def route_of_tpl(tpl):
    return tpl


def expected(reqs, malformed, dups, lo, hi):
    groups, total, bots = {}, 0, 0
    for r in reqs:
        if (lo is not None and r.t < lo) or (hi is not None and r.t >= hi):
            continue
        if r.bot:
            bots += 1
            continue
        total += 1
        groups.setdefault((r.method, r.tpl), []).append(r)
    rows = []
    for (m, tpl), rs in groups.items():
        lat = [r.us for r in rs]
        errs = len([r for r in rs if r.status >= 500])
        rows.append({"method": m, "route": tpl, "count": len(rs), "errors": errs,
                     "error_rate": rate_of(errs, len(rs)), "p50_ms": ms_of(pick_rank(lat, 50)),
                     "p95_ms": ms_of(pick_rank(lat, 95)), "bytes": sum(r.size for r in rs)})
    rows.sort(key=lambda e: (-e["count"], e["route"], e["method"]))
    return {"total_requests": total, "bot_requests": bots, "malformed_lines": malformed,
            "duplicate_files": dups, "endpoints": rows}


# ---------------------------------------------------------------- bundles

def render_log(rng, reqs, off_min, hard):
    """Lines of one access log and how many of them are malformed (a trace is one block)."""
    blocks, bad = [], 0
    for r in sorted(reqs, key=lambda q: q.t):
        blocks.append([access_line(rng, r, off_min, hard)])
        x = rng.random()
        if x < 0.06:
            blocks.append(trace_lines(rng))
        elif x < 0.09:
            b = bad_log_lines(rng)
            blocks.append(b)
            bad += len(b)
        elif x < 0.11:
            blocks.append([""])
    blocks.append(trace_lines(rng))
    blocks.insert(rng.randrange(len(blocks) + 1), bad_log_lines(rng)[:1])
    lines = [ln for b in blocks for ln in b]
    return ("\n".join(lines) + "\n").encode(), bad + 1


def render_jsonl(rng, reqs, hard, lat_style=None):
    keys = {k: rng.choice(v) for k, v in KEYSETS.items()}
    lines, bad = [], 0
    for r in sorted(reqs, key=lambda q: q.t):
        lines.append(json_obj(rng, r, keys, hard, lat_style))
        x = rng.random()
        if x < 0.05:
            b = bad_json_lines(rng)
            lines.extend(b)
            bad += len(b)
        elif x < 0.08:
            lines.append("   ")
    b = bad_json_lines(rng)
    lines.insert(rng.randrange(len(lines) + 1), b[0])
    return ("\n".join(lines) + "\n").encode(), bad + 1


def bound_text(rng, t):
    off = rng.choice([0, 0, 120, -300, 330, 60])
    return iso(t, off, rng.choice(["offset", "offset", "naive"]) if off == 0 else "offset")


def build(rng, kind, public=False, window=None, size=1.0):
    """One bundle: (files {relpath: bytes}, extra CLI args, expected digest, claims, findings).

    kind: 'sources' (manifests, --until only), 'parsing' (no manifest, no window), 'window'
    (manifests, both bounds), 'audit' (as window, plus claims), 'shipped' (window given)."""
    hard = not public
    manifest = kind != "parsing"
    # the window
    lo = hi = None
    args = []
    if window is not None:
        lo, hi = window
        args = ["--since", iso(lo, 0, "z"), "--until", iso(hi, 0, "z")]
    elif kind in ("window", "audit", "sources"):
        lo = T0 + 3600 * rng.randint(0, 10) + 60 * rng.randint(0, 59)
        hi = lo + 3600 * rng.randint(14, 30) + rng.randint(0, 3599)
        if kind == "sources":
            args = ["--until", bound_text(rng, hi)]
            lo = None
        else:
            args = ["--since", bound_text(rng, lo), "--until", bound_text(rng, hi)]
    span_lo = (lo if lo is not None else T0) - 4 * 3600
    span_hi = (hi if hi is not None else T0 + 40 * 3600) + 4 * 3600
    in_lo = lo if lo is not None else span_lo
    in_hi = hi if hi is not None else span_hi
    # endpoints and requests
    tpls = rng.sample(TEMPLATES, rng.randint(7, 9))
    ties = tpls[:2] if hard else []
    reqs = []
    for m, tpl in tpls:
        if (m, tpl) in ties:
            reqs.extend(tie_group(rng, tpl, m, in_lo, in_hi, hard))
            continue
        for _ in range(int(rng.randint(6, 28) * size)):
            reqs.append(new_req(rng, rng.randrange(span_lo, span_hi), m, tpl, hard))
    others = [t for t in tpls if t not in ties]
    if hi is not None:
        for _ in range(3):
            m, tpl = rng.choice(others)
            reqs.append(new_req(rng, hi, m, tpl, hard, bot=False))
    if lo is not None:
        for _ in range(2):
            m, tpl = rng.choice(others)
            reqs.append(new_req(rng, lo, m, tpl, hard, bot=False))
    if hard:
        for _ in range(3):
            m, tpl = rng.choice(others)
            r = new_req(rng, rng.randrange(in_lo, in_hi), m, tpl, hard, bot=True)
            r.ua = rng.choice(BOTS_MIXED)
            reqs.append(r)
    rng.shuffle(reqs)
    # files: (path, format, offset minutes, wrapping, latency style)
    slots = [("logs/web1/access.log", "log", 60, "", None), ("logs/web1/access.log.1", "log", 60, "", None),
             ("logs/web1/access.log.2.gz", "log", 60, "gz", None), ("logs/web2/access.log", "log", -300, "", None),
             ("shared/app.jsonl.gz.b64", "jsonl", 0, "gzb64", None),
             ("logs/web3/access.log.3", "log", 330, "gzraw" if hard else "", None),
             ("shared/events.jsonl.b64", "jsonl", 0, "b64", None)]
    if hard:
        slots.append(("shared/worker.jsonl", "jsonl", 0, "", "us"))
    if not manifest:
        slots = [(p.replace("logs/", "").replace("shared/", "app/"), f, o, w, l) for p, f, o, w, l in slots]
    share = {s[0]: [] for s in slots}
    for i, r in enumerate(reqs):
        share[slots[i % len(slots)][0] if i < len(slots) else rng.choice(slots)[0]].append(r)
    if hard:
        us_file = slots[-1][0]
        for r in reqs:
            if r not in share[us_file] and rng.random() < 0.15:
                home = [v for v in share.values() if r in v][0]
                if len(home) > 1:  # every file keeps a record of its own
                    home.remove(r)
                    share[us_file].append(r)
    files, malformed = {}, 0
    content = {}
    for path, fmt, off, wrap, lat in slots:
        if fmt == "log":
            data, bad = render_log(rng, share[path], off, hard)
        else:
            data, bad = render_jsonl(rng, share[path], hard, lat)
        malformed += bad
        content[path] = data
        if wrap == "gz" or wrap == "gzraw":
            data = gz(data)
        elif wrap == "gzb64":
            data = b64(gz(data))
        elif wrap == "b64":
            data = b64(data)
        files[path] = data
    # a re-shipped rotated file: the same content, gzipped (plain copy in the public examples)
    rot = slots[1][0]
    dup_path = ("reship/" if manifest else "old/") + rot.split("/")[-1] + (".gz" if hard else "")
    files[dup_path] = gz(content[rot]) if hard else content[rot]
    dups = 1
    # files never read: decoys, excluded, unlisted
    decoy = [new_req(rng, rng.randrange(in_lo, in_hi), m, tpl, hard, bot=False) for m, tpl in tpls for _ in range(3)]
    files["README.txt"] = b"fleet log bundle; see manifest.json\n"
    files[("logs/web1/" if manifest else "web1/") + "access.log.bak"] = render_log(rng, decoy[0::3], 0, hard)[0]
    if manifest:
        files["logs/web1/decoy.log"] = render_log(rng, decoy[1::3], 0, hard)[0]
        root = {"files": ["logs/web1/access.log", {"path": "logs/web1/access.log.1"}, "logs/web1/access.log.2.gz",
                          "logs/web3/access.log.3", dup_path, "logs/web1/access.log"],
                "include": ["logs/web2/manifest.json"]}
        web2 = {"files": ["access.log", "../../shared/app.jsonl.gz.b64", {"path": "../../shared/events.jsonl.b64"}],
                "include": ["../../manifest.json", "../web2/manifest.json"]}
        if hard:
            root["files"].append("shared/worker.jsonl")
            root["files"].append("archive/2026-10/access.log")
            web2["files"].append("tmp/partial.jsonl")
            root["exclude"] = ["archive/*", "*/tmp/*"]
            files["archive/2026-10/access.log"] = render_log(rng, decoy[2::3], 0, hard)[0]
            files["logs/web2/tmp/partial.jsonl"] = render_jsonl(rng, decoy[0::2], hard)[0]
        files["manifest.json"] = json.dumps(root, indent=1).encode() + b"\n"
        files["logs/web2/manifest.json"] = json.dumps(web2, indent=1).encode() + b"\n"
    else:
        files["notes.json"] = b'{"owner": "ops"}\n'
    want = expected(reqs, malformed, dups, lo, hi)
    claims, findings = plant_claims(rng, want, hard)
    return files, args, want, claims, findings


# ---------------------------------------------------------------- claims with planted errors

FIELD_ORDER = ["count", "errors", "error_rate", "p50_ms", "p95_ms", "bytes"]
WHY = {"count": "COUNT_MISMATCH", "errors": "ERROR_MISMATCH", "error_rate": "ERROR_MISMATCH",
       "p50_ms": "LATENCY_MISMATCH", "p95_ms": "LATENCY_MISMATCH", "bytes": "BYTES_MISMATCH"}
PHANTOMS = [("GET", "/api/users/{id}/avatar"), ("POST", "/health"), ("GET", "/api/v1/orders"),
            ("GET", "/favicon.ico"), ("OPTIONS", "/api/orders")]


def plant_claims(rng, want, hard):
    rows, found = [], []
    for e in want["endpoints"]:
        c = dict(e)
        err = rng.choice(["none", "none", "double", "errors", "rate", "units", "p95", "bytes", "missing"])
        changed = []
        if err == "double":
            d = rng.randint(1, 9)
            c["count"] += d
            c["bytes"] += rng.randint(100, 9000)
            changed = ["count", "bytes"]
        elif err == "errors":
            c["errors"] += rng.randint(1, 4)
            c["error_rate"] = round(c["error_rate"] + 0.0417, 4)
            changed = ["errors", "error_rate"]
        elif err == "rate":
            c["error_rate"] = round(c["error_rate"] + 0.0123, 4)
            changed = ["error_rate"]
        elif err == "units":
            c["p50_ms"] = round(c["p50_ms"] * 1000, 3)
            c["p95_ms"] = round(c["p95_ms"] * 1000, 3)
            changed = ["p50_ms", "p95_ms"]
        elif err == "p95":
            c["p95_ms"] = round(c["p95_ms"] + 1.25, 3)
            c["bytes"] += 512
            changed = ["p95_ms", "bytes"]
        elif err == "bytes":
            c["bytes"] = max(0, c["bytes"] - rng.randint(1, 500)) if c["bytes"] else 77
            changed = ["bytes"]
        if err == "missing":
            found.append((e["method"], e["route"], "MISSING_ENDPOINT", "count", "", e["count"]))
            continue
        rows.append(c)
        if changed:
            f = min(changed, key=FIELD_ORDER.index)
            found.append((e["method"], e["route"], WHY[f], f, c[f], e[f]))
    have = {(e["method"], e["route"]) for e in want["endpoints"]}
    for m, r in rng.sample([p for p in PHANTOMS if p not in have], 3):
        n = rng.randint(2, 40)
        rows.append({"method": m, "route": r, "count": n, "errors": 0, "error_rate": 0.0, "p50_ms": 12.5,
                     "p95_ms": 80.0, "bytes": 1000 * n})
        found.append((m, r, "PHANTOM_ENDPOINT", "count", n, ""))
    rng.shuffle(rows)
    claims = {k: want[k] for k in ("total_requests", "bot_requests", "malformed_lines", "duplicate_files")}
    t = rng.choice(["none", "both", "bots"])
    if t == "both":
        claims["total_requests"] += 7
        claims["malformed_lines"] += 2
        found.append(("*", "*", "TOTALS_MISMATCH", "total_requests", claims["total_requests"], want["total_requests"]))
    elif t == "bots":
        claims["bot_requests"] += 3
        claims["duplicate_files"] = 0
        found.append(("*", "*", "TOTALS_MISMATCH", "bot_requests", claims["bot_requests"], want["bot_requests"]))
    claims["endpoints"] = rows
    return (json.dumps(claims, indent=1) + "\n").encode(), found


def findings_csv(found):
    def txt(v):
        return "" if v == "" else ("%d" % v if isinstance(v, int) or float(v).is_integer() else repr(float(v)))
    lines = ["method,route,reason,field,claimed,actual"]
    for m, r, why, f, c, a in sorted(found, key=lambda x: (x[1], x[0])):
        lines.append(",".join([m, r, why, f, txt(c), txt(a)]))
    return ("\n".join(lines) + "\n").encode()
