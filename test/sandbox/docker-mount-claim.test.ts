import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DockerProvider } from "../../src/sandbox/docker/docker-provider.js";
import type { Sandbox } from "../../src/sandbox/types.js";
import { ensureTestBaseImage, TEST_BASE_IMAGE } from "../support/base-image.js";

/**
 * Under docker, a verifier on the agent's own root (`[verifier] root = "sandbox"`) gets its mounts
 * staged into the agent's container. What the agent left on the way to a mount point (a file, a
 * link, a folder it locked) must neither fail the staging (an infrastructure error, left out of
 * every rate) nor take the staged files elsewhere, nor mix its own files into them.
 */
describe("docker: what the agent planted on the way to a mount point", () => {
  let root: string;
  let s: Sandbox;

  beforeAll(async () => {
    await ensureTestBaseImage();
    root = mkdtempSync(join(tmpdir(), "longhaul-docker-claim-"));
    const limits = { memoryMb: 256, cpus: 1, pidsMax: 128, allowInternet: false };
    s = await new DockerProvider({ defaultImage: TEST_BASE_IMAGE }).create({
      ...{ environmentDir: null, workdir: "/app", stateDir: join(root, "state") },
      ...limits,
    });
  }, 600_000);

  afterAll(async () => {
    await s?.close();
    if (root !== undefined) rmSync(root, { recursive: true, force: true });
  });

  it("is removed or set aside: every mount lands where its path says, with only its own files", async () => {
    const src = join(root, "src");
    for (const d of ["tests", "kit", "data"]) mkdirSync(join(src, d), { recursive: true });
    writeFileSync(join(src, "tests", "t.txt"), "tests\n");
    writeFileSync(join(src, "kit", "k.txt"), "kit\n");
    writeFileSync(join(src, "data", "d.txt"), "data\n");
    const plant = await s.exec(
      [
        "mkdir -p /app/redir /app/w",
        // The verifier's places: a file at /longhaul and at the set-aside folder's parent, and a
        // /tests the set-aside cannot move (mode 000) holding a conftest.py.
        "rm -rf /longhaul /.longhaul /tests; touch /longhaul /.longhaul",
        "mkdir /tests; echo planted > /tests/conftest.py; chmod 000 /tests",
        // A link one level up, into the workdir, and a link and a file inside a host-kept folder.
        "ln -s /app/redir /srv/lh",
        "ln -s /app/redir /app/sub; touch /app/w/x",
      ].join("; "),
    );
    expect(plant.exitCode, plant.stderr).toBe(0);
    // A folder of another uid (an image's, say), which root without capabilities can neither
    // write in nor move elsewhere: put in place by docker itself.
    mkdirSync(join(root, "srv", "own"), { recursive: true });
    const tar = spawnSync("tar", [
      "-c",
      "--owner=1000",
      "--group=1000",
      "--numeric-owner",
      "-C",
      join(root, "srv"),
      "own",
    ]);
    const container = (s as Sandbox & { containerName: string }).containerName;
    const other = spawnSync("docker", ["cp", "-", `${container}:/srv`], { input: tar.stdout });
    expect(other.status, String(other.stderr)).toBe(0);
    const mounts = [
      ["tests", "/tests"],
      ["kit", "/longhaul/kit/sealed-run"],
      ["data", "/srv/lh/deep/data"],
      ["data", "/app/sub/m"],
      ["data", "/app/w/x/m"],
      ["data", "/srv/own/kit/m"],
    ].map(([from = "", to = ""]) => ({ hostPath: join(src, from), sandboxPath: to, readonly: true }));
    const v = await s.exec(
      [
        "ls -A /tests; cat /longhaul/kit/sealed-run/k.txt /srv/lh/deep/data/d.txt /app/sub/m/d.txt /app/w/x/m/d.txt /srv/own/kit/m/d.txt",
        "for p in /longhaul /srv/lh /app/sub /app/w/x; do test -d $p -a ! -L $p || echo not-a-folder $p; done",
        "ls -A /app/redir",
      ].join("; "),
      { mounts },
    );
    expect(v.stderr).toBe("");
    expect(v.stdout).toBe("t.txt\nkit\ndata\ndata\ndata\ndata\n");
    expect(v.exitCode).toBe(0);
    // Nothing was staged through the links, and the next command finds none of the mounts.
    const after = await s.exec(
      "ls -A /app/redir; ls /tests /longhaul/kit/sealed-run /app/sub/m 2>&1 | grep -c 'No such'",
    );
    expect(after.stdout).toBe("2\n");
  }, 60_000);
});
