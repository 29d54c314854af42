"""Code 128, code sets B and C (SPEC section 4)."""

PATTERNS = ("212222 222122 222221 121223 121322 131222 122213 122312 132212 221213 221312 231212 "
            "112232 122132 122231 113222 123122 123221 223211 221132 221231 213212 223112 312131 "
            "311222 321122 321221 312212 322112 322211 212123 212321 232121 111323 131123 131321 "
            "112313 132113 132311 211313 231113 231311 112133 112331 132131 113123 113321 133121 "
            "313121 211331 231131 213113 213311 213131 311123 311321 331121 312113 312311 332111 "
            "314111 221411 431111 111224 111422 121124 121421 141122 141221 112214 112412 122114 "
            "122411 142112 142211 241211 221114 413111 241112 134111 111242 121142 121241 114212 "
            "124112 124211 411212 421112 421211 212141 214121 412121 111143 111341 131141 114113 "
            "114311 411113 411311 113141 114131 311141 411131 211412 211214 211232").split()
VALUE = {tuple(int(c) for c in p): v for v, p in enumerate(PATTERNS)}
STOP = (2, 3, 3, 1, 1, 1, 2)
START_B, START_C = 104, 105
CODE_B, CODE_C = 100, 99
MAX_CHARS = 60


def _norm(ws, modules):
    total = float(sum(ws))
    return tuple(int(round(w * modules / total)) for w in ws)


def checksum(values):
    """values: start, data values; the check value they call for."""
    return (values[0] + sum(k * v for k, v in enumerate(values[1:]))) % 103


def to_text(start, data):
    """Text of the data values, or None if a value is not allowed in its code set."""
    base = "B" if start == START_B else "C"
    cset = base
    out = []
    for v in data:
        if cset == "C":
            cset = base
            if v < 100:
                out.append(str(v))
            elif v == CODE_B:
                cset = "B"
            else:
                return None
        else:
            cset = base
            if v < 95:
                out.append(chr(v + 32))
            elif v == CODE_C:
                cset = "C"
            else:
                return None
    return "".join(out)


def read_at(runs, i):
    """Decode a Code 128 symbol whose start character begins at runs[i]."""
    if i + 6 > len(runs):
        return None
    start = VALUE.get(_norm([w for _, w in runs[i:i + 6]], 11))
    if start not in (START_B, START_C):
        return None
    values = [start]
    pos = i + 6
    while len(values) <= MAX_CHARS:
        if pos + 7 <= len(runs) and _norm([w for _, w in runs[pos:pos + 7]], 13) == STOP:
            break
        if pos + 6 > len(runs):
            return None
        v = VALUE.get(_norm([w for _, w in runs[pos:pos + 6]], 11))
        if v is None or v >= 103:
            return None
        values.append(v)
        pos += 6
    else:
        return None
    if len(values) < 3:
        return None
    data, check = values[1:-1], values[-1]
    text = to_text(start, data)
    if text is None:
        return None
    valid = checksum(values[:-1]) == check
    return pos + 6, 11 * len(values) + 13, ("code128", text, valid)
