"""Auditing released claims (SPEC.md section 10, `audit`)."""
import csv
import json
import os

from . import io, metrics, temperature

T_TOL, V_TOL = 5e-4, 1e-4
BINNED = ("ece", "ace", "cwece")


class Cache:
    def __init__(self, root):
        self.root = root
        self.files = {}
        self.temps = {}
        self.values = {}

    def rows(self, rel):
        if rel not in self.files:
            self.files[rel] = io.read_logits(os.path.join(self.root, rel))
        return self.files[rel]

    def temp(self, rel, split):
        key = (rel, split)
        if key not in self.temps:
            self.temps[key] = temperature.fit(self.rows(rel).select(split))
        return self.temps[key]

    def value(self, rel, split, bins, t, metric):
        key = (rel, split, bins, t)
        if key not in self.values:
            self.values[key] = metrics.evaluate(self.rows(rel).select(split), bins, t)
        return self.values[key][metric]


def audit(root, out_csv):
    with open(os.path.join(root, "protocol.json"), encoding="utf-8") as f:
        bins = int(json.load(f)["bins"])
    with open(os.path.join(root, "claims.csv"), newline="", encoding="utf-8") as f:
        claims = list(csv.DictReader(f))
    cache = Cache(root)
    out = ["claim,verdict,reasons"]
    for c in claims:
        rel, metric = c["logits"].strip(), c["metric"].strip()
        codes = []
        t = 1.0
        if c["scaling"].strip() == "temperature":
            t = float(c["temperature"])
            if abs(t - cache.temp(rel, "val")) > T_TOL:
                codes.append("test_fit" if abs(t - cache.temp(rel, "test")) <= T_TOL else "temperature")
        v = float(c["value"])
        if abs(v - cache.value(rel, "test", bins, t, metric)) > V_TOL:
            if abs(v - cache.value(rel, "val", bins, t, metric)) <= V_TOL:
                codes.append("split")
            elif metric in BINNED and any(abs(v - cache.value(rel, "test", b, t, metric)) <= V_TOL
                                          for b in range(5, 31) if b != bins):
                codes.append("bins")
            else:
                codes.append("value")
        codes.sort()
        out.append("%s,%s,%s" % (c["claim"].strip(), "fail" if codes else "pass", ";".join(codes)))
    with open(out_csv, "w", encoding="utf-8") as f:
        f.write("\n".join(out) + "\n")
