import { z } from "zod";
import { Rng } from "../../../core/rng.js";
import { utf8 } from "../../file-tree.js";
import type { RestoreStep, Transform } from "../../types.js";
import { baseName, dirName, inDir } from "../shared/names.js";
import { perturbFile } from "../shared/perturb-file.js";
import { mkdirFor, pathArg } from "../shared/shell.js";
import { checkTargets, codeList } from "../shared/store.js";
import { TreeBuilder } from "../shared/tree-builder.js";

const Params = z.object({ count: z.number().int().min(2).max(6) }).strict();
export type VersionsParams = z.infer<typeof Params>;

function isFreeFolder(b: TreeBuilder, dir: string, names: readonly string[]): boolean {
  return names.every((n) => b.isFree(`${dir}/${n}`));
}

/**
 * Replaces a file by a folder of versions `v1`..`vN`, all but one of them stale decoys that differ
 * plausibly (rows changed, a number bumped), and a `CURRENT` file naming the live version.
 */
export const versionsTransform: Transform<VersionsParams> = {
  name: "versions",
  kind: "relation",
  basic: false,
  summary: "keep a file as several versions (stale decoys plus the live one) with a CURRENT pointer",
  restoreDoc:
    "Read the `CURRENT` file of the versions folder (e.g. `v3`) and copy `<that version>/<name>` back.",
  params: Params,
  arity: "one",
  accepts: () => true,
  defaultParams: (seed) => ({ count: new Rng(seed).int(3, 4) }),
  apply({ env, targets, params, seed }) {
    checkTargets("versions", env, targets);
    const rng = new Rng(`versions/${seed}`);
    const b = new TreeBuilder(env);
    const restore: RestoreStep[] = [];
    const produced: string[] = [];
    const folders: string[] = [];
    for (const t of targets) {
      const bytes = b.take(t);
      const name = baseName(t);
      const names = ["CURRENT", ...Array.from({ length: params.count }, (_, i) => `v${i + 1}/${name}`)];
      const preferred = inDir(dirName(t), `versions/${name}`);
      const folder = isFreeFolder(b, preferred, names)
        ? preferred
        : b.fresh(rng, (tok) => inDir(dirName(t), `versions-${tok}/${name}`), 6);
      const current = rng.int(1, params.count);
      let previous = bytes;
      for (let v = 1; v <= params.count; v++) {
        // Stale versions drift from the live one step by step, like real edits would.
        const content =
          v === current ? bytes : perturbFile(t, v < current ? previous : bytes, rng.fork(`v${v}`));
        if (v < current) previous = content;
        const p = `${folder}/v${v}/${name}`;
        b.put(p, content);
        produced.push(p);
      }
      b.put(`${folder}/CURRENT`, utf8.encode(`v${current}\n`));
      produced.unshift(`${folder}/CURRENT`);
      folders.push(folder);
      restore.push({
        run: `v=$(cat ${pathArg(`${folder}/CURRENT`)}) && ${mkdirFor(t)}cp ${pathArg(folder)}/"$v"/${pathArg(name)} ${pathArg(t)}`,
        why: `copy the version ${folder}/CURRENT names back to ${t}`,
      });
    }
    return {
      env: b.build(),
      access:
        `${codeList(targets)} ${targets.length === 1 ? "is" : "are"} kept as several versions in ${codeList(folders)}: ` +
        "subfolders `v1`, `v2`, ... each hold a copy, most of them stale. The file `CURRENT` in that folder names " +
        "the live version (e.g. `v2`); only that one is the file.",
      restore,
      produced,
      removed: [...targets],
    };
  },
};
