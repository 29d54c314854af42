import { cpSync, rmSync } from "node:fs";
import { basename, join } from "node:path";
import { checkTask } from "../../../src/runner/check-task.js";
import { getSandboxProvider } from "../../../src/sandbox/registry.js";
import { loadTask } from "../../../src/task/load.js";
import { runOneTrial } from "../../support/one-trial.js";

/** A child approved by every check of the verifier, in its order. */
export const ALL_PASS = ["protected:pass", "reproducible:pass", "leak:pass", "restore:pass", "oracle:pass"];

/**
 * What goes wrong with a child: the checks of `task check` (one seed) it fails, and the
 * public-words agent's result when it is not R = 1. The agent sees the child without its
 * solution, and knows only the root task's skill (`root`'s solution).
 */
export async function checkAndFollow(child: string, root: string, scratch: string): Promise<string[]> {
  const provider = getSandboxProvider("bwrap");
  const check = await checkTask(await loadTask(child), { provider, seeds: [1000] });
  const wrong = check.checks.filter((c) => !c.ok).map((c) => `${c.name}: ${c.detail}`);
  const bare = join(scratch, "agent-copy", basename(child));
  cpSync(child, bare, { recursive: true });
  rmSync(join(bare, "solution"), { recursive: true, force: true });
  rmSync(join(bare, "res.json"), { force: true });
  const r = await runOneTrial({
    dir: bare,
    agent: "follow",
    agentOptions: { root },
    seed: 1000,
    jobId: "harbor-inputs",
    trialId: `follow-${basename(child)}`,
    trialDir: join(scratch, "trials", `follow-${basename(child)}`),
    imagesDir: join(scratch, "images"),
    provider,
  });
  if (r.reward !== 1) wrong.push(`follow agent: R=${r.reward} ${r.error?.message ?? ""}`.trim());
  return wrong;
}
