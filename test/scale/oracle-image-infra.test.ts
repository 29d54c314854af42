import { cpSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { InfraError } from "../../src/core/index.js";
import { envChecksum } from "../../src/sandbox/image/env-checksum.js";
import type { ImageRef } from "../../src/sandbox/image/types.js";
import { getSandboxProvider } from "../../src/sandbox/registry.js";
import { checkOracle, type ImageMemo, prepare } from "../../src/scale/verify/oracle-trials.js";
import { tempDir } from "../runner/helpers.js";

const LEDGER = resolve(import.meta.dirname, "../fixtures/res/ledger-report");

// An image no machine can build, fast and offline: an empty base has no shell for the RUN.
const BROKEN = ["FROM scratch", "WORKDIR /app", "COPY data/ /app/data/", "RUN false", ""].join("\n");

function copyWith(name: string, dockerfile: string | null): string {
  const dir = join(tempDir("res-oracle-image"), name);
  cpSync(LEDGER, dir, { recursive: true });
  if (dockerfile !== null) writeFileSync(join(dir, "environment/Dockerfile"), dockerfile);
  return dir;
}

describe("check (d) when a child's image cannot be built", () => {
  const provider = getSandboxProvider("bwrap");

  it("is an infrastructure failure, not the child's, when the parent's own image fails too", async () => {
    const parent = copyWith("parent", BROKEN);
    const child = copyWith("child", BROKEN);
    const run = checkOracle({ childDir: child, parentDir: parent, provider });
    await expect(run).rejects.toBeInstanceOf(InfraError);
    await expect(run).rejects.toThrow(/parent's own image cannot be built either/);
  }, 60_000);

  it("rejects the child when its parent runs (a host parent here)", async () => {
    const parent = copyWith("parent", null);
    const child = copyWith("child", BROKEN);
    const r = await checkOracle({ childDir: child, parentDir: parent, provider });
    expect(r.diagnostics.map((d) => d.code)).toEqual(["oracle-fails"]);
    expect(r.diagnostics[0]?.message).toMatch(/child task cannot run/);
  }, 60_000);
});

describe("images looked up once per environment in a run (ImageMemo)", () => {
  // An image no daemon holds: only a remembered lookup can hand it out.
  const remembered: ImageRef = {
    id: `sha256:${"ab".repeat(32)}`,
    tag: null,
    config: { workdir: "/srv/work", env: {}, user: null },
  };

  it("a task whose environment/ was already looked up runs over that image, its workdir settled", async () => {
    // Its Dockerfile cannot build: asked again, the daemon would fail it.
    const child = copyWith("child", BROKEN);
    const images: ImageMemo = new Map([[await envChecksum(join(child, "environment")), remembered]]);
    const r = await prepare(child, tempDir("res-image-memo"), "child", images);
    if (typeof r === "string") throw new Error(r);
    expect(r.image).toBe(remembered);
    expect(r.task.config.environment.workdir).toBe("/srv/work");
  }, 60_000);

  it("another environment/ is looked up, and an image that fails is not remembered", async () => {
    const child = copyWith("child", BROKEN);
    const images: ImageMemo = new Map([["0".repeat(64), remembered]]);
    const r = await prepare(child, tempDir("res-image-memo"), "child", images);
    expect(r).toMatch(/child task cannot run/);
    expect([...images.values()]).toEqual([remembered]);
  }, 60_000);
});
