import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { bundledTasksDir } from "../../src/runner/package-root.js";
import { tempDir } from "../runner/helpers.js";

/**
 * A bundled task under plain Harbor: the verifier gets the task's tests/ at /tests and nothing of
 * longhaul (no /longhaul mount, no LONGHAUL_* variable), so the kit's defaults apply (a seed it
 * draws and records, /app, /logs/verifier) and the agent's programs run unsealed. The oracle must
 * still score 1.0.
 */
describe("a bundled task graded with only its tests/ directory", () => {
  it("gives the oracle R = 1.0 with no longhaul mount, and says its runs were unsealed", () => {
    const task = join(bundledTasksDir(), "loan-schedule");
    const base = tempDir("plain-harbor");
    const app = join(base, "app");
    const logs = join(base, "logs");
    mkdirSync(logs);
    // What the task's Dockerfile does: COPY app/ /app/ and COPY examples/ /app/examples/.
    cpSync(join(task, "environment", "app"), app, { recursive: true });
    cpSync(join(task, "environment", "examples"), join(app, "examples"), { recursive: true });
    // A root of only the system folders: /longhaul cannot exist in it.
    const sandbox = (extra: string[], argv: string[]): void => {
      execFileSync(
        "bwrap",
        [
          ...["--tmpfs", "/", "--ro-bind", "/usr", "/usr", "--ro-bind", "/etc", "/etc"],
          ...["--symlink", "usr/bin", "/bin", "--symlink", "usr/lib", "/lib"],
          ...["--symlink", "usr/lib64", "/lib64", "--symlink", "usr/sbin", "/sbin"],
          ...["--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp", "--bind", app, "/app"],
          ...["--unshare-pid", "--die-with-parent", "--clearenv"],
          ...["--setenv", "PATH", "/usr/local/bin:/usr/bin:/bin", "--setenv", "HOME", "/tmp"],
          ...extra,
          ...argv,
        ],
        { stdio: ["ignore", "pipe", "pipe"], timeout: 60_000 },
      );
    };
    sandbox(
      ["--ro-bind", join(task, "solution"), "/solution", "--chdir", "/app"],
      ["bash", "/solution/solve.sh"],
    );
    sandbox(
      ["--ro-bind", join(task, "tests"), "/tests", "--bind", logs, "/logs/verifier", "--chdir", "/tests"],
      // Exit 9 (execFileSync throws) if anything of longhaul's reached the verifier.
      [
        "bash",
        "-c",
        "if [ -e /longhaul ] || env | grep -q ^LONGHAUL_; then exit 9; fi; exec bash /tests/test.sh",
      ],
    );
    const reward = JSON.parse(readFileSync(join(logs, "reward.json"), "utf8")) as Record<string, number>;
    expect(reward.reward).toBe(1);
    const details = JSON.parse(readFileSync(join(logs, "reward-details.json"), "utf8")) as {
      sealed?: boolean;
      seed?: number;
      seed_source?: string;
      subtasks: Record<string, { sealed?: boolean }>;
    };
    expect(details.sealed).toBe(false);
    // No seed given: the kit drew one and recorded it, so the run can be repeated with LONGHAUL_SEED.
    expect(details.seed_source).toBe("drawn");
    expect(Number.isInteger(details.seed)).toBe(true);
    // Subtasks that ran the agent's program say so; one scored from earlier runs' outputs does not.
    expect(details.subtasks.public_examples?.sealed).toBe(false);
    expect(details.subtasks.hidden_plain?.sealed).toBe(false);
  }, 60_000);
});
