#!/usr/bin/env python3
"""Reads a TGRD gridded daily archive and prints it as CSV (date, lat, lon, value in degC).

    python3 tgrd_read.py ARCHIVE.tgrd [--cell LAT,LON] [--head N]

Used by the climate service's nightly plots since the v1 archives. The v2 archives from the new
regridding chain do not look right with it yet.
"""
import struct
import sys
from datetime import date, timedelta


def read_header(blob):
    if blob[:4] != b"TGRD":
        raise SystemExit("not a TGRD archive")
    version = blob[4]
    hlen = struct.unpack("<H", blob[6:8])[0]
    nlat, nlon = struct.unpack(">HH", blob[8:12])
    ntime = struct.unpack(">I", blob[12:16])[0]
    scale, offset = struct.unpack(">ff", blob[16:24])
    attrs = {}
    for line in blob[26:hlen].rstrip(b"\0").decode("ascii").splitlines():
        key, _, value = line.partition("=")
        attrs[key] = value
    return dict(version=version, hlen=hlen, nlat=nlat, nlon=nlon, ntime=ntime, scale=scale,
                offset=offset, attrs=attrs)


def read(path):
    with open(path, "rb") as f:
        blob = f.read()
    h = read_header(blob)
    lats = [float(x) for x in h["attrs"]["lats"].split(",")]
    lons = [float(x) for x in h["attrs"]["lons"].split(",")]
    n = h["nlat"] * h["nlon"]
    kelvin = h["attrs"].get("units", "K").lower() in ("k", "kelvin")
    start = date.fromisoformat(h["attrs"]["start"])
    pos = h["hlen"]
    for t in range(h["ntime"]):
        raw = struct.unpack("<%dh" % n, blob[pos:pos + 2 * n])
        pos += 2 * n
        day = start + timedelta(days=t)
        for i, r in enumerate(raw):
            value = (r + h["offset"]) * h["scale"]
            if kelvin:
                value -= 273.15
            yield day.isoformat(), lats[i // h["nlon"]], lons[i % h["nlon"]], value


def main():
    args = sys.argv[1:]
    if not args:
        raise SystemExit(__doc__)
    cell, head = None, None
    if "--cell" in args:
        k = args.index("--cell")
        cell = tuple(float(x) for x in args[k + 1].split(","))
        del args[k:k + 2]
    if "--head" in args:
        k = args.index("--head")
        head = int(args[k + 1])
        del args[k:k + 2]
    print("date,lat,lon,tasmax_c")
    shown = 0
    for d, la, lo, v in read(args[0]):
        if cell and (la, lo) != cell:
            continue
        print("%s,%g,%g,%.2f" % (d, la, lo, v))
        shown += 1
        if head and shown >= head:
            break


if __name__ == "__main__":
    main()
