import { z } from "zod";
import { Rng } from "../../../core/rng.js";
import { utf8 } from "../../file-tree.js";
import type { RestoreStep, Transform } from "../../types.js";
import { mkdirFor, pathArg, sq } from "../shared/shell.js";
import { checkTargets, codeList, stashPath } from "../shared/store.js";
import { TreeBuilder } from "../shared/tree-builder.js";

const Params = z.object({}).strict();
export type ManifestParams = z.infer<typeof Params>;

const LOOKUP_PY =
  'import json, sys; print(json.load(open(sys.argv[1], encoding="utf-8"))["entries"][sys.argv[2]]["location"])';

/** The sh step that copies `name` back from where `manifest` says it is. */
export function manifestRestoreStep(manifest: string, name: string): RestoreStep {
  return {
    run: `${mkdirFor(name)}cp "$(python3 -c ${sq(LOOKUP_PY)} ${pathArg(manifest)} ${sq(name)})" ${pathArg(name)}`,
    why: `copy ${name} back from the location ${manifest} gives for it`,
  };
}

/**
 * Moves each target to an opaque path and writes a JSON manifest mapping the logical name (the
 * old path) to the new location. The access text names only the manifest.
 */
export const manifestTransform: Transform<ManifestParams> = {
  name: "manifest",
  kind: "relation",
  basic: true,
  summary: "move files to opaque paths listed in a JSON manifest",
  restoreDoc:
    "Read the manifest (a JSON object whose `entries` map each logical path to `{location}`) and copy each " +
    "listed location back to its logical path.",
  params: Params,
  arity: "one",
  accepts: () => true,
  defaultParams: () => ({}),
  apply({ env, targets, seed }) {
    checkTargets("manifest", env, targets);
    const rng = new Rng(`manifest/${seed}`);
    const b = new TreeBuilder(env);
    const entries: Record<string, { location: string }> = {};
    const moved = targets.map((t) => [t, b.take(t)] as const);
    const manifest = b.firstFree(rng, ["manifest.json"]);
    b.put(manifest, new Uint8Array());
    const locations: string[] = [];
    for (const [t, bytes] of moved) {
      const loc = stashPath(b, rng);
      b.put(loc, bytes);
      entries[t] = { location: loc };
      locations.push(loc);
    }
    b.replace(manifest, utf8.encode(`${JSON.stringify({ manifest_version: 1, entries }, null, 2)}\n`));
    return {
      env: b.build(),
      access:
        `${codeList(targets)} ${targets.length === 1 ? "is" : "are"} no longer at ${targets.length === 1 ? "its path" : "their paths"}. ` +
        `The manifest \`${manifest}\` maps each logical path to the file's current location ` +
        "(`entries[<path>].location`, relative to the environment root).",
      restore: targets.map((t) => manifestRestoreStep(manifest, t)),
      produced: [manifest, ...locations],
      removed: [...targets],
    };
  },
};
