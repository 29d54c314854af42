import { z } from "zod";
import { Rng } from "../../../core/rng.js";
import { utf8 } from "../../file-tree.js";
import type { Transform } from "../../types.js";
import { PY_CRYPTO, seal } from "../shared/crypto.js";
import { randomBytes, toHex } from "../shared/names.js";
import { pathArg } from "../shared/shell.js";
import { checkTargets } from "../shared/store.js";
import { TreeBuilder } from "../shared/tree-builder.js";

const Params = z.object({ keyBytes: z.number().int().min(16).max(64) }).strict();
export type UnlockKeyParams = z.infer<typeof Params>;

const UNLOCK_PY = `#!/usr/bin/env python3
"""Decrypts a sealed file with a hex key file: unlock.py KEY_FILE SEALED OUT"""
import sys

${PY_CRYPTO}

if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit("usage: unlock.py KEY_FILE SEALED OUT")
    key = bytes.fromhex(open(sys.argv[1], encoding="ascii").read().strip())
    write_out(sys.argv[3], unseal(key, open(sys.argv[2], "rb").read()))
`;

export const UNLOCK_TOOL_PATH = ".tools/unlock.py";
export const UNLOCK_TOOL_BYTES = utf8.encode(UNLOCK_PY);

/**
 * Encrypts the target with a seeded key (SHA-256 counter-mode keystream XOR) and puts the key,
 * in hex, in a separate key file that later transforms may move or hide. A placed tool decrypts.
 */
export const unlockKeyTransform: Transform<UnlockKeyParams> = {
  name: "unlock-key",
  kind: "operation",
  basic: false,
  summary: "encrypt a file with a key kept in a separate key file; a placed tool decrypts",
  restoreDoc:
    "Run the placed `unlock.py` with the key file, the sealed file and the output path; it XORs the data " +
    "with the SHA-256(key || counter) keystream and checks the tag.",
  params: Params,
  arity: "one",
  accepts: () => true,
  defaultParams: () => ({ keyBytes: 32 }),
  apply({ env, targets, params, seed }) {
    checkTargets("unlock-key", env, targets);
    const rng = new Rng(`unlock-key/${seed}`);
    const b = new TreeBuilder(env);
    const steps = targets.map((t) => {
      const key = randomBytes(rng, params.keyBytes);
      const sealed = b.firstFree(rng, [`${t}.enc`]);
      b.put(sealed, seal(key, b.take(t)));
      const keyFile = b.fresh(rng, (tok) => `keys/${tok}.key`);
      b.put(keyFile, utf8.encode(`${toHex(key)}\n`));
      return { t, sealed, keyFile };
    });
    const tool = b.placeShared(UNLOCK_TOOL_PATH, UNLOCK_TOOL_BYTES, rng);
    return {
      env: b.build(),
      access: steps
        .map(
          ({ t, sealed, keyFile }) =>
            `\`${t}\` is encrypted as \`${sealed}\`; its key (hex) is in \`${keyFile}\`. Decrypt with ` +
            `\`python3 ${tool} ${keyFile} ${sealed} ${t}\` (keystream SHA-256(key || 8-byte big-endian block ` +
            "counter) XORed with the data after an 8-byte magic and a 32-byte tag).",
        )
        .join(" "),
      restore: steps.map(({ t, sealed, keyFile }) => ({
        run: `python3 ${pathArg(tool)} ${pathArg(keyFile)} ${pathArg(sealed)} ${pathArg(t)}`,
        why: `decrypt ${sealed} with the key in ${keyFile}`,
      })),
      produced: [...steps.flatMap(({ sealed, keyFile }) => [keyFile, sealed]), tool],
      removed: [...targets],
    };
  },
};
