import { chmodSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DockerProvider } from "../../src/sandbox/docker/docker-provider.js";
import { tempDir } from "../runner/helpers.js";
import { ensureTestBaseImage } from "../support/base-image.js";
import { systemTask, trialRunner } from "../support/verifier-root-tasks.js";

// Each docker call is a client process and a round trip to the daemon (the suite's docker files
// spent about 70 s of CPU in the client alone): a trial asked the daemon for its container's init
// pid at each killAll, and for its upper and merged folders, each in a `docker inspect` of its own.
describe("docker: calls of one trial", () => {
  let root: string;
  let log: string;
  const saved = process.env.LONGHAUL_DOCKER;

  beforeAll(async () => {
    await ensureTestBaseImage();
    root = tempDir("docker-calls");
    log = join(root, "calls.log");
    const wrapper = join(root, "docker");
    // One line per call: its arguments, newlines (the helpers' scripts) shown as \n.
    writeFileSync(
      wrapper,
      `#!/bin/bash\n{ for a in "$@"; do printf '%s ' "\${a//$'\\n'/\\\\n}"; done; echo; } >> '${log}'\nexec '${saved ?? "docker"}' "$@"\n`,
    );
    chmodSync(wrapper, 0o755);
    process.env.LONGHAUL_DOCKER = wrapper;
  }, 600_000);

  afterAll(() => {
    if (saved === undefined) delete process.env.LONGHAUL_DOCKER;
    else process.env.LONGHAUL_DOCKER = saved;
    if (root !== undefined) rmSync(root, { recursive: true, force: true });
  });

  it("inspects the sandbox's container once, however often killAll and the fresh verifier ask", async () => {
    // A quota (storage_mb), a killAll after each phase and a verifier on a fresh container of
    // the image: every fact of the container a trial needs.
    const r = await trialRunner(root, new DockerProvider())(systemTask(root, "image"), "oracle");
    expect(r.outcome, r.grading_errors.join("; ")).toBe("completed");
    const calls = readFileSync(log, "utf8")
      .split("\n")
      .filter((l) => / lh-sbx-[0-9a-f]+ /.test(`${l} `));
    const containers = new Set(calls.map((l) => / (lh-sbx-[0-9a-f]+) /.exec(`${l} `)?.[1]));
    expect(containers.size).toBe(1);
    const inspects = calls.filter((l) => l.startsWith("inspect "));
    expect(inspects, calls.join("\n")).toHaveLength(1);
    // 16 before: run, 4 inspects, the oracle's exec with its staging (3), a killAll after each
    // phase (2 each), the trash (2), rm.
    expect(calls.length, calls.join("\n")).toBeLessThanOrEqual(13);
    // Two killAlls still ask the daemon which processes are left (survivors.ts), each time.
    expect(calls.filter((l) => l.startsWith("top ")).length).toBeGreaterThanOrEqual(2);
  }, 120_000);
});
