"""Seeded event logs: small edge-case-heavy ones and large ones."""
import csv, io

EVENTS = ["view", "click", "search", "add_to_cart", "checkout", "login", "logout", "scroll"]
NAMES = ["ana", "Bo", "chen", "dana", "émile", "zoë", "Øystein", "li_wei", "O'Neil", "yusuf", "Ana", "ana2"]


def build(rng, kind):
    """kind: small | ties | large. Returns CSV bytes."""
    if kind == "large":
        nu, n = rng.randint(1000, 1600), rng.randint(30000, 45000)
        users = ["u%05d" % rng.randint(0, 99999) for _ in range(nu)]
    else:
        nu, n = rng.randint(3, 8), rng.randint(20, 60)
        users = rng.sample(NAMES, nu)
    t0 = 1_760_000_000 + rng.randint(0, 10 ** 6)
    rows = []
    clock = {u: t0 + rng.randint(0, 7200) for u in users}
    for _ in range(n):
        u = rng.choice(users)
        r = rng.random()
        if kind == "ties" and r < 0.25:
            step = 1800  # exactly on the gap: same session
        elif kind == "ties" and r < 0.35:
            step = 1801
        elif kind == "ties" and r < 0.55:
            step = 0
        else:
            step = rng.choice([rng.randint(1, 600), rng.randint(1, 1700), rng.randint(1700, 1900), rng.randint(2000, 20000)])
        clock[u] += step
        ts = clock[u]
        tss = str(ts) if rng.random() < 0.8 else "%d.%d" % (ts, rng.randint(0, 9))
        ev = rng.choice(EVENTS[:3] if kind == "ties" else EVENTS)
        rows.append([(" " + u) if rng.random() < 0.05 else u, tss, ev])
    # Shuffle lightly (logs arrive out of order) but keep some same-timestamp runs in input order.
    for _ in range(len(rows) // 3):
        i, j = rng.randrange(len(rows)), rng.randrange(len(rows))
        rows[i], rows[j] = rows[j], rows[i]
    if kind != "large":
        rows.insert(rng.randint(0, len(rows)), ["", "", ""])
    b = io.StringIO()
    w = csv.writer(b, lineterminator="\n")
    w.writerow(["user", "ts", "event"])
    w.writerows(rows)
    return b.getvalue().encode("utf-8")
