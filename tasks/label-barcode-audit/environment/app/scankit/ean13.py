"""EAN-13 (SPEC section 3)."""

# Widths (space, bar, space, bar) of the L (odd parity) code of each digit.
L_WIDTHS = {(3, 2, 1, 1): 0, (2, 2, 2, 1): 1, (2, 1, 2, 2): 2, (1, 4, 1, 1): 3, (1, 1, 3, 2): 4,
            (1, 2, 3, 1): 5, (1, 1, 1, 4): 6, (1, 3, 1, 2): 7, (1, 2, 1, 3): 8, (3, 1, 1, 2): 9}
# First digit from the parity of the six left digits (L or G).
FIRST_DIGIT = {"LLLLLL": 0, "LLGLGG": 1, "LLGGLG": 2, "LLGGGL": 3, "LGLLGG": 4,
               "LGGLLG": 5, "LGGGLL": 6, "LGLGLG": 8, "LGLGGL": 7, "LGGLGL": 9}
RUNS = 59
MODULES = 95


def _norm(ws, modules):
    total = float(sum(ws))
    return tuple(int(round(w * modules / total)) for w in ws)


def check_digit(digits12):
    s = sum(d * (3 if k % 2 else 1) for k, d in enumerate(digits12))
    return (10 - s % 10) % 10


def read_at(runs, i):
    """Decode an EAN-13 symbol whose start guard is runs[i]: (last run, modules, result) or None."""
    if i + RUNS > len(runs):
        return None
    seg = [w for _, w in runs[i:i + RUNS]]
    x = sum(seg) / float(MODULES)
    for k in list(range(0, 3)) + list(range(27, 32)) + list(range(56, 59)):
        if not 0.5 <= seg[k] / x < 1.5:
            return None
    digits, parity = [], ""
    for n in range(6):
        ws = _norm(seg[3 + 4 * n:7 + 4 * n], 7)
        if ws in L_WIDTHS:
            digits.append(L_WIDTHS[ws])
            parity += "L"
        elif ws[::-1] in L_WIDTHS:
            digits.append(L_WIDTHS[ws[::-1]])
            parity += "G"
        else:
            return None
    for n in range(6):
        ws = _norm(seg[32 + 4 * n:36 + 4 * n], 7)
        if ws not in L_WIDTHS:
            return None
        digits.append(L_WIDTHS[ws])
    if parity not in FIRST_DIGIT:
        return None
    digits = [FIRST_DIGIT[parity]] + digits
    valid = check_digit(digits[:12]) == digits[12]
    return i + RUNS - 1, MODULES, ("ean13", "".join(str(d) for d in digits), valid)
