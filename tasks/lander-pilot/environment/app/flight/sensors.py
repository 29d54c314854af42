"""Sensor readings (FLIGHT.md §3).

Any of x, y, vx, vy may be null in an observation: the sensor dropped out for that step. A dropped
reading carries no information: the estimator must skip the correction for that component. It is
not a zero.
"""
from .protocol import OBS_KEYS


class Reading:
    """One observation: `values[k]` is a float, or None when sensor k dropped out."""

    def __init__(self, msg):
        self.step = msg.get("step")
        self.fuel = msg.get("fuel")
        self.values = {}
        for key in OBS_KEYS:
            v = msg.get(key)
            self.values[key] = None if v is None else float(v)

    def has(self, key):
        return self.values[key] is not None

    def get(self, key):
        return self.values[key]

    def complete(self):
        """True when every sensor reported this step."""
        return all(self.has(k) for k in OBS_KEYS)


class FixTracker:
    """The first full fix: the filter starts from the first observation where every sensor reported
    (§3.2). Until then the pilot hovers upright."""

    def __init__(self):
        self.fixed = False

    def update(self, reading):
        if not self.fixed:
            self.fixed = True
            return True
        return False
