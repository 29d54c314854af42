import type { ImageMemo } from "../verify/oracle-trials.js";
import { checkRootOracle } from "../verify/root-oracle.js";
import type { ScaleOptions } from "./scale.js";
import type { LineageNode } from "./store.js";

/** The root node records a passed oracle check (lineages grown before the check record none). */
export function rootVerified(nodes: readonly LineageNode[]): boolean {
  return nodes.some(
    (n) => n.status === "root" && n.checks.some((c) => c.name === "oracle" && c.status === "pass"),
  );
}

export interface RootCheck {
  check: LineageNode["checks"][number];
  seconds: number;
}

/**
 * Root checks run (or running) in this process, by root folder: `scale experiment` grows several
 * lineages of one root side by side, and its oracle is checked once for all of them.
 */
export type RootChecks = Map<string, Promise<RootCheck>>;

/**
 * One real oracle trial of the root; throws (UserError, InfraError) when it does not score
 * R = 1.0. A check `o.rootChecks` already holds is reused (its seconds were spent elsewhere).
 */
export async function verifyRoot(
  taskDir: string,
  o: ScaleOptions,
  log: (line: string) => void,
  images?: ImageMemo,
): Promise<RootCheck> {
  const known = o.rootChecks?.get(taskDir);
  if (known !== undefined) return { ...(await known), seconds: 0 };
  const running = runRootCheck(taskDir, o, log, images);
  o.rootChecks?.set(taskDir, running);
  return running;
}

async function runRootCheck(
  taskDir: string,
  o: ScaleOptions,
  log: (line: string) => void,
  images?: ImageMemo,
): Promise<RootCheck> {
  const t0 = performance.now();
  log(`${taskDir}: checking the root's own oracle (one trial)…`);
  const detail = await checkRootOracle(
    taskDir,
    {
      provider: o.provider,
      timeoutMultiplier: o.timeoutMultiplier ?? 1,
      ...(o.signal === undefined ? {} : { signal: o.signal }),
    },
    images,
  );
  const seconds = Math.round(performance.now() - t0) / 1000;
  log(`${taskDir}: ${detail}`);
  return { check: { name: "oracle", status: "pass", detail }, seconds };
}
