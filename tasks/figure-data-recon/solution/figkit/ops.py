"""Stage 2 (results table) and stage 3 (claims audit) on top of extract (SPEC sections 4 and 5)."""
import os

from .extract import extract

KIND_OF = {"value": "line", "mean": "line", "crossing": "line", "count": "scatter", "bar": "bar", "bar_sum": "bar"}
REL_TOL = 0.05


class Figures:
    def __init__(self, folder):
        self.folder, self.cache = folder, {}

    def get(self, name):
        if name not in self.cache:
            self.cache[name] = extract(os.path.join(self.folder, name))
        return self.cache[name]


def series_names(req):
    return [req["a"], req["b"]] if req["op"] == "crossing" else [req["series"]]


def first_crossing(xs, a, b):
    d = [p - q for p, q in zip(a, b)]
    for i in range(len(d)):
        if d[i] == 0:
            return xs[i]
        if i + 1 < len(d) and d[i] * d[i + 1] < 0:
            return xs[i] + (xs[i + 1] - xs[i]) * d[i] / (d[i] - d[i + 1])
    return None


def evaluate(fig, req):
    op, ser = req["op"], fig["series"]
    if op == "value":
        i = min(range(len(fig["x"])), key=lambda j: abs(fig["x"][j] - req["x"]))
        return ser[req["series"]][i]
    if op == "mean":
        vals = [v for x, v in zip(fig["x"], ser[req["series"]]) if req["from"] <= x <= req["to"]]
        return sum(vals) / len(vals) if vals else None
    if op == "crossing":
        return first_crossing(fig["x"], ser[req["a"]], ser[req["b"]])
    if op == "count":
        return sum(1 for _, y in ser[req["series"]] if req["y_min"] <= y <= req["y_max"])
    if op == "bar":
        return ser[req["series"]][req["category"] - 1]
    if op == "bar_sum":
        return sum(ser[req["series"]])
    raise ValueError("unknown op %r" % op)


def table(folder, requests):
    figs = Figures(folder)
    return {req["id"]: evaluate(figs.get(req["figure"]), req) for req in requests}


def verdict(fig, claim):
    if KIND_OF.get(claim["op"]) != fig["kind"]:
        return "kind_mismatch", None
    if any(n not in fig["series"] for n in series_names(claim)):
        return "unknown_series", None
    got, said = evaluate(fig, claim), claim.get("claimed")
    if claim["op"] == "crossing" and got is None:
        return ("ok" if said is None else "no_crossing"), None
    if said is None or got is None:
        return "mismatch", got
    if claim["op"] == "count":
        return ("ok" if int(said) == got else "mismatch"), got
    return ("ok" if abs(said - got) <= REL_TOL * abs(got) else "mismatch"), got


def audit(folder, claims):
    figs = Figures(folder)
    rows = []
    for c in sorted(claims, key=lambda c: c["id"]):
        reason, got = verdict(figs.get(c["figure"]), c)
        rows.append({"id": c["id"], "reason": reason, "measured": got})
    return rows
