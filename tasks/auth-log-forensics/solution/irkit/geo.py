"""GeoIP table (longest-prefix match) and great-circle distance."""
import csv
import ipaddress
import math
import os


class GeoTable:
    def __init__(self, path):
        self.nets = []
        if os.path.exists(path):
            with open(path, newline="", encoding="utf-8") as f:
                for r in csv.DictReader(f):
                    self.nets.append((ipaddress.ip_network(r["network"].strip(), strict=False), r["country"].strip(),
                                      float(r["lat"]), float(r["lon"])))

    def lookup(self, addr):
        a = ipaddress.ip_address(addr)
        best = None
        for net, cc, la, lo in self.nets:
            if net.version == a.version and a in net and (best is None or net.prefixlen > best[0].prefixlen):
                best = (net, cc, la, lo)
        return None if best is None else best[1:]


def km(p, q):
    la1, lo1, la2, lo2 = map(math.radians, (p[1], p[2], q[1], q[2]))
    h = math.sin((la2 - la1) / 2) ** 2 + math.cos(la1) * math.cos(la2) * math.sin((lo2 - lo1) / 2) ** 2
    return 2 * 6371.0 * math.asin(math.sqrt(h))
