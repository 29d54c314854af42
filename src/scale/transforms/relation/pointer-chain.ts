import { z } from "zod";
import { Rng } from "../../../core/rng.js";
import { utf8 } from "../../file-tree.js";
import type { RestoreStep, Transform } from "../../types.js";
import { mkdirFor, pathArg } from "../shared/shell.js";
import { checkTargets, codeList, stashPath } from "../shared/store.js";
import { TreeBuilder } from "../shared/tree-builder.js";

const Params = z.object({ length: z.number().int().min(1).max(8) }).strict();
export type PointerChainParams = z.infer<typeof Params>;

/**
 * Moves each target to an opaque path reached through `length` pointer files: `<target>.ptr`
 * holds the path of the next `.ptr` file, and so on; the last holds the real location.
 */
export const pointerChainTransform: Transform<PointerChainParams> = {
  name: "pointer-chain",
  kind: "relation",
  basic: false,
  summary: "replace a file by a chain of .ptr pointer files leading to its opaque location",
  restoreDoc:
    "Read `<path>.ptr`; while the path it holds ends in `.ptr`, read that file next. The first path that " +
    "does not end in `.ptr` is the file's location: copy it back.",
  params: Params,
  arity: "one",
  accepts: () => true,
  defaultParams: (seed) => ({ length: new Rng(seed).int(2, 5) }),
  apply({ env, targets, params, seed }) {
    checkTargets("pointer-chain", env, targets);
    const rng = new Rng(`pointer-chain/${seed}`);
    const b = new TreeBuilder(env);
    const produced: string[] = [];
    const restore: RestoreStep[] = [];
    const heads: string[] = [];
    for (const t of targets) {
      const bytes = b.take(t);
      const head = b.firstFree(rng, [`${t}.ptr`]);
      b.put(head, new Uint8Array());
      const chain = [head];
      for (let i = 1; i < params.length; i++) {
        const p = b.fresh(rng, (tok) => `.links/${tok.slice(0, 2)}/${tok.slice(2)}.ptr`);
        b.put(p, new Uint8Array());
        chain.push(p);
      }
      const loc = stashPath(b, rng, ".objects");
      b.put(loc, bytes);
      chain.forEach((p, i) => {
        b.replace(p, utf8.encode(`${chain[i + 1] ?? loc}\n`));
      });
      produced.push(...chain, loc);
      heads.push(head);
      restore.push({
        run:
          `p=${pathArg(head)}; n=0; while [ "\${p%.ptr}" != "$p" ] && [ "$n" -lt 64 ]; do p=$(cat "$p"); n=$((n+1)); done; ` +
          `${mkdirFor(t)}cp "$p" ${pathArg(t)}`,
        why: `follow the pointer chain from ${head} and copy ${t} back`,
      });
    }
    return {
      env: b.build(),
      access:
        `${codeList(targets)} ${targets.length === 1 ? "was" : "were"} moved; start at ${codeList(heads)}. ` +
        "A `.ptr` file holds one line, the path (relative to the environment root) of the next file; keep " +
        "following until a path that does not end in `.ptr`: that is where the file is now.",
      restore,
      produced,
      removed: [...targets],
    };
  },
};
