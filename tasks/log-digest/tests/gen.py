"""Seeded generator of log bundles and the expected digest computed from ground truth."""
import base64, gzip, json, math, random
from datetime import datetime, timezone, timedelta

T0 = datetime(2026, 10, 10, 8, 0, tzinfo=timezone.utc).timestamp()
ROUTES = [("GET", "/api/users/{n}"), ("GET", "/api/orders/{n}/items"), ("POST", "/api/orders"),
          ("GET", "/health"), ("GET", "/static/app.js"), ("DELETE", "/api/sessions/{h}"),
          ("PUT", "/api/users/{n}/avatar"), ("GET", "/api/search"), ("GET", "/api/items/{u}")]
OFFS = [0, 120, -300, 330, 60, -480]
ALIAS = {"ts": ["time", "timestamp", "@timestamp"], "method": ["verb", "http_method"],
         "path": ["url", "uri", "request_path"], "status": ["code", "status_code"],
         "bytes": ["size", "resp_bytes", "body_bytes"]}


def gz(b, rng):
    return gzip.compress(b, mtime=0)


def fill(rng, tmpl):
    p = tmpl.replace("{n}", str(rng.randint(1, 99999))).replace("{h}", "%032x" % rng.getrandbits(128))
    u = "%08x-%04x-%04x-%04x-%012x" % (rng.getrandbits(32), rng.getrandbits(16), rng.getrandbits(16),
                                        rng.getrandbits(16), rng.getrandbits(48))
    return p.replace("{u}", u)


def norm(tmpl):
    return tmpl.replace("{n}", "{id}").replace("{h}", "{id}").replace("{u}", "{id}")


def decorate(rng, p, hard):
    if hard and rng.random() < 0.3:
        p += "?q=%d&x=y" % rng.randint(1, 9)
    if hard and rng.random() < 0.15 and p != "/":
        p += "/"
    if hard and rng.random() < 0.1:
        p = p.replace("/api/", "/api//", 1)
    return p


def records(rng, n, hard):
    weights = [rng.random() + 0.1 for _ in ROUTES]
    out = []
    for _ in range(n):
        m, t = rng.choices(ROUTES, weights)[0]
        st = rng.choices([200, 201, 204, 304, 404, 500, 502, 503], [50, 5, 3, 4, 5, 3, 2, 2])[0]
        out.append(dict(ts=T0 + rng.randint(0, 6 * 3600), method=m, route=norm(t),
                        path=decorate(rng, fill(rng, t), hard), status=st,
                        bytes=rng.randint(0, 50000), lat=rng.randint(1, 4000) if rng.random() < 0.9 else rng.randint(4000, 30000)))
    return out


def clf_line(r, off):
    d = datetime.fromtimestamp(r["ts"], timezone(timedelta(minutes=off)))
    z = "%s%02d%02d" % ("+" if off >= 0 else "-", abs(off) // 60, abs(off) % 60)
    return '10.0.%d.%d - - [%s %s] "%s %s HTTP/1.1" %d %s "-" "probe/1.0" %.3f' % (
        r["ts"] % 250, r["status"] % 250, d.strftime("%d/%b/%Y:%H:%M:%S"), z, r["method"], r["path"],
        r["status"], r["bytes"] if r["bytes"] else "-", r["lat"] / 1000.0)


def json_line(rng, r, renamed, keys):
    if not renamed:
        return json.dumps(dict(ts=datetime.fromtimestamp(r["ts"], timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
                               method=r["method"], path=r["path"], status=r["status"], bytes=r["bytes"],
                               latency_ms=r["lat"]))
    o = {}
    tsk, mk, pk, sk, bk, lk = keys
    style = rng.randint(0, 2)
    if style == 0:
        o[tsk] = r["ts"]
    else:
        off = rng.choice(OFFS)
        o[tsk] = datetime.fromtimestamp(r["ts"], timezone(timedelta(minutes=off))).isoformat()
    o[mk] = r["method"].lower() if rng.random() < 0.3 else r["method"]
    o[pk] = r["path"]
    o[sk] = r["status"] if rng.random() < 0.7 else str(r["status"])
    o[bk] = r["bytes"]
    if lk == "duration":
        o[lk] = ("%dms" % r["lat"]) if rng.random() < 0.5 else ("%.3fs" % (r["lat"] / 1000.0))
    else:
        o[lk] = r["lat"]
    items = list(o.items())
    rng.shuffle(items)
    return json.dumps(dict(items))


GARBAGE = ['### log rotated', '{"ts": "2026-10-10T09:', '10.0.0.1 - - [10/Oct/2026:10:00:00 +0000] "GET /x HTTP/1.1" 200',
           'null', '[1, 2, 3]']


def build(rng, kind):
    """kind: plain | wrappers | renamed | window. Returns (files, expected, args)."""
    hard = kind != "plain"
    recs = records(rng, rng.randint(150, 400), hard)
    rng.shuffle(recs)
    lo, hi = None, None
    if kind == "window":
        lo = T0 + rng.randint(3600, 2 * 3600)
        hi = lo + rng.randint(3600, 3 * 3600)
        recs[0]["ts"], recs[1]["ts"] = lo, hi  # records exactly on both bounds
    nfiles = rng.randint(3, 6)
    chunks = [recs[i::nfiles] for i in range(nfiles)]
    files, bad, names = {}, 0, []
    for i, ch in enumerate(chunks):
        fmt = "jsonl" if (i % 2 == 1 or (kind == "renamed" and i % 3 != 0)) else "log"
        ch.sort(key=lambda r: r["ts"])
        if fmt == "log":
            off = rng.choice(OFFS)
            lines = [clf_line(r, off) for r in ch]
        else:
            renamed = kind == "renamed"
            keys = [rng.choice(ALIAS[k]) for k in ["ts", "method", "path", "status", "bytes"]]
            keys.append(rng.choice(["duration", "duration_ms", "elapsed_ms", "latency"]))
            if keys[-1] == "latency":
                keys[-1] = "duration"
            lines = [json_line(rng, r, renamed, keys) for r in ch]
            if renamed:
                lines.insert(rng.randint(0, len(lines)), json.dumps({keys[0]: 0, keys[1]: "GET", keys[2]: "/x", keys[3]: 200, keys[4]: 1}))
                bad += 1
        for _ in range(rng.randint(0, 2) if hard else 1):
            lines.insert(rng.randint(0, len(lines)), rng.choice(GARBAGE))
            bad += 1
        if rng.random() < 0.5:
            lines.insert(rng.randint(0, len(lines)), "")
        data = ("\n".join(lines) + "\n").encode()
        name = "part%02d.%s" % (i, fmt)
        if kind == "wrappers":
            w = rng.choice(["gz", "b64", "gzb64", "none", "gzb64"])
            if w == "gz":
                data, name = gz(data, rng), name + ".gz"
            elif w == "b64":
                data, name = base64.encodebytes(data), name + ".b64"
            elif w == "gzb64":
                data, name = base64.encodebytes(gz(data, rng)), name + ".gz.b64"
            name = rng.choice(["", "a/", "a/b/", "c/"]) + name
        names.append(name)
        files[name] = data
    files["README.txt"] = b"operator notes: not a log\n"
    if kind == "wrappers":
        # Nested manifests; a decoy log not reachable from the root manifest must be ignored.
        top = [n for n in names if "/" not in n]
        sub = [n for n in names if "/" in n]
        files["manifest.json"] = json.dumps({"files": top, "include": ["nested/manifest.json.gz"]}).encode()
        files["nested/manifest.json.gz"] = gz(json.dumps({"files": [{"path": "../" + n} for n in sub if n.startswith("a/")],
                                                          "include": ["../c/manifest.json"]}).encode(), rng)
        files["c/manifest.json"] = json.dumps({"files": [{"path": n[2:]} for n in sub if n.startswith("c/")],
                                               "include": ["../manifest.json"]}).encode()
        decoy = records(rng, 20, True)
        files["stale/old.log"] = ("\n".join(clf_line(r, 0) for r in decoy) + "\n").encode()
    args = []
    if kind == "window":
        o1, o2 = rng.choice(OFFS), rng.choice(OFFS)
        args = ["--since", datetime.fromtimestamp(lo, timezone(timedelta(minutes=o1))).isoformat(),
                "--until", datetime.fromtimestamp(hi, timezone(timedelta(minutes=o2))).isoformat()]
    kept = [r for r in recs if (lo is None or r["ts"] >= lo) and (hi is None or r["ts"] < hi)]
    return files, expected(kept, bad), args


def expected(recs, bad):
    g = {}
    for r in recs:
        g.setdefault((r["method"], r["route"]), []).append(r)
    eps = []
    for (m, rt), rs in g.items():
        lats = sorted(float(x["lat"]) for x in rs)
        n = len(lats)
        err = sum(1 for x in rs if x["status"] >= 500)
        eps.append(dict(method=m, route=rt, count=n, errors=err, error_rate=round(err / n, 4),
                        p50_ms=lats[max(0, math.ceil(0.5 * n) - 1)], p95_ms=lats[max(0, math.ceil(0.95 * n) - 1)],
                        bytes=sum(x["bytes"] for x in rs)))
    eps.sort(key=lambda e: (-e["count"], e["route"], e["method"]))
    return dict(total_requests=len(recs), malformed_lines=bad, endpoints=eps)
