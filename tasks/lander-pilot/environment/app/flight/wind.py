"""Horizontal disturbance estimate (FLIGHT.md §4.3).

The wind is a steady horizontal acceleration of unknown sign plus gusts. Every step the estimate
moves by a fraction of the horizontal velocity innovation (measured minus predicted vx) per second,
and is clamped to +-WIND_LIMIT.
"""

WIND_GAIN = 0.02  # per step, on innovation / dt
WIND_LIMIT = 2.0  # m/s^2


def clamp(v, lo, hi):
    return max(lo, min(hi, v))


class WindEstimator:
    def __init__(self):
        self.value = 0.0

    def update(self, innovation_vx, dt):
        """innovation_vx: measured minus predicted vx, or None when vx dropped out (no update)."""
        if innovation_vx is None:
            return self.value
        self.value += WIND_GAIN * innovation_vx / dt
        self.value = clamp(self.value, 0.0, WIND_LIMIT)
        return self.value
