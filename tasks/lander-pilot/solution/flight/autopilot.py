"""One episode of the pilot (FLIGHT.md §4)."""
from . import guidance, throttle
from .estimator import Filter
from .protocol import Limits, messages, send
from .sensors import FixTracker, Reading
from .wind import WindEstimator


class Autopilot:
    def __init__(self, init):
        self.limits = Limits(init)
        self.wind = WindEstimator()
        self.filter = Filter(self.wind)
        self.fix = FixTracker()
        self.last_accel = (0.0, 0.0)

    def answer(self, msg):
        """(thrust, angle) for one obs message."""
        L = self.limits
        reading = Reading(msg)
        if not self.fix.fixed:
            if not self.fix.update(reading):
                return L.hover_thrust(), 0.0  # no full fix yet: hover upright (§3.2)
            self.filter.start(reading)
        else:
            self.filter.step(reading, self.last_accel, L.dt)
        x, y, vx, vy = self.filter.est.as_tuple()
        vx_des = guidance.lateral_target(L, x)
        phase, vy_des = guidance.vertical_target(L, x, y)
        ax, ay = throttle.desired_accel(L, vx_des, vy_des, vx, vy, self.wind.value, phase)
        thrust, angle = throttle.command(L, ax, ay, y)
        self.last_accel = throttle.applied_accel(L, thrust, angle)
        return thrust, angle


def fly(stdin=None, stdout=None):
    pilot = None
    for msg in messages(stdin):
        kind = msg.get("type")
        if kind == "init":
            pilot = Autopilot(msg)
        elif kind == "obs" and pilot is not None:
            send(*pilot.answer(msg), stream=stdout)
        elif kind == "end":
            break
