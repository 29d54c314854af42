import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { channelKitPath } from "../../src/scale/channel/steps.js";

/** Compares the kit's base64 steps with the base64 module on seeded random bytes; prints mismatches. */
const CHECK = [
  "import base64, json, random, sys",
  "sys.path.insert(0, sys.argv[1])",
  "import res_channel as k",
  "rng = random.Random(int(sys.argv[2]))",
  "lengths = list(range(0, 240)) + [rng.randrange(240, 20000) for _ in range(300)]",
  "bad = []",
  "step = {'name': 'x', 'seed': 1, 'params': {}}",
  "enc_line, dec_line = k.LINE['line-base64']",
  "enc_file, dec_file = k.LAYERS['base64']",
  "for n in lengths:",
  "    b = bytes(rng.randrange(256) for _ in range(n))",
  "    if enc_file(b) != base64.encodebytes(b): bad.append(('encodebytes', n))",
  "    if dec_file(base64.encodebytes(b)) != b: bad.append(('decodebytes', n))",
  "    if enc_line(b, step) != base64.b64encode(b): bad.append(('b64encode', n))",
  "    if dec_line(base64.b64encode(b), step) != base64.b64decode(base64.b64encode(b)): bad.append(('b64decode', n))",
  "print(json.dumps({'cases': len(lengths), 'bad': bad[:10]}))",
  "",
].join("\n");

/**
 * The kit encodes and decodes base64 with binascii (the base64 module imports re, a few ms on
 * every wrapped call): the bytes must be the base64 module's, or children's presented inputs
 * would change.
 */
describe("the channel kit's base64", () => {
  it("gives the base64 module's bytes, line breaks included", () => {
    const r = spawnSync("/usr/bin/python3", ["-I", "-c", CHECK, join(channelKitPath(), ".."), "17"], {
      encoding: "utf8",
    });
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ cases: 540, bad: [] });
  });
});
