import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DockerProvider } from "../../src/sandbox/docker/docker-provider.js";
import type { DockerSandbox } from "../../src/sandbox/docker/docker-sandbox.js";
import { ensureTestBaseImage, TEST_BASE_IMAGE } from "../support/base-image.js";

describe("docker: killAll in a container whose bash the agent replaced", () => {
  let root: string;
  let sandbox: DockerSandbox;

  beforeAll(async () => {
    await ensureTestBaseImage();
    root = mkdtempSync(join(tmpdir(), "longhaul-docker-bash-"));
    sandbox = (await new DockerProvider({ defaultImage: TEST_BASE_IMAGE }).create({
      environmentDir: null,
      workdir: "/app",
      memoryMb: 256,
      cpus: 1,
      pidsMax: 128,
      allowInternet: false,
      stateDir: join(root, "state"),
    })) as DockerSandbox;
  }, 600_000);

  afterAll(async () => {
    await sandbox?.close();
    if (root !== undefined) rmSync(root, { recursive: true, force: true });
  });

  it("ends the agent's processes even though its kill loop ran the agent's bash", async () => {
    // The agent is root in its container: a script renamed over bash runs in place of every
    // helper the provider runs there, killAll's kill loop too, which then exits 0 having killed
    // nothing; a process of the agent's lived on into the verifier's phase.
    // The daemon is in its own session before the exec ends (setsid is not instant on a loaded
    // host, and the exec's end kills what is still in its session): only then is it a survivor.
    const r = await sandbox.exec(
      [
        "setsid sleep 777 & p=$!",
        `for ((i = 0; i < 600; i++)); do [ "$(cut -d' ' -f6 /proc/$p/stat 2>/dev/null)" = "$p" ] && break; sleep 0.05; done`,
        "printf '#!/bin/sh\\nexit 0\\n' > /usr/bin/bash.new && chmod 755 /usr/bin/bash.new && mv -f /usr/bin/bash.new /usr/bin/bash",
      ].join("\n"),
    );
    expect(r.exitCode, r.stderr).toBe(0);
    const top = (): string =>
      spawnSync("docker", ["top", sandbox.containerName, "-o", "pid,args"], { encoding: "utf8" }).stdout;
    expect(top()).toContain("sleep 777");
    await sandbox.killAll();
    expect(top()).not.toContain("sleep 777");
  }, 120_000);
});
