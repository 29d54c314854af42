import { cpSync, rmSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { expect, it } from "vitest";
import { registerScaleAgents } from "../../../src/scale/agent/register.js";
import { tempDir } from "../../runner/helpers.js";
import { runOneTrial } from "../../support/one-trial.js";
import { describeBundledLineage } from "../support/bundled-lineage.js";

// A program run only from the grader's own batch runner, many calls in one sealed run, some of
// which (init, backup) change a repository in place: the grader hands its steps to the kit's
// `present_steps(..., commands=(...))`, so only the calls that read a repository or a file get
// presented inputs. Depth 1 with real trials, then the public-words agent on the child.
describeBundledLineage("backup-chain-repair", {
  depth: 1,
  more: (lineage) => {
    it("the agent that follows only the public words solves the child", async () => {
      registerScaleAgents();
      const scratch = tempDir("backup-chain-follow");
      const child = join(lineage().outDir, "backup-chain-repair-b1-d1");
      const dir = join(scratch, "task", basename(child));
      cpSync(child, dir, { recursive: true });
      rmSync(join(dir, "solution"), { recursive: true, force: true });
      rmSync(join(dir, "res.json"), { force: true });
      const r = await runOneTrial({
        dir,
        agent: "follow",
        agentOptions: { roots: resolve(import.meta.dirname, "../../../tasks") },
        seed: 1000,
        jobId: "backup-chain-follow",
        trialId: "follow-d1",
        trialDir: join(scratch, "trial"),
        imagesDir: join(scratch, "images"),
      });
      expect(`R=${r.reward ?? "null"} ${r.error?.message ?? ""}`.trim()).toBe("R=1");
    }, 600_000);
  },
});
