"""Hidden archives by construction: the logical content (station, channels, records as integer raw
readings) is planned first, then rendered to bytes by this module's own writer. The expected decode
is the plan itself (minus the records of chunks this module corrupts or cuts off); the expected
bytes of an `encode` are this writer's version-1 rendering of the plan."""
import json
import zlib
from decimal import Decimal

CHANNELS = [
    ("air_temp", "degC", -2, (-1500, 3500), 40),
    ("rel_hum", "%", -1, (50, 1000), 25),
    ("pressure", "hPa", -1, (9500, 10400), 8),
    ("wind_speed", "m/s", -2, (0, 2500), 120),
    ("wind_dir", "deg", 0, (0, 359), 40),
    ("rain", "mm", -3, (0, 8000), 900),
    ("batt_v", "V", -3, (11000, 14200), 60),
    ("solar", "W/m2", 0, (0, 1100), 150),
    ("soil_temp_10", "degC", -2, (-500, 2800), 15),
    ("soil_temp_20", "degC", -2, (-300, 2500), 10),
    ("soil_moist", "m3/m3", -3, (50, 550), 9),
    ("snow_depth", "cm", -1, (0, 3000), 30),
]
STATUSES = ["OK", "OK", "OK", "OK", "OK_LOWBAT", "MAINT", "GUST", "SENSOR_FAIL", "SENSOR_RESET", "CAL"]
STATIONS = ["KX-104", "KX-219", "Alp-Nord 3", "Zürich-Fluntern", "Pointe-à-Pitre B", "MAWSON_AWS", "Ørland 2",
            "Tromsø-Holt", "DL7-0042", "São Gabriel"]
NOTES = ["battery swapped", "mast re-levelled after storm", "firmware 4.2.1", "rain gauge cleaned",
         "clock synced to GPS", "sensor head replaced — check offsets"]


# ---- byte-level writer --------------------------------------------------------------------------

def leb(value):
    """Unsigned LEB128."""
    if value < 0:
        raise ValueError("negative unsigned varint")
    out = bytearray()
    while True:
        low = value & 0x7F
        value >>= 7
        out.append(low | (0x80 if value else 0))
        if not value:
            return bytes(out)


def zz(value):
    """Zigzag, then LEB128."""
    return leb(2 * value if value >= 0 else -2 * value - 1)


def text(s):
    raw = s.encode("utf-8")
    return leb(len(raw)) + raw


def frame(tag, body):
    """One chunk: tag, body length, body, CRC-32 of tag + body (big-endian)."""
    crc = zlib.crc32(tag + body) & 0xFFFFFFFF
    return tag + leb(len(body)) + body + crc.to_bytes(4, "big")


def first_use_strings(plan):
    seen = []
    for name, unit, _ in plan["channels"]:
        for s in (name, unit):
            if s not in seen:
                seen.append(s)
    for r in plan["records"]:
        if r[1] not in seen:
            seen.append(r[1])
    return seen


def front_coded(strings):
    body, prev = bytearray(leb(len(strings))), b""
    for s in strings:
        cur = s.encode("utf-8")
        k = 0
        while k < min(len(prev), len(cur)) and prev[k] == cur[k]:
            k += 1
        body += leb(k) + leb(len(cur) - k) + cur[k:]
        prev = cur
    return bytes(body)


def head_body(plan, index):
    body = bytearray(text(plan["station"]) + leb(plan["start"]) + leb(len(plan["channels"])))
    for name, unit, exp in plan["channels"]:
        body += leb(index[name]) + leb(index[unit]) + zz(exp)
    return bytes(body)


def v1_block(recs, index, nchan):
    body = bytearray(leb(len(recs)) + leb(recs[0][0]))
    body += b"".join(leb(recs[i][0] - recs[i - 1][0]) for i in range(1, len(recs)))
    body += b"".join(leb(index[r[1]]) for r in recs)
    for c in range(nchan):
        col = [r[2][c] for r in recs]
        body += zz(col[0]) + b"".join(zz(col[i] - col[i - 1]) for i in range(1, len(col)))
    return bytes(body)


def v2_block(recs, index, nchan):
    body = bytearray(leb(len(recs)) + leb(recs[0][0]))
    body += b"".join(zz(recs[i][0] - recs[i - 1][0]) for i in range(1, len(recs)))
    body += b"".join(leb(index[r[1]]) for r in recs)
    for c in range(nchan):
        mask = bytearray((len(recs) + 7) // 8)
        vals, last = bytearray(), None
        for i, r in enumerate(recs):
            v = r[2][c]
            if v is None:
                continue
            mask[i // 8] |= 1 << (i % 8)
            vals += zz(v if last is None else v - last)
            last = v
        body += mask + vals
    return bytes(body)


def render(plan):
    """The archive's chunks as a list of (tag, bytes); plan["blocks"] gives the record split."""
    v = plan["version"]
    if v == 1:
        strings = first_use_strings(plan)
        strs = leb(len(strings)) + b"".join(text(s) for s in strings)
    else:
        strings = sorted(set(first_use_strings(plan)), key=lambda s: s.encode("utf-8"))
        strs = front_coded(strings)
    index = {s: i for i, s in enumerate(strings)}
    nchan = len(plan["channels"])
    chunks = [(b"STRS", frame(b"STRS", strs)), (b"HEAD", frame(b"HEAD", head_body(plan, index)))]
    at, notes = 0, dict(plan.get("notes", {}))
    for bi, size in enumerate(plan["blocks"]):
        if bi in notes:
            chunks.append((b"NOTE", frame(b"NOTE", text(notes[bi]))))
        recs = plan["records"][at:at + size]
        at += size
        if v == 1:
            chunks.append((b"DATA", frame(b"DATA", v1_block(recs, index, nchan))))
        else:
            chunks.append((b"DAT2", frame(b"DAT2", v2_block(recs, index, nchan))))
    chunks.append((b"END ", frame(b"END ", leb(len(plan["records"])))))
    return chunks


def v1_bytes(plan):
    """What the legacy writer produces for a plan: version 1, blocks of 32 records."""
    n = len(plan["records"])
    p = dict(plan, version=1, blocks=[min(32, n - i) for i in range(0, n, 32)], notes={})
    return b"KLA\x01" + b"".join(c for _, c in render(p))


# ---- planning -----------------------------------------------------------------------------------

def plan_archive(rng, version, nrec, *, missing=0.0, step_back=False, notes=False, station=None):
    nchan = rng.randint(3, 6)
    picks = rng.sample(range(len(CHANNELS)), nchan)
    # Every archive has a -3 exponent channel (the old report's two decimals lose its last digit).
    if not any(CHANNELS[i][2] == -3 for i in picks):
        picks[0] = rng.choice([i for i, c in enumerate(CHANNELS) if c[2] == -3])
    chans = [CHANNELS[i] for i in picks]
    start = rng.randint(1_600_000_000, 1_790_000_000)
    t = start + rng.randint(0, 7200)
    step = rng.choice([60, 300, 600, 900])
    cur = [rng.randint(lo, hi) for _, _, _, (lo, hi), _ in chans]
    records = []
    for i in range(nrec):
        if i:
            dt = step if rng.random() < 0.85 else rng.randint(1, 5 * step)
            if rng.random() < 0.03:
                dt = rng.randint(20000, 400000)       # an outage: a multi-byte delta
            if step_back and rng.random() < 0.06:
                dt = -rng.randint(1, 3 * step)        # a clock correction steps back
            t += dt
        vals = []
        for c, (_, _, _, (lo, hi), jump) in enumerate(chans):
            d = rng.randint(-jump, jump)
            if rng.random() < 0.04:
                d = rng.choice([-1, 1]) * rng.randint(max(100, 5 * jump), 60 * jump)   # a jump: multi-byte delta
            span = (hi - lo) // 4
            cur[c] = max(lo - span, min(hi + span, cur[c] + d))
            vals.append(None if missing and rng.random() < missing else cur[c])
        if missing and i % 11 == 5:
            vals[rng.randrange(nchan)] = None
        records.append([t, rng.choice(STATUSES), vals])
    if version == 1:
        blocks = [min(32, nrec - i) for i in range(0, nrec, 32)]
    else:
        # Flushes vary; one block holds a multiple of 8 readings (its bitmaps end on a byte edge).
        first = min(nrec, rng.choice([8, 16, 24, 32]))
        blocks, left = [first], nrec - first
        while left > 0:
            b = min(left, rng.randint(9, 40))
            blocks.append(b)
            left -= b
        blocks = rng.sample(blocks, len(blocks))
    plan = {"version": version, "station": station or rng.choice(STATIONS), "start": start,
            "channels": [(n, u, e) for n, u, e, _, _ in chans], "records": records, "blocks": blocks}
    if notes:
        plan["notes"] = {bi: rng.choice(NOTES) for bi in rng.sample(range(len(blocks)), min(2, len(blocks)))}
    return plan


def data_chunk_indices(chunks):
    return [i for i, (tag, _) in enumerate(chunks) if tag in (b"DATA", b"DAT2")]


def build(plan, rng, corrupt=0, truncate=False, note_corrupt=False):
    """Bytes of the archive and its expected decode. corrupt: how many data chunks get one byte
    flipped (in the body or the stored CRC); truncate: the file is cut inside a late data chunk."""
    chunks = render(plan)
    recs_of, at, k = {}, 0, 0
    for i, (tag, _) in enumerate(chunks):
        if tag in (b"DATA", b"DAT2"):
            recs_of[i] = plan["records"][at:at + plan["blocks"][k]]
            at += plan["blocks"][k]
            k += 1
    data_idx = data_chunk_indices(chunks)
    pool = data_idx[:-1] if truncate else data_idx
    bad = set(rng.sample(pool, min(corrupt, len(pool))))
    if note_corrupt:
        bad |= {i for i, (tag, _) in enumerate(chunks) if tag == b"NOTE"}
    blobs = []
    for i, (tag, c) in enumerate(chunks):
        if i in bad:
            c = bytearray(c)
            head = 5
            while c[head - 1] & 0x80:          # past the tag and the whole length varint
                head += 1
            pos = rng.randint(head, len(c) - 1)
            c[pos] ^= 1 << rng.randint(0, 7)
            c = bytes(c)
        blobs.append(c)
    cut_at = None
    if truncate:
        cut_at = data_idx[-1] if rng.random() < 0.7 else rng.choice(data_idx[len(data_idx) // 2:])
    data = b"KLA" + bytes([plan["version"]])
    kept = []
    for i, c in enumerate(blobs):
        if cut_at is not None and i == cut_at:
            data += c[:rng.randint(0, len(c) - 1)]
            break
        data += c
        kept.append(i)
    records = [r for i in kept if i in recs_of and i not in bad for r in recs_of[i]]
    expected = {
        "version": plan["version"],
        "station": plan["station"],
        "start": plan["start"],
        "channels": [{"name": n, "unit": u, "exp": e} for n, u, e in plan["channels"]],
        "records": records,
        "bad_chunks": sorted([{"index": i, "tag": chunks[i][0].decode()} for i in bad if i in kept],
                             key=lambda b: b["index"]),
        "truncated": cut_at is not None,
        "declared_records": None if cut_at is not None else len(plan["records"]),
    }
    return data, expected


def scaled(raw, exp):
    """The exact decimal literal of raw x 10^exp."""
    if raw is None:
        return "null"
    d = Decimal(raw).scaleb(exp)
    return format(d, "f")


def to_json(exp_doc):
    """The decode document as JSON text, values as exact decimal literals."""
    chans = exp_doc["channels"]
    recs = []
    for t, status, raws in exp_doc["records"]:
        vals = ", ".join(scaled(v, c["exp"]) for v, c in zip(raws, chans))
        recs.append('    {"t": %d, "status": %s, "values": [%s]}' % (t, json.dumps(status, ensure_ascii=False), vals))
    head = {k: exp_doc[k] for k in ("version", "station", "start", "channels")}
    lines = ["{"]
    for k, v in head.items():
        lines.append("  %s: %s," % (json.dumps(k), json.dumps(v, ensure_ascii=False)))
    lines.append('  "records": [')
    lines.append(",\n".join(recs))
    lines.append("  ],")
    tail = {k: exp_doc[k] for k in ("bad_chunks", "truncated", "declared_records")}
    lines.append("  " + ",\n  ".join("%s: %s" % (json.dumps(k), json.dumps(v)) for k, v in tail.items()))
    lines.append("}")
    return "\n".join(lines) + "\n"
