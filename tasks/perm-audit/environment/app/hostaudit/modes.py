"""Mode strings of the listing: T:OOOO or ls -l style."""


def parse_mode(m):
    """Returns (type, bits): type '-' file, 'd' directory, 'l' symlink; bits incl. 07000."""
    if ":" in m:
        t, o = m.split(":")
        return {"f": "-", "d": "d", "l": "l"}[t], int(o, 8)
    t, s = m[0], m[1:]
    bits = 0
    for i, (r, w, x) in enumerate([s[0:3], s[3:6], s[6:9]]):
        sh = 6 - 3 * i
        bits |= (r == "r") << (sh + 2) | (w == "w") << (sh + 1) | (x in "xst") << sh
        if x == "s" and i < 2:
            bits |= 0o4000 if i == 0 else 0o2000
        if x == "t" and i == 2:
            bits |= 0o1000
    return t, bits
