#!/usr/bin/env python3
"""Decoder and version-1 encoder for DL-7 logger archives (.kla).

    python3 kla.py decode ARCHIVE.kla OUT.json
    python3 kla.py encode IN.json OUT.kla
"""
import json
import sys
import zlib

MAGIC = b"KLA"
BLOCK = 32


class Truncated(Exception):
    pass


class Reader:
    def __init__(self, buf, pos=0):
        self.buf, self.pos = buf, pos

    def byte(self):
        if self.pos >= len(self.buf):
            raise Truncated()
        b = self.buf[self.pos]
        self.pos += 1
        return b

    def take(self, n):
        if self.pos + n > len(self.buf):
            raise Truncated()
        out = self.buf[self.pos:self.pos + n]
        self.pos += n
        return out

    def uvar(self):
        shift = result = 0
        while True:
            b = self.byte()
            result |= (b & 0x7F) << shift
            shift += 7
            if not b & 0x80:
                return result

    def svar(self):
        u = self.uvar()
        return (u >> 1) ^ -(u & 1)

    def string(self):
        return self.take(self.uvar()).decode("utf-8")


def read_chunks(buf):
    """Yields (index, tag, body, crc_ok); stops with truncated=True if the file ends mid-chunk."""
    r = Reader(buf, 4)
    chunks, index = [], 0
    while r.pos < len(buf):
        try:
            tag = r.take(4)
            body = r.take(r.uvar())
            crc = int.from_bytes(r.take(4), "big")
        except Truncated:
            return chunks, True
        chunks.append((index, tag.decode("latin-1"), body, zlib.crc32(tag + body) == crc))
        index += 1
        if tag == b"END ":
            return chunks, False
    return chunks, True


def read_strings(body, version):
    r = Reader(body)
    count = r.uvar()
    out, prev = [], b""
    for _ in range(count):
        if version >= 2:
            keep = r.uvar()
            cur = prev[:keep] + r.take(r.uvar())
        else:
            cur = r.take(r.uvar())
        out.append(cur.decode("utf-8"))
        prev = cur
    return out


def read_head(body, strings):
    r = Reader(body)
    station = r.string()
    start = r.uvar()
    chans = []
    for _ in range(r.uvar()):
        name, unit, exp = strings[r.uvar()], strings[r.uvar()], r.svar()
        chans.append({"name": name, "unit": unit, "exp": exp})
    return station, start, chans


def scale(raw, exp):
    if raw is None:
        return None
    if exp >= 0:
        return raw * 10 ** exp
    return raw / 10 ** (-exp)


def read_block(body, strings, chans, v2):
    r = Reader(body)
    n = r.uvar()
    times = [r.uvar()]
    for _ in range(n - 1):
        times.append(times[-1] + (r.svar() if v2 else r.uvar()))
    status = [strings[r.uvar()] for _ in range(n)]
    columns = []
    for _ in chans:
        if v2:
            bits = r.take((n + 7) // 8)
            present = [bool(bits[i // 8] >> (i % 8) & 1) for i in range(n)]
        else:
            present = [True] * n
        col, last = [], None
        for i in range(n):
            if not present[i]:
                col.append(None)
                continue
            d = r.svar()
            last = d if last is None else last + d
            col.append(last)
        columns.append(col)
    return [{"t": times[i], "status": status[i],
             "values": [scale(columns[c][i], ch["exp"]) for c, ch in enumerate(chans)]} for i in range(n)]


def decode(buf):
    if buf[:3] != MAGIC:
        raise SystemExit("not a KLA archive")
    version = buf[3]
    chunks, truncated = read_chunks(buf)
    strings, station, start, chans = [], None, None, []
    records, bad, declared = [], [], None
    for index, tag, body, ok in chunks:
        if not ok:
            bad.append({"index": index, "tag": tag})
            continue
        if tag == "STRS":
            strings = read_strings(body, version)
        elif tag == "HEAD":
            station, start, chans = read_head(body, strings)
        elif tag in ("DATA", "DAT2"):
            records.extend(read_block(body, strings, chans, tag == "DAT2"))
        elif tag == "END ":
            declared = Reader(body).uvar()
    return {"version": version, "station": station, "start": start, "channels": chans,
            "records": records, "bad_chunks": bad, "truncated": truncated, "declared_records": declared}


# ---- encoding (version 1, as the legacy writer) ------------------------------------------------

def uvar(n):
    out = bytearray()
    while n >= 0x80:
        out.append((n & 0x7F) | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


def svar(n):
    return uvar((n << 1) if n >= 0 else ((-n << 1) - 1))


def string(s):
    b = s.encode("utf-8")
    return uvar(len(b)) + b


def chunk(tag, body):
    return tag + uvar(len(body)) + body + (zlib.crc32(tag + body) & 0xFFFFFFFF).to_bytes(4, "big")


def to_raw(v, exp):
    return int(round(v * 10 ** (-exp))) if exp < 0 else int(round(v / 10 ** exp))


def encode(doc):
    chans = doc["channels"]
    recs = doc["records"]
    table = {}
    for ch in chans:
        table.setdefault(ch["name"], len(table))
        table.setdefault(ch["unit"], len(table))
    for r in recs:
        table.setdefault(r["status"], len(table))
    out = bytearray(MAGIC + b"\x01")
    out += chunk(b"STRS", uvar(len(table)) + b"".join(string(s) for s in table))
    head = string(doc["station"]) + uvar(doc["start"]) + uvar(len(chans))
    for ch in chans:
        head += uvar(table[ch["name"]]) + uvar(table[ch["unit"]]) + svar(ch["exp"])
    out += chunk(b"HEAD", head)
    for at in range(0, len(recs), BLOCK):
        part = recs[at:at + BLOCK]
        body = bytearray(uvar(len(part)) + uvar(part[0]["t"]))
        for prev, cur in zip(part, part[1:]):
            body += uvar(cur["t"] - prev["t"])
        for r in part:
            body += uvar(table[r["status"]])
        for c, ch in enumerate(chans):
            raws = [to_raw(r["values"][c], ch["exp"]) for r in part]
            body += svar(raws[0])
            for a, b in zip(raws, raws[1:]):
                body += svar(b - a)
        out += chunk(b"DATA", bytes(body))
    out += chunk(b"END ", uvar(len(recs)))
    return bytes(out)


def main(argv):
    if len(argv) != 4 or argv[1] not in ("decode", "encode"):
        sys.stderr.write(__doc__)
        return 2
    if argv[1] == "decode":
        with open(argv[2], "rb") as f:
            doc = decode(f.read())
        with open(argv[3], "w", encoding="utf-8") as f:
            json.dump(doc, f, ensure_ascii=False, indent=1)
            f.write("\n")
    else:
        with open(argv[2], encoding="utf-8") as f:
            doc = json.load(f)
        with open(argv[3], "wb") as f:
            f.write(encode(doc))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
