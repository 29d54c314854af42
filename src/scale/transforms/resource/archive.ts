import { z } from "zod";
import { cloneTree } from "../../file-tree.js";
import type { Transform } from "../../types.js";
import { code, fileOf, hexId, PathPicker, resourceTransform, rngFor, shq } from "./common.js";
import { ustarArchive, ustarSplit } from "./tar.js";

const NAMES = ["bundle", "archive", "backup", "pack"] as const;

const params = z.object({ name: z.enum(NAMES) }).strict();
type ArchiveParams = z.infer<typeof params>;

export const archive: Transform<ArchiveParams> = resourceTransform<ArchiveParams>({
  name: "archive",
  basic: false,
  summary: "Packs several files into one deterministic tar archive at the environment root.",
  restoreDoc:
    "Extract the archive from the environment root with `tar -xf` (entries keep their paths) and delete it.",
  params,
  arity: "many",
  accepts: (path) => ustarSplit(path) !== undefined,
  defaultParams(seed) {
    return { name: rngFor("archive/params", seed).pick(NAMES) };
  },
  apply({ env, targets, params: p, seed }) {
    const rng = rngFor("archive", seed);
    const paths = new PathPicker(env);
    const tarPath = paths.pick(() => `${p.name}-${hexId(rng, 6)}.tar`);
    const members = new Map(targets.map((t) => [t, fileOf(archive, env, t)] as const));
    const out = cloneTree(env);
    for (const t of targets) out.delete(t);
    out.set(tarPath, ustarArchive(members));
    const sorted = [...targets].sort();
    return {
      env: out,
      access:
        `${sorted.map(code).join(", ")} are packed in the tar archive ${code(tarPath)} under their own paths; ` +
        `extract it from the environment root (\`tar -xf ${tarPath}\`) to get them back.`,
      restore: [
        {
          run: `tar -xf ${shq(tarPath)} && rm -f ${shq(tarPath)}`,
          why: `extract ${sorted.length} files from ${tarPath}`,
        },
      ],
      produced: [tarPath],
      removed: sorted,
    };
  },
});
