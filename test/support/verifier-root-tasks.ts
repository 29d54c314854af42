import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { TrialResult } from "../../src/core/index.js";
import type { SandboxProvider } from "../../src/sandbox/types.js";
import { runOneTrial } from "./one-trial.js";

/** What the agent makes outside the workdir in `systemTask`. */
export const SYSTEM_MARK = "/usr/local/share/made-by-agent";

/**
 * A plain Harbor image task in `root` whose check reads the system outside the workdir (R = 1
 * when SYSTEM_MARK exists), with `[verifier] root` set when given.
 */
export function systemTask(root: string, verifierRoot: string | null): string {
  const dir = join(root, `plain-${verifierRoot ?? "default"}`);
  mkdirSync(join(dir, "environment"), { recursive: true });
  mkdirSync(join(dir, "tests"));
  mkdirSync(join(dir, "solution"));
  writeFileSync(join(dir, "environment", "Dockerfile"), "FROM longhaul-base:bookworm\nWORKDIR /app\n");
  writeFileSync(join(dir, "instruction.md"), `Create ${SYSTEM_MARK}.\n`);
  writeFileSync(join(dir, "solution", "solve.sh"), `#!/bin/bash\ntouch ${SYSTEM_MARK}\n`);
  writeFileSync(
    join(dir, "tests", "test.sh"),
    `#!/bin/bash\nif [ -f ${SYSTEM_MARK} ]; then echo 1; else echo 0; fi > /logs/verifier/reward.txt\n`,
  );
  const verifier = verifierRoot === null ? "" : `root = "${verifierRoot}"\n`;
  writeFileSync(
    join(dir, "task.toml"),
    `version = "1.0"\n[agent]\ntimeout_sec = 30\n[verifier]\ntimeout_sec = 30\n${verifier}[environment]\nallow_internet = false\n`,
  );
  return dir;
}

/** `(dir, agent, cmd?)` runs one trial of a task folder under `root` (default provider: bwrap). */
export function trialRunner(
  root: string,
  provider?: SandboxProvider,
): (dir: string, agent: string, cmd?: string) => Promise<TrialResult> {
  return (dir, agent, cmd) =>
    runOneTrial({
      dir,
      agent,
      ...(cmd === undefined ? {} : { agentOptions: { cmd } }),
      seed: 4242,
      trialDir: join(root, "trial", `${agent}-${Math.random().toString(16).slice(2)}`),
      imagesDir: join(root, "images"),
      jobId: "j",
      trialId: "t",
      ...(provider === undefined ? {} : { provider }),
    });
}

/**
 * A shell agent command for adv-vault-image: /app/greet imports a module the agent installed in
 * the system's site-packages, so the greet subtask passes only if the agent's programs run on the
 * system the agent changed.
 */
export const GREET_FROM_SYSTEM = `mkdir -p /usr/lib/python3/dist-packages
printf 'def greet(n):\\n    return "hello " + n\\n' > /usr/lib/python3/dist-packages/lhgreet.py
printf '#!/usr/bin/env python3\\nimport sys, lhgreet\\nprint(lhgreet.greet(sys.argv[1]))\\n' > /app/greet
chmod +x /app/greet`;
