import { resolve } from "node:path";
import type { SandboxProvider } from "../../sandbox/types.js";
import { CHANNEL_DECL } from "../channel/materialize.js";
import type { ParentInfo } from "../child/build-child.js";
import { parseSpecUpdates, restoreChain } from "../child/spec-update.js";
import { loadForVerify } from "./context.js";
import { type CheckResult, type Verdict, verdictOf } from "./diagnostics.js";
import { checkLeak } from "./leak.js";
import { checkOracle, type ImageMemo } from "./oracle-trials.js";
import { checkProtected } from "./protected.js";
import { checkReproducible } from "./reproduce.js";
import { restoreAndOracle } from "./restore-and-oracle.js";
import { checkRestore } from "./restore-check.js";
import { verifyChannelChild } from "./verify-channel.js";

export interface VerifyOptions {
  provider: SandboxProvider;
  /** Run check (d)'s two real trials (default true). */
  trials?: boolean;
  /** The parent folder, when not the one res.json names (relative to the child). */
  parentDir?: string;
  seed?: number;
  timeoutMultiplier?: number;
  signal?: AbortSignal;
  /** Images already looked up in this run (`scale` shares one across a lineage). */
  images?: ImageMemo;
  /** The frozen parent as `scale` already read it from disk; used only when it is the one res.json names. */
  parent?: ParentInfo;
}

/**
 * Verifies one child folder against its frozen parent: (a) protected requirements, (b) the plan
 * reproduces the environment, (e) no protected value in the spec update, (c) the public restore
 * steps bring every protected fact back in a fresh sandbox, (d) the oracles, with real trials.
 * Everything is read from disk, so `scale verify` on a copied child gives the same answer.
 */
export async function verifyChild(childDir: string, o: VerifyOptions): Promise<Verdict> {
  const dir = resolve(childDir);
  const loaded = await loadForVerify(
    dir,
    o.parentDir === undefined ? undefined : resolve(o.parentDir),
    o.parent,
  );
  if (!loaded.ok) {
    return verdictOf([
      { name: "protected", status: "fail", detail: "cannot be read", diagnostics: loaded.diagnostics },
    ]);
  }
  const { child, parent } = loaded;
  // A program task's child (its channel declared in res.json or tests/) has its own checks (b) to (d).
  if (child.res.channel !== undefined || child.tests.has(CHANNEL_DECL) || parent.program !== null) {
    return verifyChannelChild(child, parent, o);
  }
  const checks: CheckResult[] = [checkProtected(child, parent), checkReproducible(child, parent)];
  const mine = parseSpecUpdates(child.instruction).sections.find((s) => s.depth === child.res.depth);
  checks.push(
    checkLeak({
      section: mine?.text ?? "",
      facts: child.requirements.protected.facts,
      snapshot: child.requirements.snapshot,
      alreadyPublic: [parent.instruction, ...parent.tree.tree.keys(), ...child.tree.tree.keys()].join("\n"),
    }),
  );
  checks.push(
    ...(await restoreAndOracle({
      restore: (signal) =>
        checkRestore({
          tree: child.tree.tree,
          chain: restoreChain(child.instruction),
          facts: parent.requirements.protected.facts,
          snapshot: parent.requirements.snapshot,
          provider: o.provider,
          signal,
        }),
      oracle: (signal) =>
        checkOracle({
          childDir: dir,
          parentDir: parent.dir,
          provider: o.provider,
          seed: o.seed,
          timeoutMultiplier: o.timeoutMultiplier,
          signal,
          images: o.images,
        }),
      trials: o.trials,
      signal: o.signal,
      // The child's oracle runs the same restore steps: it cannot pass, and says nothing new.
      skippedBecause: "the restore steps fail",
    })),
  );
  return verdictOf(checks);
}
