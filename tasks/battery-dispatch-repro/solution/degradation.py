"""Throughput counting: energy drawn from storage, equivalent full cycles of the usable window."""


def monthly_throughput(steps):
    out = {}
    for s in steps:
        m = s.interval.month
        out[m] = out.get(m, 0.0) + s.drawn_kwh
    return out


def cycles(throughput_kwh, battery):
    return throughput_kwh / battery.usable if battery.usable > 0 else 0.0
