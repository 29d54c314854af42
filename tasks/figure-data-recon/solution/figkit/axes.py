"""Plot frame, tick marks, tick labels and the pixel <-> value calibration of each axis."""
import math

from .font import is_ink, read_line


class FigureError(ValueError):
    pass


def is_black(img, x, y):
    return is_ink(img, x, y)


def find_frame(img):
    """The plot frame: the top and bottom rows whose longest black run covers half the width."""
    rows, w, half = [], img.width, b"\x01" * (img.width // 2)
    for y in range(img.height):
        row = img.ink[y * w:(y + 1) * w]
        at = row.find(half)
        if at >= 0:
            end = at
            while end + 1 < w and row[end + 1] == 1:
                end += 1
            rows.append((y, (at, end)))
    if len(rows) < 2:
        raise FigureError("no plot frame found")
    (top, (x0, x1)), (bottom, _) = rows[0], rows[-1]
    # a tick on the top row lengthens its run: the frame's sides are the columns black top to bottom
    sides = [x for x in range(x0, x1 + 1) if all(is_black(img, x, y) for y in range(top, bottom + 1))]
    if len(sides) < 2:
        raise FigureError("no plot frame sides found")
    return sides[0], top, sides[-1], bottom


class Axis:
    """value = g^-1(a + b * pixel), g = identity or log10."""

    def __init__(self, log, a, b):
        self.log, self.a, self.b = log, a, b

    def value(self, p):
        g = self.a + self.b * p
        return 10 ** g if self.log else g

    def pixel(self, v):
        g = math.log10(v) if self.log else v
        return (g - self.a) / self.b


def parse_number(text):
    return float(text)


def calibrate(pairs):
    """pairs: (pixel, value) per labelled tick. Log when the values are not evenly spaced."""
    if len(pairs) < 2:
        raise FigureError("fewer than two labelled ticks")
    pairs = sorted(pairs)
    vals = [v for _, v in pairs]
    pix = [p for p, _ in pairs]
    steps = [(vals[i + 1] - vals[i]) / (pix[i + 1] - pix[i]) for i in range(len(pairs) - 1)]
    linear = all(abs(s - steps[0]) <= 1e-9 * max(abs(steps[0]), 1e-300) for s in steps)
    log = not linear and all(v > 0 for v in vals)
    g = [math.log10(v) if log else v for v in vals]
    n = len(pix)
    mp, mg = sum(pix) / n, sum(g) / n
    b = sum((p - mp) * (q - mg) for p, q in zip(pix, g)) / sum((p - mp) ** 2 for p in pix)
    return Axis(log, mg - b * mp, b)


def detect_scale(img, y_center, x_lo, x_hi):
    for s in (2, 1):
        words = read_line(img, y_center - 3 * s, x_lo, x_hi, s)
        if words:
            return s
    raise FigureError("cannot read the tick label at row %d" % y_center)


def y_axis(img, frame):
    left, top, right, bottom = frame
    ticks = [y for y in range(top, bottom + 1) if is_black(img, left - 2, y) and is_black(img, left - 4, y)]
    if not ticks:
        raise FigureError("no y ticks")
    s = detect_scale(img, ticks[0], 0, left - 5)
    pairs = []
    for y in ticks:
        words = read_line(img, y - 3 * s, 0, left - 5, s)
        if not words:
            raise FigureError("unreadable y label at row %d" % y)
        pairs.append((y, parse_number(words[-1][1])))
    return calibrate(pairs), s


def x_axis(img, frame, s):
    left, top, right, bottom = frame
    ticks = [x for x in range(left, right + 1) if is_black(img, x, bottom + 2) and is_black(img, x, bottom + 4)]
    words = read_line(img, bottom + 8, 0, img.width - 1, s) or []
    pairs = []
    for x in ticks:
        best = None
        for wx, text in words:
            centre = wx + (len(text) * 6 * s - s - 1) / 2
            if best is None or abs(centre - x) < abs(best[0] - x):
                best = (centre, text)
        if best is None or abs(best[0] - x) > 1:
            raise FigureError("no label under the x tick at column %d" % x)
        pairs.append((x, parse_number(best[1])))
    return calibrate(pairs)
