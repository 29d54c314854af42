import { cpSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { verifierExecOptions, verifierRoot } from "../../src/runner/verifier-mounts.js";
import { loadTask } from "../../src/task/load.js";
import { GREET_FROM_SYSTEM, systemTask, trialRunner } from "../support/verifier-root-tasks.js";
import { FIXTURES, tempDir } from "./helpers.js";

describe("an image task's verifier root", () => {
  it("is a fresh image for rubric tasks and the agent's root for plain Harbor tasks, unless set", async () => {
    const root = tempDir("verifier-root");
    expect(verifierRoot(await loadTask(join(FIXTURES, "adv-vault-image")))).toBe("image");
    expect(verifierRoot(await loadTask(join(FIXTURES, "adv-vault")))).toBeNull();
    expect(verifierRoot(await loadTask(systemTask(root, null)))).toBe("sandbox");
    expect(verifierRoot(await loadTask(systemTask(root, "image")))).toBe("image");
  });

  it("a plain Harbor task sees the agent's system changes by default, and not with root = image", async () => {
    const root = tempDir("verifier-root");
    const trial = trialRunner(root);
    const byDefault = await trial(systemTask(root, null), "oracle");
    expect(byDefault.outcome).toBe("completed");
    expect(byDefault.reward).toBe(1);
    const fresh = await trial(systemTask(root, "image"), "oracle");
    expect(fresh.outcome).toBe("completed");
    expect(fresh.reward).toBe(0);
  }, 120_000);

  it("on a fresh image, the agent's programs still run on the system the agent changed", async () => {
    const root = tempDir("verifier-root");
    const dir = join(root, "vault");
    cpSync(join(FIXTURES, "adv-vault-image"), dir, { recursive: true });
    const r = await trialRunner(root)(dir, "shell", GREET_FROM_SYSTEM);
    expect(r.outcome, r.grading_errors.join("; ")).toBe("completed");
    expect(r.subtasks.find((s) => s.id === "greet")?.score).toBe(1);
    expect(r.reward).toBe(0.25);
  }, 120_000);

  it("keeps a workdir inside /root or /tmp instead of making that folder fresh", async () => {
    const task = await loadTask(join(FIXTURES, "adv-vault-image"));
    const at = (workdir: string) =>
      verifierExecOptions(
        { ...task, config: { ...task.config, environment: { ...task.config.environment, workdir } } },
        1,
      ).freshDirs;
    expect(at("/app")).toEqual(["/root", "/tmp"]);
    expect(at("/root")).toEqual(["/tmp"]);
    expect(at("/tmp/work")).toEqual(["/root"]);
  });

  it("asks for a fresh root for host tasks too (docker runs them over its default image)", async () => {
    const host = verifierExecOptions(await loadTask(join(FIXTURES, "adv-vault")), 1);
    expect(host.imageRoot).toBe(true);
    expect(host.env?.LONGHAUL_AGENT_ROOT).toBe("/longhaul/agent-root");
    const plain = verifierExecOptions(await loadTask(systemTask(tempDir("verifier-root"), null)), 1);
    expect(plain.imageRoot).toBe(false);
  });
});
