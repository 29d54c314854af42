import { execFileSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BwrapProvider } from "../../../src/sandbox/bwrap-provider.js";
import { loadImageArchive } from "../../../src/sandbox/image/archive.js";
import { taskImage } from "../../../src/sandbox/image/build-image.js";
import { cachedImage, ensureRootfs } from "../../../src/sandbox/image/rootfs-cache.js";
import { readTailRecipe } from "../../../src/sandbox/image/tail-rootfs.js";
import type { ImageRef } from "../../../src/sandbox/image/types.js";
import { ensureTestBaseImage, TEST_BASE_IMAGE } from "../../support/base-image.js";
import { listTree, removeImage, tempDir, useCacheDir } from "./helpers.js";

/**
 * An image whose Dockerfile ends in COPY and metadata instructions is unpacked over its head's
 * cached rootfs, with the tail's paths taken from the image: the result must be the image's files
 * exactly as a whole `docker save` gives them, with the head's files shared on disk.
 */
let restoreCacheDir: () => void = () => {};
const work = tempDir("tail");
const envDir = join(work, "environment");
let built: ImageRef;

/** `listTree` plus each regular file's content digest and mtime. */
function fullTree(root: string): string[] {
  return listTree(root).map((line) => {
    const path = line.split(" ")[0] as string;
    if (line.split(" ")[1] !== "f") return line;
    const st = statSync(join(root, path));
    const sum = createHash("sha256")
      .update(readFileSync(join(root, path)))
      .digest("hex")
      .slice(0, 16);
    return `${line} ${sum} ${Math.floor(st.mtimeMs / 1000)}`;
  });
}

beforeAll(async () => {
  restoreCacheDir = useCacheDir(join(work, "cache"));
  await ensureTestBaseImage();
  const nonce = randomBytes(6).toString("hex");
  mkdirSync(join(envDir, "data", "nested"), { recursive: true });
  writeFileSync(join(envDir, "a.txt"), `a ${nonce}\n`);
  writeFileSync(join(envDir, "data", "rows.csv"), "id,v\n1,2\n");
  writeFileSync(join(envDir, "data", "nested", "deep.json"), "{}\n");
  writeFileSync(join(envDir, "tool.sh"), "#!/bin/sh\necho tool\n", { mode: 0o755 });
  writeFileSync(
    join(envDir, "Dockerfile"),
    [
      `FROM ${TEST_BASE_IMAGE}`,
      `RUN mkdir -p /app/kept && echo ${nonce} > /app/kept/k && echo old > /app/a.txt`,
      "WORKDIR /app",
      "COPY a.txt ./",
      "COPY --chown=1234:5678 data/ /app/data/",
      "COPY tool.sh /opt/new/deep/tool.sh",
      "WORKDIR /work/made",
      "COPY a.txt rel.txt",
      "ENV MODE=tail",
      "",
    ].join("\n"),
  );
}, 900_000);

afterAll(() => {
  rmSync(work, { recursive: true, force: true });
  if (built?.tag) removeImage(built.tag);
  restoreCacheDir();
});

describe("an image unpacked over its head's root file system", () => {
  let rootfs = "";

  it("records the head and the tail's paths when it builds", async () => {
    const logFile = join(work, "build.log");
    const image = await taskImage({
      taskName: "tail",
      envDir,
      dockerImage: null,
      buildTimeoutSec: 600,
      logFile,
    });
    expect(image).not.toBeNull();
    built = image as ImageRef;
    const recipe = readTailRecipe(built.id);
    expect(recipe?.paths).toEqual([
      "/app",
      "/app/data",
      "/opt/new/deep/tool.sh",
      "/work/made",
      "/work/made/rel.txt",
    ]);
    expect(recipe?.head).not.toBe(built.id);
    expect(built.config.env.MODE).toBe("tail");
    // LONGHAUL_IMAGE_TAILS=off: the recipe is not used (the image would be unpacked whole).
    process.env.LONGHAUL_IMAGE_TAILS = "off";
    try {
      expect(readTailRecipe(built.id)).toBeNull();
    } finally {
      delete process.env.LONGHAUL_IMAGE_TAILS;
    }
  }, 600_000);

  it("is the image's files exactly, and shares the head's files on disk", async () => {
    rootfs = await ensureRootfs(built);
    expect(cachedImage(built.id)?.source).toMatch(/^docker cp over /);
    expect(readFileSync(join(rootfs, "app", "a.txt"), "utf8")).toMatch(/^a [0-9a-f]{12}\n$/);
    expect(readFileSync(join(rootfs, "work", "made", "rel.txt"), "utf8")).toBe(
      readFileSync(join(rootfs, "app", "a.txt"), "utf8"),
    );
    expect(statSync(join(rootfs, "app", "data", "rows.csv")).uid).toBe(1234);
    expect(statSync(join(rootfs, "opt", "new", "deep", "tool.sh")).mode & 0o777).toBe(0o755);
    expect(readFileSync(join(rootfs, "app", "kept", "k"), "utf8")).toMatch(/^[0-9a-f]{12}\n$/);
    // The head's own files are hard links to its cached rootfs, not copies.
    const recipe = readTailRecipe(built.id);
    const head = cachedImage(recipe?.head ?? "");
    expect(head).not.toBeNull();
    const python = "usr/bin/python3";
    expect(statSync(join(rootfs, python)).ino).toBe(statSync(join(head?.dir ?? "", "rootfs", python)).ino);

    // The same image saved whole and unpacked layer by layer, into another cache.
    const archive = join(work, "saved.tar");
    execFileSync("docker", ["save", "-o", archive, built.id]);
    process.env.LONGHAUL_CACHE_DIR = join(work, "cache-whole");
    try {
      const whole = await ensureRootfs(await loadImageArchive(archive));
      expect(cachedImage(built.id)?.source).toMatch(/^archive /);
      expect(fullTree(rootfs)).toEqual(fullTree(whole));
    } finally {
      process.env.LONGHAUL_CACHE_DIR = join(work, "cache");
    }
  }, 600_000);

  it("runs a sandbox whose writes to shared files never reach the head's copy", async () => {
    const provider = new BwrapProvider({ registryDir: join(work, "registry") });
    const s = await provider.create({
      environmentDir: null,
      workdir: "/work/made",
      memoryMb: 512,
      cpus: 1,
      pidsMax: 256,
      allowInternet: false,
      stateDir: join(work, "state"),
      image: built,
      user: "root",
    });
    const headFile = join(
      cachedImage(readTailRecipe(built.id)?.head ?? "")?.dir ?? "",
      "rootfs",
      "etc",
      "os-release",
    );
    const before = readFileSync(headFile, "utf8");
    try {
      const r = await s.exec(
        "pwd; cat rel.txt; /opt/new/deep/tool.sh; echo $MODE; echo changed >> /usr/lib/os-release",
      );
      expect(r.exitCode).toBe(0);
      expect(r.stdout).toBe(`/work/made\n${readFileSync(join(rootfs, "app", "a.txt"), "utf8")}tool\ntail\n`);
    } finally {
      await s.close();
    }
    expect(readFileSync(headFile, "utf8")).toBe(before);
    expect(readFileSync(join(rootfs, "usr", "lib", "os-release"), "utf8")).toBe(before);
  }, 120_000);
});
