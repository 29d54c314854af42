"""Field parsing: missing-value tokens and numbers (SPEC.md section 3)."""

MISSING = {"", "nan", "na", "n/a", "-999", "-999.0", "-999.00", "null"}


def number(text):
    """A float, or None for a missing-value token."""
    if text is None:
        return None
    t = text.strip()
    if t.lower() in MISSING:
        return None
    return float(t)


def status(text):
    v = number(text)
    return None if v is None else int(round(v))


POWER_SCALE = {"kw": 1.0, "mw": 1000.0}
