"""Results-table requests on top of extract (SPEC section 4). Work in progress."""
import os

from .extract import extract


class Figures:
    def __init__(self, folder):
        self.folder, self.cache = folder, {}

    def get(self, name):
        if name not in self.cache:
            self.cache[name] = extract(os.path.join(self.folder, name))
        return self.cache[name]


def evaluate(fig, req):
    op, ser = req["op"], fig["series"]
    if op == "value":
        i = fig["x"].index(req["x"])
        return ser[req["series"]][i]
    if op == "mean":
        vals = [v for x, v in zip(fig["x"], ser[req["series"]]) if req["from"] < x < req["to"]]
        return sum(vals) / len(vals)
    if op == "bar":
        return ser[req["series"]][req["category"]]
    # TODO: crossing, count, bar_sum
    raise NotImplementedError(op)


def table(folder, requests):
    figs = Figures(folder)
    return {req["id"]: evaluate(figs.get(req["figure"]), req) for req in requests}
