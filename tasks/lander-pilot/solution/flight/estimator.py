"""Alpha-beta state filter (FLIGHT.md §4.1-4.2).

Predict: the velocity moves by the commanded acceleration of the previous answer (plus the wind
estimate horizontally) times dt, then the position moves by the predicted velocity times dt (the
simulator's semi-implicit Euler). Correct: each component that reported moves towards its reading
by a fixed gain; a dropped component keeps its prediction.
"""

VEL_GAIN = 0.25
POS_GAIN = 0.2


class StateEstimate:
    def __init__(self, reading):
        self.x = reading.get("x")
        self.y = reading.get("y")
        self.vx = reading.get("vx")
        self.vy = reading.get("vy")

    def as_tuple(self):
        return self.x, self.y, self.vx, self.vy


def _blend(pred, measured, gain):
    if measured is None:
        return pred
    return pred + gain * (measured - pred)


class Filter:
    def __init__(self, wind):
        self.est = None
        self.wind = wind

    def start(self, reading):
        self.est = StateEstimate(reading)

    def step(self, reading, command_accel, dt):
        """command_accel: (ax, ay) the last answer commands, gravity included in ay."""
        e = self.est
        pvx = e.vx + (command_accel[0] + self.wind.value) * dt
        pvy = e.vy + command_accel[1] * dt
        px = e.x + pvx * dt
        py = e.y + pvy * dt
        mvx = reading.get("vx")
        innovation = None if mvx is None else mvx - pvx
        e.vx = _blend(pvx, mvx, VEL_GAIN)
        e.vy = _blend(pvy, reading.get("vy"), VEL_GAIN)
        e.x = _blend(px, reading.get("x"), POS_GAIN)
        e.y = _blend(py, reading.get("y"), POS_GAIN)
        self.wind.update(innovation, dt)
        return e
