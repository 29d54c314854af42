/**
 * What a verifier exec on a fresh copy of the image (ExecOptions.imageRoot, `[verifier] root =
 * "image"`) costs over one on the sandbox's own root: one sandbox over the test base image, `true`
 * run N times each way, interleaved so both see the same load. Mounts as the verifier has them
 * (/tests read-only, fresh /root and /tmp). Under bwrap the copy is an overlay over the cached
 * rootfs; under docker a container of its own, with the sandbox's container's root bound in.
 * Run: npx tsx bench/image-root-exec.ts [runs] [bwrap|docker]   (root, the test base image)
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BwrapProvider } from "../src/sandbox/bwrap-provider.js";
import { DockerProvider } from "../src/sandbox/docker/docker-provider.js";
import { ensureRootfs } from "../src/sandbox/image/rootfs-cache.js";
import type { ExecOptions } from "../src/sandbox/types.js";
import { ensureTestBaseImage } from "../test/support/base-image.js";

const runs = Number(process.argv[2] ?? 30);
const which = process.argv[3] ?? "bwrap";
if (which !== "bwrap" && which !== "docker")
  throw new Error(`provider must be bwrap or docker, not ${which}`);

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

async function main(): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), "longhaul-bench-"));
  const tests = join(root, "tests");
  mkdirSync(tests);
  const image = await ensureTestBaseImage();
  if (which === "bwrap") await ensureRootfs(image);
  const provider = which === "docker" ? new DockerProvider() : new BwrapProvider({ rootfsFor: ensureRootfs });
  await provider.check();
  const s = await provider.create({
    environmentDir: null,
    workdir: "/app",
    memoryMb: 1024,
    cpus: 2,
    pidsMax: 4096,
    allowInternet: false,
    stateDir: join(root, "state"),
    image,
  });
  const options = (imageRoot: boolean): ExecOptions => ({
    mounts: [{ hostPath: tests, sandboxPath: "/tests", readonly: true }],
    freshDirs: ["/root", "/tmp"],
    imageRoot,
  });
  const time = async (imageRoot: boolean): Promise<number> => {
    const t = performance.now();
    const r = await s.exec(["true"], options(imageRoot));
    if (r.exitCode !== 0) throw new Error(`true exited ${r.exitCode}: ${r.stderr}`);
    return performance.now() - t;
  };
  try {
    await time(false);
    await time(true);
    const own: number[] = [];
    const fresh: number[] = [];
    for (let i = 0; i < runs; i++) {
      own.push(await time(false));
      fresh.push(await time(true));
    }
    for (const xs of [own, fresh]) xs.sort((a, b) => a - b);
    const row = (name: string, xs: number[]): string =>
      `${name.padEnd(34)} p50 ${percentile(xs, 50).toFixed(1).padStart(7)} ms   p95 ${percentile(xs, 95).toFixed(1).padStart(7)} ms`;
    console.log(
      `${which}: exec true with the verifier's mounts, ${runs} runs each, image ${image.tag ?? image.id}`,
    );
    console.log(row("on the sandbox's own root", own));
    console.log(row("on a fresh copy of the image", fresh));
    console.log(
      `added per exec (p50)                ${(percentile(fresh, 50) - percentile(own, 50)).toFixed(1)} ms`,
    );
  } finally {
    await s.close();
    rmSync(root, { recursive: true, force: true });
  }
}

await main();
