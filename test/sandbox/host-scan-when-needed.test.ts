import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../runner/helpers.js";
import { runCli } from "../support/cli-process.js";

const ROOT = resolve(import.meta.dirname, "../..");

/**
 * A `longhaul run` process with a `find` on its PATH that notes each call and then runs the
 * real one: the scan of root-only host paths is the one over the system binds.
 */
async function scansOf(task: string): Promise<{ scans: string[]; code: number; stderr: string }> {
  const dir = tempDir("host-scan");
  const bin = join(dir, "bin");
  mkdirSync(bin);
  const log = join(dir, "find.log");
  writeFileSync(join(bin, "find"), `#!/bin/sh\necho "$*" >> '${log}'\nexec /usr/bin/find "$@"\n`);
  chmodSync(join(bin, "find"), 0o755);
  const r = await runCli(["run", task, "--agent", "nop", "--jobs-dir", join(dir, "jobs")], {
    env: { ...process.env, PATH: `${bin}:${process.env.PATH ?? "/usr/bin:/bin"}` },
  });
  const calls = existsSync(log) ? readFileSync(log, "utf8").split("\n") : [];
  return { scans: calls.filter((c) => c.startsWith("/usr /etc /opt /var ")), code: r.code, stderr: r.stderr };
}

describe("the scan of root-only host paths", () => {
  it("is not done by a job whose sandboxes are all over an image", async () => {
    const r = await scansOf(join(ROOT, "tasks/heatwave-audit"));
    expect(r.code, r.stderr).toBe(0);
    expect(r.scans).toEqual([]);
  }, 120_000);

  it("is done once by a job with a sandbox on the host's own folders", async () => {
    const r = await scansOf(join(ROOT, "test/fixtures/tasks/hello"));
    expect(r.code, r.stderr).toBe(0);
    expect(r.scans).toHaveLength(1);
  }, 120_000);
});
