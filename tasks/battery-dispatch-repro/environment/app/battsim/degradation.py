"""Throughput counting and equivalent full cycles."""
from .timeseries import DT_H


def monthly_throughput(steps):
    out = {}
    for s in steps:
        m = s.interval.month
        out[m] = out.get(m, 0.0) + s.discharge_kw * DT_H
    return out


def cycles(throughput_kwh, battery):
    return throughput_kwh / battery.capacity
