import { z } from "zod";
import { cloneTree } from "../../file-tree.js";
import type { Transform } from "../../types.js";
import { code, fileOf, hexId, PathPicker, resourceTransform, rngFor, shq } from "./common.js";
import { decodeCommand, gzipBytes } from "./encodings.js";

const params = z.object({ level: z.number().int().min(1).max(9) }).strict();
type GzipParams = z.infer<typeof params>;

export const gzip: Transform<GzipParams> = resourceTransform<GzipParams>({
  name: "gzip",
  basic: true,
  summary: "Replaces a file by its gzip-compressed copy (name.gz).",
  restoreDoc:
    "Decompress the .gz file with `gzip -dc` into the original path and delete the compressed copy.",
  params,
  arity: "one",
  accepts: () => true,
  defaultParams(seed) {
    return { level: rngFor("gzip/params", seed).pick([1, 6, 9]) };
  },
  apply({ env, targets, params: p, seed }) {
    const [target] = targets as [string];
    const rng = rngFor("gzip", seed);
    const paths = new PathPicker(env);
    const packed = paths.pick((i) => (i === 0 ? `${target}.gz` : `${target}.${hexId(rng, 4)}.gz`));
    const out = cloneTree(env);
    out.delete(target);
    out.set(packed, gzipBytes(fileOf(gzip, env, target), p.level));
    return {
      env: out,
      access: `${code(target)} is stored gzip-compressed as ${code(packed)}; decompress it (for example with \`gzip -dc\`) to read it.`,
      restore: [
        {
          run: `${decodeCommand("gzip", packed, target)} && rm -f ${shq(packed)}`,
          why: `gunzip ${packed} back to ${target}`,
        },
      ],
      produced: [packed],
      removed: [target],
    };
  },
});
