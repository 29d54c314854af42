import { cpSync, existsSync, readFileSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureTestBaseImage } from "../../support/base-image.js";
import { ROOT, runCli } from "../../support/cli-process.js";
import { removeImage, tempDir, writeEnv } from "./helpers.js";

const work = tempDir("cli");
const cache = join(work, "cache");
const task = join(work, "imgcli");
let tag = "";

const cli = (args: string[]) => runCli(args, { env: { ...process.env, LONGHAUL_CACHE_DIR: cache } });

beforeAll(async () => {
  await ensureTestBaseImage();
  cpSync(resolve(ROOT, "test/fixtures/tasks/hello"), task, { recursive: true });
  rmSync(join(task, "environment"), { recursive: true });
  writeEnv(join(task, "environment"));
}, 900_000);

afterAll(() => {
  if (tag !== "") removeImage(tag);
  rmSync(work, { recursive: true, force: true });
});

describe("longhaul images", () => {
  it("build: builds an image task's image, then reports it cached", async () => {
    const first = await cli(["images", "build", task]);
    expect(first.stderr).toContain("image for imgcli");
    expect(first.code).toBe(0);
    const [name, t, id, how] = first.stdout.trim().split("\t");
    expect(name).toBe("imgcli");
    expect(t).toMatch(/^longhaul-env:[0-9a-f]{16}$/);
    expect(id).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(how).toMatch(/^\d+(\.\d)?s$/);
    tag = t as string;
    expect(existsSync(join(cache, "build-logs", "imgcli.log"))).toBe(true);
    const second = await cli(["images", "build", task]);
    expect(second.stdout.trim()).toBe(`imgcli\t${tag}\t${id}\tcached`);
  }, 600_000);

  it("export prints the cached root file system; ls lists it; prune removes it", async () => {
    const exported = await cli(["images", "export", tag]);
    expect(exported.code).toBe(0);
    const path = exported.stdout.trim();
    expect(path.startsWith(join(cache, "images"))).toBe(true);
    expect(readFileSync(join(path, "app", "made.txt"), "utf8")).toBe("made\n");

    const ls = await cli(["images", "ls"]);
    const [id, lsTag, size] = ls.stdout.trim().split("\t");
    expect(join(cache, "images", (id as string).slice("sha256:".length), "rootfs")).toBe(path);
    expect(lsTag).toBe(tag);
    expect(size).toMatch(/^\d+\.\d MB$/);

    const pruned = await cli(["images", "prune"]);
    expect(pruned.stdout.trim()).toBe(join(cache, "images", (id as string).slice("sha256:".length)));
    expect(existsSync(path)).toBe(false);
    expect((await cli(["images", "ls"])).stdout).toBe("");
  }, 600_000);

  it("export of an unknown image is a usage error", async () => {
    const r = await cli(["images", "export", "longhaul-no-such-image:1"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("no image longhaul-no-such-image:1");
  });
});
