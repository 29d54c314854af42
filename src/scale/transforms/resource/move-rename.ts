import { z } from "zod";
import { cloneTree } from "../../file-tree.js";
import type { Transform } from "../../types.js";
import { code, fileOf, hexId, mkdirFor, PathPicker, resourceTransform, rngFor, shq } from "./common.js";

const ROOTS = ["store", "vault", "objects", "cache", "var/blobs"] as const;
const NAMES = ["blob.dat", "object.bin", "payload", "item.dat", "data.bin"] as const;

const params = z.object({ root: z.enum(ROOTS), name: z.enum(NAMES) }).strict();
type MoveParams = z.infer<typeof params>;

export const moveRename: Transform<MoveParams> = resourceTransform<MoveParams>({
  name: "move-rename",
  basic: true,
  summary: "Moves a file, unchanged, to an opaque seeded path such as store/7f3a/blob.dat.",
  restoreDoc: "Move the file back from the opaque path the access text names (`mkdir -p dir && mv`).",
  params,
  arity: "one",
  accepts: () => true,
  defaultParams(seed) {
    const rng = rngFor("move-rename/params", seed);
    return { root: rng.pick(ROOTS), name: rng.pick(NAMES) };
  },
  apply({ env, targets, params: p, seed }) {
    const [target] = targets as [string];
    const rng = rngFor("move-rename", seed);
    const paths = new PathPicker(env);
    const moved = paths.pick(() => `${p.root}/${hexId(rng, 4)}/${p.name}`);
    const out = cloneTree(env);
    out.delete(target);
    out.set(moved, fileOf(moveRename, env, target));
    return {
      env: out,
      access: `${code(target)} has been moved, byte for byte, to ${code(moved)}.`,
      restore: [
        { run: `${mkdirFor(target)}mv ${shq(moved)} ${shq(target)}`, why: `move ${moved} back to ${target}` },
      ],
      produced: [moved],
      removed: [target],
    };
  },
});
