import { createHash } from "node:crypto";
import { deflateSync } from "node:zlib";
import { z } from "zod";
import { Rng } from "../../../core/rng.js";
import { utf8 } from "../../file-tree.js";
import type { Transform } from "../../types.js";
import { keystreamXor, PY_CRYPTO } from "../shared/crypto.js";
import { randomBytes, toHex } from "../shared/names.js";
import { pathArg } from "../shared/shell.js";
import { checkTargets, codeList } from "../shared/store.js";
import { TreeBuilder } from "../shared/tree-builder.js";

const Params = z.object({ level: z.number().int().min(1).max(9) }).strict();
export type PrepareStepParams = z.infer<typeof Params>;

const MAGIC = "PREPPACK1\n";

const EXPORT_PY = `#!/usr/bin/env python3
"""Exports files from a packed store: export.py PACK [NAME OUT]...
With only PACK, every entry is written to its own path (relative to the current folder)."""
import json, os, sys, zlib

${PY_CRYPTO}

MAGIC = b"${MAGIC.trimEnd()}\\n"


def entries(pack):
    data = open(pack, "rb").read()
    if not data.startswith(MAGIC):
        sys.exit("%s: not a packed store" % pack)
    n = int.from_bytes(data[len(MAGIC) : len(MAGIC) + 4], "big")
    start = len(MAGIC) + 4
    header = json.loads(data[start : start + n].decode("utf-8"))
    body = data[start + n :]
    salt = bytes.fromhex(header["salt"])
    out = {}
    for e in header["entries"]:
        blob = body[e["offset"] : e["offset"] + e["length"]]
        mask = hashlib.sha256(salt + e["name"].encode("utf-8")).digest()
        out[e["name"]] = zlib.decompress(keystream_xor(mask, blob)[::-1])
    return out


def safe(name):
    parts = name.split("/")
    if name.startswith("/") or any(p in ("", ".", "..") for p in parts):
        sys.exit("refusing entry name %r" % name)
    return name


if __name__ == "__main__":
    if len(sys.argv) < 2 or len(sys.argv) % 2 != 0:
        sys.exit("usage: export.py PACK [NAME OUT]...")
    files = entries(sys.argv[1])
    pairs = list(zip(sys.argv[2::2], sys.argv[3::2])) or [(n, safe(n)) for n in files]
    for name, out in pairs:
        if name not in files:
            sys.exit("%s has no entry %r (it has: %s)" % (sys.argv[1], name, ", ".join(sorted(files))))
        write_out(out, files[name])
`;

export const EXPORT_TOOL_PATH = ".prep/export.py";
const EXPORT_BYTES = utf8.encode(EXPORT_PY);

/**
 * Builds a packed store: per entry, zlib-compressed bytes reversed and XORed with a keystream
 * from the pack's salt and the entry name, behind a JSON header. Only the placed export script
 * reads it back; that is the preparation step.
 */
export function buildPack(
  files: readonly (readonly [string, Uint8Array])[],
  salt: Uint8Array,
  level: number,
): Uint8Array {
  const blobs: Buffer[] = [];
  const entries: { name: string; offset: number; length: number }[] = [];
  let offset = 0;
  for (const [name, bytes] of files) {
    const packed = Buffer.from(deflateSync(bytes, { level })).reverse();
    const mask = createHash("sha256").update(salt).update(utf8.encode(name)).digest();
    const blob = Buffer.from(keystreamXor(mask, packed));
    entries.push({ name, offset, length: blob.length });
    blobs.push(blob);
    offset += blob.length;
  }
  const header = Buffer.from(JSON.stringify({ format: 1, salt: toHex(salt), entries }), "utf8");
  const len = Buffer.alloc(4);
  len.writeUInt32BE(header.length);
  return new Uint8Array(Buffer.concat([Buffer.from(MAGIC, "ascii"), len, header, ...blobs]));
}

export const prepareStepTransform: Transform<PrepareStepParams> = {
  name: "prepare-step",
  kind: "operation",
  basic: true,
  summary: "pack files into a store that only a placed preparation script exports",
  restoreDoc:
    "Run the placed `.prep/export.py` on the pack from the environment root; it writes each entry to its path.",
  params: Params,
  arity: "one",
  accepts: () => true,
  defaultParams: (seed) => ({ level: new Rng(seed).int(6, 9) }),
  apply({ env, targets, params, seed }) {
    checkTargets("prepare-step", env, targets);
    const rng = new Rng(`prepare-step/${seed}`);
    const b = new TreeBuilder(env);
    const files = targets.map((t) => [t, b.take(t)] as const);
    const pack = b.fresh(rng, (tok) => `.prep/store-${tok}.pack`);
    b.put(pack, buildPack(files, randomBytes(rng, 16), params.level));
    const tool = b.placeShared(EXPORT_TOOL_PATH, EXPORT_BYTES, rng);
    return {
      env: b.build(),
      access:
        `${codeList(targets)} must be prepared before use: ${targets.length === 1 ? "it is" : "they are"} packed ` +
        `in \`${pack}\`. From the environment root run \`python3 ${tool} ${pack}\`, which exports every entry ` +
        `to its path (or \`python3 ${tool} ${pack} NAME OUT\` for one entry).`,
      restore: [
        {
          run: `python3 ${pathArg(tool)} ${pathArg(pack)}`,
          why: `export ${targets.join(", ")} from ${pack}`,
        },
      ],
      produced: [pack, tool],
      removed: [...targets],
    };
  },
};
