"""Missing-value tokens and numbers as the loggers write them."""

MISSING_TOKENS = {"", "na", "n/a", "nan", "null", "m", "-9999", "-999.9"}


def is_missing(text):
    return (text or "").strip().strip('"').strip().lower() in MISSING_TOKENS


def parse_number(text, decimal_comma=False):
    t = (text or "").strip().strip('"').strip()
    if decimal_comma:
        t = t.replace(",", ".")
    return float(t)
