import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DockerProvider } from "../../src/sandbox/docker/docker-provider.js";
import type { Sandbox } from "../../src/sandbox/types.js";
import { ensureTestBaseImage, TEST_BASE_IMAGE } from "../support/base-image.js";

/** Shell making, under `at`, a tree 25 folders of 200 characters deep (5000: more than a path can name). */
const deep = (at: string): string =>
  `d=$(printf 'd%.0s' $(seq 200)); mkdir -p ${at} && cd ${at} && for i in $(seq 25); do mkdir $d && cd $d; done; echo x > leaf`;

describe("docker: per-exec folders outside the host-kept ones, holding a tree deeper than a path can name", () => {
  let root: string;
  let sandbox: Sandbox;
  let scratch: string;

  beforeAll(async () => {
    await ensureTestBaseImage();
    // A state folder with a long path, as a job's is: longer than the container's own path to
    // the same files (docker's overlay folder), so what docker copies out can lie too deep for it.
    root = join(mkdtempSync(join(tmpdir(), "longhaul-docker-deep-")), "p".repeat(200));
    mkdirSync(root);
    const stateDir = join(root, "state");
    scratch = join(stateDir, "scratch");
    sandbox = await new DockerProvider({ defaultImage: TEST_BASE_IMAGE }).create({
      environmentDir: null,
      workdir: "/app",
      memoryMb: 256,
      cpus: 1,
      pidsMax: 128,
      allowInternet: false,
      stateDir,
    });
  }, 600_000);

  afterAll(async () => {
    await sandbox?.close();
    if (root !== undefined) rmSync(join(root, ".."), { recursive: true, force: true });
  });

  /** What the provider left in its scratch folder: staging folders must all be gone. */
  const leftovers = (): string[] =>
    existsSync(scratch) ? readdirSync(scratch).filter((n) => /^(back|fresh)-/.test(n)) : [];

  it("copies a writable mount back without what lies too deep, and removes its staging folder", async () => {
    // The exec's mount is copied into the container (/srv is none of the host-kept folders) and
    // back through a staging folder under the state folder: rmSync threw ENAMETOOLONG there.
    const out = join(root, "out");
    mkdirSync(out);
    const r = await sandbox.exec(`${deep("/srv/out")} && echo kept > /srv/out/top`, {
      mounts: [{ hostPath: out, sandboxPath: "/srv/out", readonly: false }],
    });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(readFileSync(join(out, "top"), "utf8")).toBe("kept\n");
    expect(leftovers()).toEqual([]);
  }, 120_000);

  it("removes the host folder bound as an imageRoot exec's fresh folder", async () => {
    // A fresh folder the image lacks is a host folder bound into the exec's own container, where
    // the command may make a tree of any depth; its removal threw ENAMETOOLONG out of the exec.
    const r = await sandbox.exec(`${deep("/srv/fresh")} && echo done`, {
      imageRoot: true,
      freshDirs: ["/srv/fresh"],
    });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toBe("done\n");
    expect(leftovers()).toEqual([]);
  }, 120_000);
});
