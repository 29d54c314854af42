"""Small 3-vector helpers on plain lists."""
import math


def dot(a, b):
    return math.fsum(x * y for x, y in zip(a, b))


def norm(a):
    return math.sqrt(dot(a, a))


def cross(a, b):
    return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]


def combine(f, a, g, b):
    """f·a + g·b."""
    return [f * x + g * y for x, y in zip(a, b)]
