"""Content-defined chunking with a polynomial rolling hash (docs/FORMAT.md section 2)."""
import hashlib

WINDOW = 16
PRIME = 1000003
MASK = 0xFF
MIN_SIZE = 256
MAX_SIZE = 1024
MOD = 1 << 32
# PRIME ** WINDOW: the weight of the byte that leaves the window
OUT_WEIGHT = pow(PRIME, WINDOW, MOD)


def chunk_id(data):
    return hashlib.sha256(data).hexdigest()


def boundaries(data):
    """End offsets (exclusive) of the chunks of data, in order."""
    n = len(data)
    cuts = []
    start = 0
    h = 0
    for i in range(n):
        h = (h * PRIME + data[i]) % MOD
        if i - WINDOW >= start:
            h = (h - data[i - WINDOW] * OUT_WEIGHT) % MOD
        length = i - start + 1
        if length >= MAX_SIZE or (length >= MIN_SIZE and (h & MASK) == 0):
            cuts.append(i + 1)
            start = i + 1
            h = 0
    if start < n:
        cuts.append(n)
    return cuts


def split(data):
    """[(offset, bytes)] of the chunks of data."""
    out = []
    start = 0
    for end in boundaries(data):
        out.append((start, data[start:end]))
        start = end
    return out
