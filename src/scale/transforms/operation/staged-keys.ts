import { z } from "zod";
import { Rng } from "../../../core/rng.js";
import { utf8 } from "../../file-tree.js";
import type { Transform } from "../../types.js";
import { PY_CRYPTO, seal } from "../shared/crypto.js";
import { randomBytes, toHex } from "../shared/names.js";
import { pathArg } from "../shared/shell.js";
import { checkTargets } from "../shared/store.js";
import { TreeBuilder } from "../shared/tree-builder.js";

export const COMBINE_MODES = ["xor", "concat"] as const;
const Params = z
  .object({ parts: z.number().int().min(2).max(5), combine: z.enum(COMBINE_MODES).optional() })
  .strict();
export type StagedKeysParams = z.infer<typeof Params>;

const STAGED_PY = `#!/usr/bin/env python3
"""Combines key parts as a stage file says, then decrypts: staged-unlock.py STAGES SEALED OUT"""
import json, sys

${PY_CRYPTO}

def combine(stages_path):
    stages = json.load(open(stages_path, encoding="utf-8"))
    parts = [bytes.fromhex(open(p, encoding="ascii").read().strip()) for p in stages["parts"]]
    if stages["combine"] == "concat":
        return b"".join(parts)
    if stages["combine"] == "xor":
        key = bytes(len(parts[0]))
        for p in parts:
            if len(p) != len(key):
                sys.exit("xor parts must all have the same length")
            key = bytes(a ^ b for a, b in zip(key, p))
        return key
    sys.exit("unknown combine mode %r" % stages["combine"])


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit("usage: staged-unlock.py STAGES SEALED OUT")
    write_out(sys.argv[3], unseal(combine(sys.argv[1]), open(sys.argv[2], "rb").read()))
`;

const TOOL_PATH = ".tools/staged-unlock.py";
const TOOL_BYTES = utf8.encode(STAGED_PY);
const PART_DIRS = [".keys", "etc/keyring", "var/lib/vault", ".config/secrets", "share/certs"] as const;

/** Splits `key` into `n` parts: random parts XORing to it, or consecutive slices to concatenate. */
export function splitKey(
  key: Uint8Array,
  n: number,
  mode: (typeof COMBINE_MODES)[number],
  rng: Rng,
): Uint8Array[] {
  if (mode === "concat") {
    const cuts = [0];
    for (let i = 1; i < n; i++) cuts.push(Math.floor((key.length * i) / n));
    cuts.push(key.length);
    return cuts.slice(0, -1).map((c, i) => key.slice(c, cuts[i + 1]));
  }
  const parts = Array.from({ length: n - 1 }, () => randomBytes(rng, key.length));
  const last = key.map((byte, i) => parts.reduce((acc, p) => acc ^ (p[i] as number), byte));
  return [...parts, last];
}

/**
 * Encrypts the target with a key that exists only as several parts in different folders; a
 * stage file lists the parts in combining order and says how to combine them (XOR or concatenate).
 */
export const stagedKeysTransform: Transform<StagedKeysParams> = {
  name: "staged-keys",
  kind: "operation",
  basic: false,
  summary: "encrypt a file with a key split into parts in different folders, combined per a stage file",
  restoreDoc:
    "Read the stage file: combine the listed key parts (XOR all, or concatenate in the listed order) into " +
    "the key, then decrypt the sealed file (the placed `staged-unlock.py` does both).",
  params: Params,
  arity: "one",
  accepts: () => true,
  defaultParams: (seed) => ({ parts: new Rng(seed).int(2, 3) }),
  apply({ env, targets, params, seed }) {
    checkTargets("staged-keys", env, targets);
    const rng = new Rng(`staged-keys/${seed}`);
    const mode = params.combine ?? rng.pick(COMBINE_MODES);
    const b = new TreeBuilder(env);
    const steps = targets.map((t) => {
      const key = randomBytes(rng, 32);
      const sealed = b.firstFree(rng, [`${t}.sealed`]);
      b.put(sealed, seal(key, b.take(t)));
      const dirs = rng.shuffle(PART_DIRS);
      const parts = splitKey(key, params.parts, mode, rng).map((part, i) => {
        const p = b.fresh(rng, (tok) => `${dirs[i % dirs.length]}/${tok}.part`);
        b.put(p, utf8.encode(`${toHex(part)}\n`));
        return p;
      });
      const stages = b.firstFree(rng, [`${t}.stages.json`]);
      b.put(stages, utf8.encode(`${JSON.stringify({ combine: mode, parts }, null, 2)}\n`));
      return { t, sealed, stages, parts };
    });
    const tool = b.placeShared(TOOL_PATH, TOOL_BYTES, rng);
    return {
      env: b.build(),
      access: steps
        .map(
          ({ t, sealed, stages }) =>
            `\`${t}\` is encrypted as \`${sealed}\`. Its key is split into parts (hex files in different folders); ` +
            `\`${stages}\` lists them in order and says how to combine them (\`xor\`: XOR all parts; \`concat\`: ` +
            `concatenate in the listed order). \`python3 ${tool} ${stages} ${sealed} ${t}\` combines the parts and ` +
            "decrypts (keystream SHA-256(key || 8-byte big-endian counter) XOR).",
        )
        .join(" "),
      restore: steps.map(({ t, sealed, stages }) => ({
        run: `python3 ${pathArg(tool)} ${pathArg(stages)} ${pathArg(sealed)} ${pathArg(t)}`,
        why: `combine the key parts listed in ${stages} and decrypt ${sealed}`,
      })),
      produced: [...steps.flatMap(({ sealed, stages, parts }) => [stages, ...parts, sealed]), tool],
      removed: [...targets],
    };
  },
};
