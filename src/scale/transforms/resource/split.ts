import { z } from "zod";
import { cloneTree, utf8 } from "../../file-tree.js";
import type { Transform } from "../../types.js";
import {
  baseOf,
  code,
  dirOf,
  fileOf,
  hexId,
  inDir,
  PathPicker,
  resourceTransform,
  rngFor,
  shq,
} from "./common.js";

const NAMINGS = ["part", "digits", "chunk"] as const;

const params = z
  .object({
    /** How many pieces (fewer when the file has fewer bytes). */
    parts: z.number().int().min(2).max(6),
    naming: z.enum(NAMINGS),
  })
  .strict();
type SplitParams = z.infer<typeof params>;

function partName(base: string, naming: (typeof NAMINGS)[number], k: number): string {
  switch (naming) {
    case "part":
      return `${base}.part-${k + 1}`;
    case "digits":
      return `${base}.${String(k).padStart(3, "0")}`;
    case "chunk":
      return `${base}.chunk${String.fromCharCode(97 + k)}`;
  }
}

export const split: Transform<SplitParams> = resourceTransform<SplitParams>({
  name: "split",
  basic: true,
  summary: "Cuts a file into several byte pieces at seeded offsets, with a list of the pieces in order.",
  restoreDoc:
    "Concatenate the pieces in the order the .parts list gives (`cat a b c > file`) and delete them.",
  params,
  arity: "one",
  accepts: (_p, bytes) => bytes.length >= 2,
  defaultParams(seed) {
    const rng = rngFor("split/params", seed);
    return { parts: rng.int(2, 4), naming: rng.pick(NAMINGS) };
  },
  apply({ env, targets, params: p, seed }) {
    const [target] = targets as [string];
    const rng = rngFor("split", seed);
    const bytes = fileOf(split, env, target);
    const n = Math.min(p.parts, bytes.length);
    // n-1 distinct cut offsets strictly inside the file, so no piece is empty.
    const cutSet = new Set<number>();
    while (cutSet.size < n - 1) cutSet.add(rng.int(1, bytes.length - 1));
    const cuts = [...cutSet].sort((a, b) => a - b);
    const bounds = [0, ...cuts, bytes.length];
    const dir = dirOf(target);
    const paths = new PathPicker(env);
    const group = paths.pickGroup((attempt) => {
      const base = attempt === 0 ? baseOf(target) : `${baseOf(target)}.${hexId(rng, 4)}`;
      return [
        inDir(dir, `${base}.parts`),
        ...Array.from({ length: n }, (_, k) => inDir(dir, partName(base, p.naming, k))),
      ];
    });
    const [list, ...pieces] = group as [string, ...string[]];
    const out = cloneTree(env);
    out.delete(target);
    pieces.forEach((piece, k) => {
      out.set(piece, bytes.slice(bounds[k], bounds[k + 1]));
    });
    out.set(list, utf8.encode(pieces.map((q) => `${baseOf(q)}\n`).join("")));
    const quoted = pieces.map(shq).join(" ");
    return {
      env: out,
      access:
        `${code(target)} has been cut into ${n} pieces; ${code(list)} lists them in order, one name per line ` +
        "(names relative to its folder). Concatenate the pieces in that order to get the original bytes.",
      restore: [
        {
          run: `cat ${quoted} > ${shq(target)} && rm -f ${quoted} ${shq(list)}`,
          why: `concatenate the ${n} pieces of ${target}`,
        },
      ],
      produced: [list, ...pieces],
      removed: [target],
    };
  },
});
