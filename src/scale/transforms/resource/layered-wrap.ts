import { z } from "zod";
import { cloneTree } from "../../file-tree.js";
import type { RestoreStep, Transform } from "../../types.js";
import { code, fileOf, hexId, PathPicker, resourceTransform, rngFor, shq } from "./common.js";
import { decodeCommand, encodeLayer, LAYER_KINDS, layerWords } from "./encodings.js";

const SUFFIXES = [".wrap", ".enc", ".layers", ".pack"] as const;

const params = z
  .object({
    /** Encodings from the innermost (applied first) to the outermost (undone first). */
    layers: z.array(z.enum(LAYER_KINDS)).min(2).max(4),
    suffix: z.enum(SUFFIXES),
  })
  .strict();
type LayeredParams = z.infer<typeof params>;

export const layeredWrap: Transform<LayeredParams> = resourceTransform<LayeredParams>({
  name: "layered-wrap",
  basic: false,
  summary: "Wraps a file in several nested encodings (gzip, base64, hex) in a seeded order.",
  restoreDoc:
    "Undo the layers from the outermost to the innermost, as the access text lists them " +
    "(base64 -d, gzip -dc, or hex decoding with python3 binascii), then write the result to the original path.",
  params,
  arity: "one",
  accepts: () => true,
  defaultParams(seed) {
    const rng = rngFor("layered-wrap/params", seed);
    return { layers: rng.shuffle(LAYER_KINDS), suffix: rng.pick(SUFFIXES) };
  },
  apply({ env, targets, params: p, seed }) {
    const [target] = targets as [string];
    const rng = rngFor("layered-wrap", seed);
    const paths = new PathPicker(env);
    const [wrapped, scratch] = paths.pickGroup((i) => {
      const base = i === 0 ? `${target}${p.suffix}` : `${target}.${hexId(rng, 4)}${p.suffix}`;
      return [base, `${base}.tmp`];
    }) as [string, string];
    let bytes = fileOf(layeredWrap, env, target);
    for (const layer of p.layers) bytes = encodeLayer(layer, bytes);
    const out = cloneTree(env);
    out.delete(target);
    out.set(wrapped, bytes);

    const outerFirst = [...p.layers].reverse();
    const restore: RestoreStep[] = outerFirst.map((layer, i) =>
      i === outerFirst.length - 1
        ? {
            run: `${decodeCommand(layer, wrapped, target)} && rm -f ${shq(wrapped)}`,
            why: `${layer}-decode the innermost layer of ${wrapped} into ${target}`,
          }
        : {
            run: `${decodeCommand(layer, wrapped, scratch)} && mv ${shq(scratch)} ${shq(wrapped)}`,
            why: `${layer}-decode layer ${i + 1} of ${outerFirst.length} of ${wrapped} in place`,
          },
    );
    const steps = outerFirst.map((l, i) => `${i + 1}. ${layerWords(l)}`).join("; ");
    return {
      env: out,
      access:
        `${code(target)} is stored in ${code(wrapped)} under ${p.layers.length} nested encodings. ` +
        `Undo them from the outside in: ${steps}. The result is the original file.`,
      restore,
      produced: [wrapped],
      removed: [target],
    };
  },
});
