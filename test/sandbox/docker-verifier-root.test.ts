import { cpSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { TrialResult } from "../../src/core/index.js";
import { DockerProvider } from "../../src/sandbox/docker/docker-provider.js";
import { FIXTURES, tempDir } from "../runner/helpers.js";
import { ensureTestBaseImage } from "../support/base-image.js";
import { GREET_FROM_SYSTEM, systemTask, trialRunner } from "../support/verifier-root-tasks.js";

// test/runner/verifier-root.test.ts under docker, where `[verifier] root = "image"` runs the
// verifier in a fresh container of the image instead of the agent's.
describe("docker: an image task's verifier root", () => {
  let root: string;
  let trial: (dir: string, agent: string, cmd?: string) => Promise<TrialResult>;

  beforeAll(async () => {
    await ensureTestBaseImage();
    root = tempDir("docker-verifier-root");
    trial = trialRunner(root, new DockerProvider());
  }, 600_000);

  it("root = image runs the verifier in a fresh container: the agent's system change is not seen there", async () => {
    const seen = await trial(systemTask(root, "sandbox"), "oracle");
    expect(seen.outcome, seen.grading_errors.join("; ")).toBe("completed");
    expect(seen.reward).toBe(1);
    const fresh = await trial(systemTask(root, "image"), "oracle");
    expect(fresh.outcome, fresh.grading_errors.join("; ")).toBe("completed");
    expect(fresh.reward).toBe(0);
  }, 120_000);

  it("on a fresh container, the agent's programs still run on the system the agent changed (sealed runner)", async () => {
    const dir = join(root, "vault");
    cpSync(join(FIXTURES, "adv-vault-image"), dir, { recursive: true });
    const r = await trial(dir, "shell", GREET_FROM_SYSTEM);
    expect(r.outcome, r.grading_errors.join("; ")).toBe("completed");
    expect(r.subtasks.find((s) => s.id === "greet")?.score).toBe(1);
    expect(r.reward).toBe(0.25);
  }, 120_000);
});
