/**
 * Trial start-to-first-command over an image: create a sandbox and run `true` in it, N times,
 * for bwrap over the image (overlay root per sandbox), bwrap on the host's folders, and docker
 * (`docker run --rm IMAGE true`) on the same image when the daemon is usable. Interleaved, so all
 * see the same load. Target: bwrap over the image p50 <= 50 ms and >= 10x faster than docker.
 * Run: npx tsx bench/sandbox-start-image.ts [runs]   (root, docker, the test base image)
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BwrapProvider } from "../src/sandbox/bwrap-provider.js";
import { dockerUnavailable } from "../src/sandbox/image/docker-cli.js";
import { ensureRootfs } from "../src/sandbox/image/rootfs-cache.js";
import type { ImageRef } from "../src/sandbox/image/types.js";
import type { SandboxSpec } from "../src/sandbox/types.js";
import { ensureTestBaseImage } from "../test/support/base-image.js";

const runs = Number(process.argv[2] ?? 20);

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

async function main(): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), "longhaul-bench-"));
  const image = await ensureTestBaseImage();
  await ensureRootfs(image);
  const provider = new BwrapProvider({ rootfsFor: ensureRootfs });
  await provider.check();
  const docker = (await dockerUnavailable()) === null;
  let n = 0;
  const spec = (img: ImageRef | null): SandboxSpec => ({
    environmentDir: null,
    workdir: "/app",
    memoryMb: 1024,
    cpus: 2,
    pidsMax: 4096,
    allowInternet: false,
    stateDir: join(root, `s-${++n}`),
    image: img,
  });
  const startToFirst = async (img: ImageRef | null): Promise<number> => {
    const t = performance.now();
    const s = await provider.create(spec(img));
    const r = await s.exec(["true"]);
    const ms = performance.now() - t;
    if (r.exitCode !== 0) throw new Error(`true exited ${r.exitCode}: ${r.stderr}`);
    // Closing (unmount, rm) is after the first command and not part of the start.
    await s.close();
    return ms;
  };
  const dockerRun = (): number => {
    const t = performance.now();
    const r = spawnSync("docker", ["run", "--rm", "--network", "none", image.id, "true"], {
      stdio: "ignore",
    });
    if (r.status !== 0) throw new Error(`docker run exited ${r.status}`);
    return performance.now() - t;
  };
  try {
    // Warm-up: the identity namespace, the masks scan, docker's first container.
    await startToFirst(image);
    await startToFirst(null);
    if (docker) dockerRun();
    const over: number[] = [];
    const host: number[] = [];
    const dock: number[] = [];
    for (let i = 0; i < runs; i++) {
      over.push(await startToFirst(image));
      host.push(await startToFirst(null));
      if (docker) dock.push(dockerRun());
    }
    for (const xs of [over, host, dock]) xs.sort((a, b) => a - b);
    const row = (name: string, xs: number[]): string =>
      `${name.padEnd(28)} p50 ${percentile(xs, 50).toFixed(1).padStart(7)} ms   p90 ${percentile(xs, 90).toFixed(1).padStart(7)} ms`;
    console.log(
      `create + first command (true), close not timed, ${runs} runs each, image ${image.tag ?? image.id}`,
    );
    console.log(row("bwrap over the image", over));
    console.log(row("bwrap on the host", host));
    if (docker) {
      console.log(row("docker run --rm IMAGE true", dock));
      const ratio = percentile(dock, 50) / percentile(over, 50);
      console.log(`docker / bwrap-over-image      p50 ${ratio.toFixed(1)}x`);
      console.log(`target >= 10x faster than docker: ${ratio >= 10 ? "met" : "NOT met"}`);
    } else {
      console.log("docker: not usable here, skipped");
    }
    console.log(`target p50 <= 50 ms: ${percentile(over, 50) <= 50 ? "met" : "NOT met"}`);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

await main();
