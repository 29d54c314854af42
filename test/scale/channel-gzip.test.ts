import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { channelKitPath } from "../../src/scale/channel/steps.js";

/**
 * Runs the kit's gzip layer over seeded inputs of four kinds and prints, per kind, what a reader
 * sees: whether gzip.decompress gives the input back, whether the member is the same twice, its
 * size over the input's, and whether the input's first 64 bytes can be read in it as they are.
 */
const CHECK = [
  "import binascii, gzip, json, random, sys",
  "sys.path.insert(0, sys.argv[1])",
  "import res_channel as k",
  "rng = random.Random(int(sys.argv[2]))",
  "def rand(n): return bytes(rng.randrange(256) for _ in range(n))",
  "def csv(n):",
  "    rows = ['%d,%s,%.3f' % (i, rng.choice(['north', 'south', 'east']), rng.random() * 90) for i in range(n)]",
  "    return ('id,zone,value\\n' + '\\n'.join(rows) + '\\n').encode()",
  "kinds = {",
  "    'compressed': lambda: gzip.compress(rand(rng.randrange(5000, 40000)), mtime=0),",
  "    'base64-of-random': lambda: binascii.b2a_base64(rand(rng.randrange(25000, 60000))),",
  "    'csv-text': lambda: csv(rng.randrange(300, 3000)),",
  "    'small-text': lambda: csv(rng.randrange(1, 60)),",
  "}",
  "out = {}",
  "for name, make in kinds.items():",
  "    rows = []",
  "    for _ in range(25):",
  "        d = make()",
  "        z = k._gz(d)",
  "        rows.append({'back': gzip.decompress(z) == d, 'same': k._gz(d) == z, 'ratio': len(z) / len(d),",
  "                     'readable': d[:64] in z, 'magic': z[:3] == b'\\x1f\\x8b\\x08', 'mtime0': z[4:8] == bytes(4),",
  "                     'stored': (z[10] >> 1) & 3 == 0})",
  "    out[name] = {f: [r[f] for r in rows] for f in rows[0]}",
  "print(json.dumps(out))",
  "",
].join("\n");

interface Kind {
  back: boolean[];
  same: boolean[];
  ratio: number[];
  readable: boolean[];
  magic: boolean[];
  mtime0: boolean[];
  /** The first deflate block is a stored one (BTYPE 00: no compression work done). */
  stored: boolean[];
}

/**
 * The gzip layer chooses deflate's settings from a probe of the data (stored for data already
 * compressed, Huffman coding alone for base64 or hex of compressed bytes, level 1 otherwise):
 * whatever it chooses must stay a gzip member any reader decodes, the same bytes every time, no
 * larger than level 1 would make it where that matters, and never plain text left readable.
 */
describe("the channel kit's gzip layer", () => {
  const r = spawnSync("/usr/bin/python3", ["-I", "-c", CHECK, join(channelKitPath(), ".."), "23"], {
    encoding: "utf8",
  });
  const kinds = (): Record<string, Kind> => {
    expect(r.status, r.stderr).toBe(0);
    return JSON.parse(r.stdout) as Record<string, Kind>;
  };

  it("gives back every input through gzip.decompress, the same member each time, mtime 0", () => {
    for (const [name, k] of Object.entries(kinds())) {
      for (const f of ["back", "same", "magic", "mtime0"] as const) {
        expect(k[f].every(Boolean), `${name}: ${f}`).toBe(true);
      }
    }
  });

  it("stores compressed data (no larger than it was, bar the framing) and shrinks base64 of it", () => {
    const k = kinds();
    expect(Math.max(...(k.compressed?.ratio ?? [Number.NaN]))).toBeLessThan(1.01);
    expect(k.compressed?.stored.every(Boolean)).toBe(true);
    expect(k["csv-text"]?.stored.some(Boolean)).toBe(false);
    // Huffman coding alone takes base64's 6 bits a character to 6 of 8 and a little (0.753–0.755
    // here); level 1's match search, which finds nothing to match, ends at 0.768–0.773.
    expect(Math.max(...(k["base64-of-random"]?.ratio ?? [Number.NaN]))).toBeLessThan(0.76);
  });

  it("compresses text, small files included, and leaves none of it readable", () => {
    const k = kinds();
    expect(Math.max(...(k["csv-text"]?.ratio ?? [Number.NaN]))).toBeLessThan(0.6);
    for (const name of ["csv-text", "small-text", "base64-of-random"]) {
      expect(k[name]?.readable.some(Boolean), name).toBe(false);
    }
  });
});
