import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { findPackageRoot } from "../../src/core/package-root.js";

/**
 * The kit's encode_png against the per-byte filter loop it replaced (kept here as the reference):
 * seeded images of every channel count, every filter setting and IDAT split; prints the cases
 * compared and the first mismatches.
 */
const CHECK = [
  "import json, random, struct, sys, zlib",
  "sys.path.insert(0, sys.argv[1])",
  "import lh",
  "def paeth(a, b, c):",
  "    p = a + b - c",
  "    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)",
  "    return a if pa <= pb and pa <= pc else b if pb <= pc else c",
  "def filter_row(kind, row, prev, bpp):",
  "    out = bytearray(len(row))",
  "    for i, x in enumerate(row):",
  "        a = row[i - bpp] if i >= bpp else 0",
  "        b = prev[i]",
  "        c = prev[i - bpp] if i >= bpp else 0",
  "        pred = 0 if kind == 0 else a if kind == 1 else b if kind == 2 else (a + b) >> 1 if kind == 3 else paeth(a, b, c)",
  "        out[i] = (x - pred) & 0xFF",
  "    return bytes(out)",
  "def reference(img, filter, idat_size):",
  "    bpp, stride, raw, prev = img.channels, img.width * img.channels, bytearray(), bytes(img.width * img.channels)",
  "    for y in range(img.height):",
  "        row = img.data[y * stride:(y + 1) * stride]",
  "        if filter == 'auto':",
  "            best = None",
  "            for t in range(5):",
  "                data = filter_row(t, row, prev, bpp)",
  "                cost = sum(v if v < 128 else 256 - v for v in data)",
  "                if best is None or cost < best[2]:",
  "                    best = (t, data, cost)",
  "            kind, filtered = best[0], best[1]",
  "        else:",
  "            kind = y % 5 if filter == 'cycle' else filter",
  "            filtered = filter_row(kind, row, prev, bpp)",
  "        raw.append(kind)",
  "        raw += filtered",
  "        prev = row",
  "    ihdr = struct.pack('>IIBBBBB', img.width, img.height, 8, {1: 0, 2: 4, 3: 2, 4: 6}[img.channels], 0, 0, 0)",
  "    z = zlib.compress(bytes(raw), 9)",
  "    size = max(1, idat_size or len(z))",
  "    chunk = lambda k, d: struct.pack('>I', len(d)) + k + d + struct.pack('>I', zlib.crc32(k + d) & 0xFFFFFFFF)",
  "    return b'\\x89PNG\\r\\n\\x1a\\n' + chunk(b'IHDR', ihdr) + b''.join(chunk(b'IDAT', z[i:i + size]) for i in range(0, len(z), size)) + chunk(b'IEND', b'')",
  "rng = random.Random(int(sys.argv[2]))",
  "cases, bad = 0, []",
  "for n in range(60):",
  "    w, h, ch = rng.randint(1, 40), rng.randint(1, 12), rng.choice([1, 2, 3, 4])",
  "    palette = [0, 1, 2, 127, 128, 129, 254, 255]",
  "    smooth = rng.random() < 0.5",
  "    data = bytes(min(255, (x * 7 + y * 3) % 256 + rng.randint(0, 3)) if smooth else rng.choice(palette + [rng.randrange(256)])",
  "                 for y in range(h) for x in range(w * ch))",
  "    img = lh.Raster(w, h, ch, bytearray(data) if n % 2 else data)",
  "    for f in (0, 1, 2, 3, 4, 'cycle', 'auto'):",
  "        for idat in (None, rng.randint(1, 60)):",
  "            cases += 1",
  "            if lh.encode_png(img, f, idat) != reference(img, f, idat):",
  "                bad.append([w, h, ch, f, idat])",
  "            elif lh.decode_png(lh.encode_png(img, f, idat)).data != bytes(data):",
  "                bad.append(['decode', w, h, ch, f, idat])",
  "print(json.dumps({'cases': cases, 'bad': bad[:5]}))",
  "",
].join("\n");

/**
 * Image-making generators (label-barcode-audit, flood-extent) write their hidden PNGs through the
 * kit's encode_png: its row filters now map whole rows, and the PNG bytes, hence every hidden
 * case, must be the per-byte loop's.
 */
describe("the kit's encode_png", () => {
  it("gives the per-byte filter loop's bytes for every filter setting, and decodes back", () => {
    const r = spawnSync("/usr/bin/python3", ["-I", "-c", CHECK, join(findPackageRoot(), "kit"), "5"], {
      encoding: "utf8",
      env: { ...process.env, LONGHAUL_VERIFIER_DIR: "/tmp" },
    });
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ cases: 840, bad: [] });
  });
});
