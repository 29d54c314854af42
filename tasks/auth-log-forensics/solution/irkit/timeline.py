"""The incident timeline of a host."""
from .events import is_root
from .report import iso


def timeline(evs):
    fails = {}
    for i, e in enumerate(evs):
        if e.kind == "fail":
            s = fails.setdefault(e.src, [0, i])
            s[0] += e.count
    if not fails:
        return []
    src = sorted(fails, key=lambda s: (-fails[s][0], fails[s][1]))[0]
    first = next(i for i, e in enumerate(evs) if e.kind == "fail" and e.src == src)
    succ = next((i for i, e in enumerate(evs) if i > first and e.kind == "login" and e.src == src), None)
    if succ is None:
        return [("bruteforce_start", iso(evs[first].t), evs[first].user, src, evs[first].rec.line_id)]
    last = max(i for i, e in enumerate(evs) if i < succ and e.kind == "fail" and e.src == src)
    user, tsucc = evs[succ].user, evs[succ].t
    rows = [(evs[first], "bruteforce_start", evs[first].user), (evs[last], "bruteforce_end", evs[last].user),
            (evs[succ], "first_success", user)]
    esc = next((e for e in evs if is_root(e) and e.user == user and e.t >= tsucc), None)
    if esc is not None:
        rows.append((esc, "privilege_escalation", user))
    for e in evs:
        if e.t < tsucc:
            continue
        if e.kind in ("useradd", "passwd"):
            rows.append((e, "persistence", e.user))
        elif e.kind == "sudo" and is_root(e) and "authorized_keys" in (e.cmd or ""):
            rows.append((e, "persistence", e.user))
    rows.sort(key=lambda r: (r[0].rec.t, r[0].rec.rank, r[0].rec.lineno))
    return [(name, iso(e.t), u, src, e.rec.line_id) for e, name, u in rows]
