import { cpSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { verifierExecOptions, verifierRoot } from "../../src/runner/verifier-mounts.js";
import { loadTask } from "../../src/task/load.js";
import { runOneTrial } from "../support/one-trial.js";
import { FIXTURES, tempDir } from "./helpers.js";

const DOCKERFILE = "FROM longhaul-base:bookworm\nWORKDIR /app\n";
const MARK = "/usr/local/share/made-by-agent";

/** A plain Harbor image task whose check reads the system outside the workdir. */
function plainTask(root: string, verifierRoot: string | null): string {
  const dir = join(root, `plain-${verifierRoot ?? "default"}`);
  mkdirSync(join(dir, "environment"), { recursive: true });
  mkdirSync(join(dir, "tests"));
  mkdirSync(join(dir, "solution"));
  writeFileSync(join(dir, "environment", "Dockerfile"), DOCKERFILE);
  writeFileSync(join(dir, "instruction.md"), `Create ${MARK}.\n`);
  writeFileSync(join(dir, "solution", "solve.sh"), `#!/bin/bash\ntouch ${MARK}\n`);
  writeFileSync(
    join(dir, "tests", "test.sh"),
    `#!/bin/bash\nif [ -f ${MARK} ]; then echo 1; else echo 0; fi > /logs/verifier/reward.txt\n`,
  );
  const verifier = verifierRoot === null ? "" : `root = "${verifierRoot}"\n`;
  writeFileSync(
    join(dir, "task.toml"),
    `version = "1.0"\n[agent]\ntimeout_sec = 30\n[verifier]\ntimeout_sec = 30\n${verifier}[environment]\nallow_internet = false\n`,
  );
  return dir;
}

async function trial(dir: string, root: string, agent: string, cmd?: string) {
  return runOneTrial({
    dir,
    agent,
    ...(cmd === undefined ? {} : { agentOptions: { cmd } }),
    seed: 4242,
    trialDir: join(root, "trial", `${agent}-${Math.random().toString(16).slice(2)}`),
    imagesDir: join(root, "images"),
    jobId: "j",
    trialId: "t",
  });
}

describe("an image task's verifier root", () => {
  it("is a fresh image for rubric tasks and the agent's root for plain Harbor tasks, unless set", async () => {
    const root = tempDir("verifier-root");
    expect(verifierRoot(await loadTask(join(FIXTURES, "adv-vault-image")))).toBe("image");
    expect(verifierRoot(await loadTask(join(FIXTURES, "adv-vault")))).toBeNull();
    expect(verifierRoot(await loadTask(plainTask(root, null)))).toBe("sandbox");
    expect(verifierRoot(await loadTask(plainTask(root, "image")))).toBe("image");
  });

  it("a plain Harbor task sees the agent's system changes by default, and not with root = image", async () => {
    const root = tempDir("verifier-root");
    const byDefault = await trial(plainTask(root, null), root, "oracle");
    expect(byDefault.outcome).toBe("completed");
    expect(byDefault.reward).toBe(1);
    const fresh = await trial(plainTask(root, "image"), root, "oracle");
    expect(fresh.outcome).toBe("completed");
    expect(fresh.reward).toBe(0);
  }, 120_000);

  it("on a fresh image, the agent's programs still run on the system the agent changed", async () => {
    const root = tempDir("verifier-root");
    const dir = join(root, "vault");
    cpSync(join(FIXTURES, "adv-vault-image"), dir, { recursive: true });
    // /app/greet imports a module the agent installed in the system's site-packages.
    const cmd = `mkdir -p /usr/lib/python3/dist-packages
printf 'def greet(n):\\n    return "hello " + n\\n' > /usr/lib/python3/dist-packages/lhgreet.py
printf '#!/usr/bin/env python3\\nimport sys, lhgreet\\nprint(lhgreet.greet(sys.argv[1]))\\n' > /app/greet
chmod +x /app/greet`;
    const r = await trial(dir, root, "shell", cmd);
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
});
