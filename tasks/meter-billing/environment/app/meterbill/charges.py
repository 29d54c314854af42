"""Charge lines of one account (BILLING.md section 4): energy by band or block, standing charges."""
from .money import cents, kwh
from .tariff import band_of, in_force


class Line:
    def __init__(self, kind, version, item, quantity, rate, amount):
        self.kind = kind          # energy / standing / export
        self.version = version    # the tariff version's "from" date, "" for export
        self.item = item          # band name, block1.., days, export
        self.quantity = quantity  # Wh (energy, export) or days (standing)
        self.rate = rate
        self.amount = amount


def days_per_version(period, versions):
    counts = {}
    for day in period.days():
        v = in_force(versions, day)
        counts[v.label] = counts.get(v.label, 0) + 1
    return counts


def block_split(version, wh, seg_days, period_days):
    """Wh of a segment into its blocks."""
    out = []
    used = 0
    for upto, rate in version.blocks:
        if upto is None:
            take = wh - used
        else:
            cap = int(upto * 1000)
            take = max(0, min(wh, cap) - used)
        out.append((take, rate))
        used += take
    return out


def energy_lines(period, versions, usage):
    by_band = {}
    by_version = {}
    rates = {}
    for slot in sorted(usage):
        wh = usage[slot]
        local = period.local(slot)
        v = in_force(versions, local.date())
        if v.kind == "tou":
            band = band_of(v, local, period.holidays)
            key = (v.label, band["name"])
            by_band[key] = by_band.get(key, 0) + wh
            rates[key] = band["rate"]
        else:
            by_version[v.label] = (v, by_version.get(v.label, (v, 0))[1] + wh)
    lines = []
    for key in sorted(by_band):
        wh = by_band[key]
        if wh:
            lines.append(Line("energy", key[0], key[1], wh, rates[key], cents(kwh(wh) * rates[key])))
    counts = days_per_version(period, versions)
    total_days = len(period.days())
    for label in sorted(by_version):
        v, wh = by_version[label]
        for i, (take, rate) in enumerate(block_split(v, wh, counts.get(label, 0), total_days), 1):
            if take:
                lines.append(Line("energy", label, "block%d" % i, take, rate, cents(kwh(take) * rate)))
    return lines


def standing_lines(period, versions):
    lines = []
    by_label = {v.label: v for v in versions}
    for label, n in sorted(days_per_version(period, versions).items()):
        rate = by_label[label].standing
        lines.append(Line("standing", label, "days", n, rate, cents(n * rate)))
    return lines
