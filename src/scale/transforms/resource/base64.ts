import { z } from "zod";
import { cloneTree } from "../../file-tree.js";
import type { Transform } from "../../types.js";
import { code, fileOf, hexId, PathPicker, resourceTransform, rngFor, shq } from "./common.js";
import { base64Text, decodeCommand } from "./encodings.js";

const SUFFIXES = [".b64", ".base64", ".txt"] as const;

const params = z
  .object({
    /** Appended to the file name of the encoded copy. */
    suffix: z.enum(SUFFIXES),
    /** Characters per line (0: one line). */
    lineWidth: z.union([z.literal(0), z.literal(64), z.literal(76)]),
  })
  .strict();
type Base64Params = z.infer<typeof params>;

export const base64: Transform<Base64Params> = resourceTransform<Base64Params>({
  name: "base64",
  basic: true,
  summary: "Replaces a file by its base64 text next to it.",
  restoreDoc: "Decode the .b64 file with `base64 -d` into the original path and delete the encoded copy.",
  params,
  arity: "one",
  accepts: () => true,
  defaultParams(seed) {
    const rng = rngFor("base64/params", seed);
    return { suffix: rng.pick(SUFFIXES), lineWidth: rng.pick([0, 64, 76] as const) };
  },
  apply({ env, targets, params: p, seed }) {
    const [target] = targets as [string];
    const rng = rngFor("base64", seed);
    const paths = new PathPicker(env);
    const encoded = paths.pick((i) =>
      i === 0 ? `${target}${p.suffix}` : `${target}.${hexId(rng, 4)}${p.suffix}`,
    );
    const out = cloneTree(env);
    out.delete(target);
    out.set(encoded, base64Text(fileOf(base64, env, target), p.lineWidth));
    return {
      env: out,
      access: `${code(target)} is stored base64-encoded as ${code(encoded)}; decode it (for example with \`base64 -d\`) to get the original bytes.`,
      restore: [
        {
          run: `${decodeCommand("base64", encoded, target)} && rm -f ${shq(encoded)}`,
          why: `base64-decode ${encoded} back to ${target}`,
        },
      ],
      produced: [encoded],
      removed: [target],
    };
  },
});
