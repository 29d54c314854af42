import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UserError } from "../../../src/core/errors.js";
import { loadImageArchive } from "../../../src/sandbox/image/archive.js";
import { resolveTaskImage } from "../../../src/sandbox/image/build-image.js";
import { ensureRootfs, imageCacheRoot } from "../../../src/sandbox/image/rootfs-cache.js";
import { tempDir, useCacheDir } from "./helpers.js";

let restoreCacheDir: () => void = () => {};
const work = tempDir("archive");

beforeAll(() => {
  restoreCacheDir = useCacheDir(join(work, "cache"));
});
afterAll(() => {
  rmSync(work, { recursive: true, force: true });
  restoreCacheDir();
});

/** A tar of `files` (path → content; a trailing "/" makes a folder), built by the system tar. */
function layerTar(name: string, files: Record<string, string>): Buffer {
  const dir = join(work, `src-${name}`);
  for (const [p, content] of Object.entries(files)) {
    if (p.endsWith("/")) mkdirSync(join(dir, p), { recursive: true });
    else {
      mkdirSync(join(dir, p, ".."), { recursive: true });
      writeFileSync(join(dir, p), content);
    }
  }
  execFileSync("tar", ["-C", dir, "--numeric-owner", "--owner=0", "--group=0", "-cf", join(work, name), "."]);
  return readFileSync(join(work, name));
}

function blob(layout: string, bytes: Buffer): { digest: string; size: number } {
  const hex = createHash("sha256").update(bytes).digest("hex");
  mkdirSync(join(layout, "blobs", "sha256"), { recursive: true });
  writeFileSync(join(layout, "blobs", "sha256", hex), bytes);
  return { digest: `sha256:${hex}`, size: bytes.length };
}

describe("loadImageArchive", () => {
  it("applies an OCI layout's layers in order, gzip ones too, with whiteouts and opaque folders", async () => {
    const layout = join(work, "oci");
    const lower = layerTar("lower.tar", {
      "app/keep.txt": "keep\n",
      "app/del.txt": "delete me\n",
      "data/old.txt": "old\n",
      "data/sub/deep.txt": "deep\n",
    });
    const upper = layerTar("upper.tar", {
      "app/.wh.del.txt": "",
      "data/.wh..wh..opq": "",
      "data/new.txt": "new\n",
      "top.txt": "top\n",
    });
    const config = Buffer.from(
      JSON.stringify({
        architecture: "amd64",
        os: "linux",
        config: { WorkingDir: "/app", Env: ["PATH=/bin", "A=1=2"], User: "1000:1000" },
        rootfs: { type: "layers", diff_ids: [] },
      }),
    );
    const cfg = blob(layout, config);
    const l1 = blob(layout, lower);
    const l2 = blob(layout, gzipSync(upper));
    const manifest = Buffer.from(
      JSON.stringify({
        schemaVersion: 2,
        mediaType: "application/vnd.oci.image.manifest.v1+json",
        config: { mediaType: "application/vnd.oci.image.config.v1+json", ...cfg },
        layers: [
          { mediaType: "application/vnd.oci.image.layer.v1.tar", ...l1 },
          { mediaType: "application/vnd.oci.image.layer.v1.tar+gzip", ...l2 },
        ],
      }),
    );
    const m = blob(layout, manifest);
    writeFileSync(join(layout, "oci-layout"), JSON.stringify({ imageLayoutVersion: "1.0.0" }));
    writeFileSync(
      join(layout, "index.json"),
      JSON.stringify({
        schemaVersion: 2,
        manifests: [
          {
            mediaType: "application/vnd.oci.image.manifest.v1+json",
            ...m,
            annotations: { "org.opencontainers.image.ref.name": "tiny:1" },
          },
        ],
      }),
    );
    // As a tar of the layout, the way `skopeo copy … oci-archive:` or `docker save` (v25+) writes it.
    const archive = join(work, "oci.tar");
    execFileSync("tar", ["-C", layout, "-cf", archive, "."]);

    const ref = await loadImageArchive(archive);
    expect(ref.id).toBe(cfg.digest);
    expect(ref.tag).toBe("tiny:1");
    expect(ref.config).toEqual({ workdir: "/app", env: { PATH: "/bin", A: "1=2" }, user: "1000:1000" });
    const rootfs = await ensureRootfs(ref);
    expect(readFileSync(join(rootfs, "app", "keep.txt"), "utf8")).toBe("keep\n");
    expect(existsSync(join(rootfs, "app", "del.txt"))).toBe(false);
    expect(existsSync(join(rootfs, "app", ".wh.del.txt"))).toBe(false);
    expect(readdirSync(join(rootfs, "data")).sort()).toEqual(["new.txt"]);
    expect(readFileSync(join(rootfs, "top.txt"), "utf8")).toBe("top\n");
    expect(statSync(join(rootfs, "top.txt")).uid).toBe(0);

    // A task naming it by tag (docker_image = "tiny:1") finds it with no Docker daemon at all.
    const savedDocker = process.env.LONGHAUL_DOCKER;
    process.env.LONGHAUL_DOCKER = join(work, "no-docker-here");
    try {
      const found = await resolveTaskImage({
        taskName: "t",
        envDir: join(work, "no-env"),
        dockerImage: "tiny:1",
        buildTimeoutSec: 60,
        logFile: join(work, "t.build.log"),
      });
      expect(found).toMatchObject({ source: "archive", image: { id: ref.id, tag: "tiny:1" } });
      await expect(
        resolveTaskImage({
          taskName: "t",
          envDir: join(work, "no-env"),
          dockerImage: "tiny:2",
          buildTimeoutSec: 60,
          logFile: join(work, "t.build.log"),
        }),
      ).rejects.toThrow(/docker/);
    } finally {
      if (savedDocker === undefined) delete process.env.LONGHAUL_DOCKER;
      else process.env.LONGHAUL_DOCKER = savedDocker;
    }

    // The folder form loads to the same cache entry, without unpacking again.
    expect((await loadImageArchive(layout)).id).toBe(ref.id);
    expect(readdirSync(imageCacheRoot()).filter((n) => !n.startsWith("."))).toEqual([
      cfg.digest.slice("sha256:".length),
    ]);
  });

  it("refuses a layer entry that climbs out with ../, naming the archive", async () => {
    const dir = join(work, "evil");
    mkdirSync(join(dir, "inner"), { recursive: true });
    writeFileSync(join(dir, "escaped.txt"), "pwned\n");
    const layout = join(work, "evil-save");
    mkdirSync(join(layout, "layer1"), { recursive: true });
    // -P keeps the ../ in the member name, as a hostile archive would have it.
    execFileSync("tar", [
      "-C",
      join(dir, "inner"),
      "-P",
      "-cf",
      join(layout, "layer1", "layer.tar"),
      "../escaped.txt",
    ]);
    const config = JSON.stringify({ config: {} });
    const configName = `${createHash("sha256").update(config).digest("hex")}.json`;
    writeFileSync(join(layout, configName), config);
    writeFileSync(
      join(layout, "manifest.json"),
      JSON.stringify([{ Config: configName, RepoTags: ["evil:1"], Layers: ["layer1/layer.tar"] }]),
    );
    const archive = join(work, "evil.tar");
    execFileSync("tar", ["-C", layout, "-cf", archive, "."]);
    const err = await loadImageArchive(archive).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UserError);
    expect((err as Error).message).toContain(archive);
    expect((err as Error).message).toContain("../escaped.txt");
    expect(existsSync(join(imageCacheRoot(), "..", "escaped.txt"))).toBe(false);
  });

  it("refuses an archive whose own entries climb out, before extracting anything", async () => {
    const dir = join(work, "evil-outer", "a");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "..", "manifest.json"), "[]");
    const archive = join(work, "evil-outer.tar");
    execFileSync("tar", ["-C", dir, "-P", "-cf", archive, "../manifest.json"]);
    const err = await loadImageArchive(archive).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UserError);
    expect((err as Error).message).toContain(`${archive}: refusing the entry ../manifest.json`);
  });

  it("says what is wrong with a file that is no image archive", async () => {
    const notTar = join(work, "not.tar");
    writeFileSync(notTar, "hello");
    await expect(loadImageArchive(notTar)).rejects.toThrow(/not a readable tar archive/);
    await expect(loadImageArchive(join(work, "missing.tar"))).rejects.toThrow(/no such image archive/);
  });
});
