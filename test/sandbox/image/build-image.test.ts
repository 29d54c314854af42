import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UserError } from "../../../src/core/errors.js";
import { loadImageArchive } from "../../../src/sandbox/image/archive.js";
import { taskImage } from "../../../src/sandbox/image/build-image.js";
import { cachedImage, ensureRootfs, imageCacheDir } from "../../../src/sandbox/image/rootfs-cache.js";
import type { ImageRef } from "../../../src/sandbox/image/types.js";
import { ensureTestBaseImage, TEST_BASE_IMAGE } from "../../support/base-image.js";
import { listTree, removeImage, tempDir, useCacheDir, writeEnv } from "./helpers.js";

let restoreCacheDir: () => void = () => {};
const work = tempDir("build");
const envDir = join(work, "environment");
const logFile = join(work, "logs", "nested", "build.log");
const options = { taskName: "imgtask", envDir, dockerImage: null, buildTimeoutSec: 600, logFile };
let nonce = "";
let built: ImageRef;

beforeAll(async () => {
  restoreCacheDir = useCacheDir(join(work, "cache"));
  await ensureTestBaseImage();
  nonce = writeEnv(envDir);
}, 900_000);

afterAll(() => {
  rmSync(work, { recursive: true, force: true });
  if (built?.tag) removeImage(built.tag);
  restoreCacheDir();
});

describe("taskImage over a Dockerfile", () => {
  it("builds once for concurrent callers, tagged by the environment checksum, with the image's config", async () => {
    const [a, b] = await Promise.all([taskImage(options), taskImage(options)]);
    expect(a).not.toBeNull();
    built = a as ImageRef;
    expect(b?.id).toBe(built.id);
    expect(built.id).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(built.tag).toMatch(/^longhaul-env:[0-9a-f]{16}$/);
    expect(built.config.workdir).toBe("/app");
    expect(built.config.env.FOO).toBe("bar");
    expect(built.config.user).toBeNull();
    const log = readFileSync(logFile, "utf8");
    // One build, not two racing ones: the classic builder numbers its steps once per build.
    expect(log.match(/Step 1\/\d+ : FROM/g)?.length).toBe(1);
    expect(log).toContain("COPY hello.txt");
  }, 600_000);

  it("reuses the tagged image on a second call, without building", async () => {
    const before = statSync(logFile).mtimeMs;
    const started = Date.now();
    const again = await taskImage(options);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(again?.id).toBe(built.id);
    expect(statSync(logFile).mtimeMs).toBe(before);
  });

  it("uses docker_image over a Dockerfile beside it, which it does not build (as in Harbor)", async () => {
    const base = await ensureTestBaseImage();
    const before = statSync(logFile).mtimeMs;
    const r = await taskImage({ ...options, dockerImage: TEST_BASE_IMAGE });
    expect(r?.id).toBe(base.id);
    expect(r?.id).not.toBe(built.id);
    expect(statSync(logFile).mtimeMs).toBe(before);
  });

  it("returns null for a task with neither a Dockerfile nor docker_image", async () => {
    const plain = mkdtempSync(join(work, "plain-"));
    expect(await taskImage({ ...options, envDir: plain })).toBeNull();
  });

  it("names a docker_image that is neither local nor pullable, and how to get it", async () => {
    const plain = mkdtempSync(join(work, "plain-"));
    const err = await taskImage({ ...options, envDir: plain, dockerImage: `longhaul-absent:${nonce}` }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(UserError);
    expect((err as Error).message).toContain(`longhaul-absent:${nonce}`);
    expect((err as Error).message).toContain("docker load");
    expect((err as Error).message).toContain("longhaul images bootstrap");
  });

  it("reports a failing RUN as the task's error, with the command's output and the log path", async () => {
    const bad = join(mkdtempSync(join(work, "bad-")), "environment");
    writeEnv(bad);
    const dockerfile = join(bad, "Dockerfile");
    execFileSync("sh", ["-c", `echo 'RUN echo "widget-${nonce} is broken" && exit 3' >> ${dockerfile}`]);
    const badLog = join(bad, "..", "build.log");
    const err = await taskImage({ ...options, taskName: "badtask", envDir: bad, logFile: badLog }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(UserError);
    const msg = (err as Error).message;
    expect(msg).toContain("task badtask: docker build failed");
    expect(msg).toContain(`widget-${nonce} is broken`);
    expect(msg).toContain(badLog);
    expect(readFileSync(badLog, "utf8")).toContain(`widget-${nonce} is broken`);
  }, 600_000);
});

describe("root file systems", () => {
  let rootfs = "";

  it("unpacks the image as built: COPY'd and RUN-made files, not the deleted ones", async () => {
    rootfs = await ensureRootfs(built);
    expect(rootfs).toBe(join(imageCacheDir(built.id), "rootfs"));
    // The entry is the rootfs and its metadata: the saved archive it came from is gone.
    expect(readdirSync(imageCacheDir(built.id)).sort()).toEqual([
      ".complete",
      "config.json",
      "image.json",
      "rootfs",
    ]);
    expect(readFileSync(join(rootfs, "app", "hello.txt"), "utf8")).toBe(`hello ${nonce}\n`);
    expect(readFileSync(join(rootfs, "app", "made.txt"), "utf8")).toBe("made\n");
    expect(existsSync(join(rootfs, "app", "temp.txt"))).toBe(false);
    expect(existsSync(join(rootfs, "opt", "gone", "f"))).toBe(false);
    expect(readFileSync(join(rootfs, "opt", "gone", "g"), "utf8")).toBe("new\n");
    expect(existsSync(join(rootfs, "usr", "bin", "python3"))).toBe(true);
    // The image, not a container made from it: docker's init-layer files are absent.
    expect(existsSync(join(rootfs, ".dockerenv"))).toBe(false);
    expect(JSON.parse(readFileSync(join(imageCacheDir(built.id), "config.json"), "utf8"))).toEqual(
      built.config,
    );
    const started = Date.now();
    expect(await ensureRootfs(built)).toBe(rootfs);
    expect(Date.now() - started).toBeLessThan(500);
  }, 600_000);

  it("loads the same image from a docker save archive, with no daemon, to the same id and files", async () => {
    const archive = join(work, "saved.tar");
    execFileSync("docker", ["save", "-o", archive, built.tag as string]);
    process.env.LONGHAUL_CACHE_DIR = join(work, "cache-from-archive");
    try {
      const loaded = await loadImageArchive(archive);
      expect(loaded.id).toBe(built.id);
      expect(loaded.config).toEqual(built.config);
      expect(cachedImage(built.id)).not.toBeNull();
      const again = await ensureRootfs(loaded);
      expect(again.startsWith(join(work, "cache-from-archive"))).toBe(true);
      expect(listTree(again)).toEqual(listTree(rootfs));
      expect(readdirSync(imageCacheDir(built.id)).sort()).toEqual([
        ".complete",
        "config.json",
        "image.json",
        "rootfs",
      ]);
    } finally {
      process.env.LONGHAUL_CACHE_DIR = join(work, "cache");
    }
  }, 600_000);
});
