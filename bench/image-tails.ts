/**
 * What an image with a COPY tail costs the bwrap provider, unpacked whole (`docker save`,
 * LONGHAUL_IMAGE_TAILS=off) and over its head's cached rootfs (the default), side by side in one
 * run: N variants of a Dockerfile task's environment, each differing in one COPY'd file (as RES
 * children do), each built and unpacked both ways, alternating which goes first. Prints the
 * seconds to build and to unpack (with a `sync` of what the unpacking wrote, so one sample's
 * writes do not slow the next), per variant p50, and the disk each new entry takes.
 * Run: npx tsx bench/image-tails.ts [--variants 6] [TASK_DIR]
 * (default task: test/fixtures/harbor/csv-aggregate; its Dockerfile must end in a COPY tail).
 */
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { appendFileSync, cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { resolveTaskImage } from "../src/sandbox/image/build-image.js";
import { splitDockerfileTail } from "../src/sandbox/image/dockerfile-tail.js";
import { ensureRootfs, imageCacheRoot } from "../src/sandbox/image/rootfs-cache.js";

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? (process.argv[i + 1] ?? fallback) : fallback;
}

const variants = Number(arg("variants", "6"));
const taskDir = resolve(
  process.argv.slice(2).find((a, i, all) => !a.startsWith("--") && !all[i - 1]?.startsWith("--")) ??
    "test/fixtures/harbor/csv-aggregate",
);
const envDir = join(taskDir, "environment");
const dockerfile = readFileSync(join(envDir, "Dockerfile"), "utf8");
if (splitDockerfileTail(dockerfile) === null) {
  process.stderr.write(`${envDir}/Dockerfile has no COPY tail to split\n`);
  process.exit(2);
}
const scratch = mkdtempSync(join(tmpdir(), "longhaul-bench-tails-"));
process.env.LONGHAUL_CACHE_DIR = join(scratch, "cache");
const tags: string[] = [];
mkdirSync(imageCacheRoot(), { recursive: true });

/** Bytes the cache takes on disk (hard-linked files once). */
function cacheBytes(): number {
  const out = execFileSync("du", ["-sxb", imageCacheRoot()], { encoding: "utf8" });
  return Number.parseInt(out, 10) || 0;
}

type Mode = "whole" | "tail";
interface Sample {
  build: number;
  unpack: number;
  bytes: number;
}

/** A fresh variant of the environment (one COPY'd file changed), built and unpacked in `mode`. */
async function sample(mode: Mode, i: number): Promise<Sample> {
  const dir = join(scratch, `${mode}-${i}`);
  cpSync(envDir, dir, { recursive: true });
  const file = readdirSync(dir).find((n) => n !== "Dockerfile" && !n.startsWith("."));
  if (file === undefined) throw new Error(`${envDir} has no file beside its Dockerfile`);
  appendFileSync(join(dir, file), `\n# ${randomBytes(6).toString("hex")}\n`);
  process.env.LONGHAUL_IMAGE_TAILS = mode === "whole" ? "off" : "on";
  const before = cacheBytes();
  // Each sample pays for flushing its own writes (timed in its unpack), not for the previous one's.
  execFileSync("sync");
  const t0 = performance.now();
  const r = await resolveTaskImage({
    taskName: `${mode}-${i}`,
    envDir: dir,
    dockerImage: null,
    buildTimeoutSec: 600,
    logFile: join(scratch, "logs", `${mode}-${i}.log`),
  });
  if (r === null) throw new Error("no image");
  if (r.image.tag !== null) tags.push(r.image.tag);
  const t1 = performance.now();
  await ensureRootfs(r.image);
  execFileSync("sync");
  const t2 = performance.now();
  return { build: (t1 - t0) / 1000, unpack: (t2 - t1) / 1000, bytes: cacheBytes() - before };
}

const p50 = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;

try {
  // The head's rootfs is unpacked once, by the first variant that needs it: timed apart.
  const first = await sample("tail", -1);
  process.stderr.write(
    `head (once): build ${first.build.toFixed(2)} s, unpack ${first.unpack.toFixed(2)} s (the head whole, then the variant)\n`,
  );
  const got: Record<Mode, Sample[]> = { whole: [], tail: [] };
  for (let i = 0; i < variants; i++) {
    const order: Mode[] = i % 2 === 0 ? ["whole", "tail"] : ["tail", "whole"];
    for (const mode of order) {
      const s = await sample(mode, i);
      got[mode].push(s);
      process.stderr.write(
        `variant ${i} ${mode}: build ${s.build.toFixed(2)} s, unpack ${s.unpack.toFixed(2)} s, ${(s.bytes / 1e6).toFixed(1)} MB\n`,
      );
    }
  }
  const row = (m: Mode) => {
    const s = got[m];
    const b = p50(s.map((x) => x.build));
    const u = p50(s.map((x) => x.unpack));
    const t = p50(s.map((x) => x.build + x.unpack));
    return { b, u, t, mb: p50(s.map((x) => x.bytes)) / 1e6 };
  };
  const w = row("whole");
  const t = row("tail");
  process.stdout.write(`${taskDir}: ${variants} variants each way, p50 seconds per image\n`);
  process.stdout.write(
    "| unpacked | build | unpack | build + unpack | disk per image |\n|---|---|---|---|---|\n",
  );
  for (const [name, r] of [
    ["whole (`docker save`)", w],
    ["over the head (default)", t],
  ] as const) {
    process.stdout.write(
      `| ${name} | ${r.b.toFixed(2)} | ${r.u.toFixed(2)} | ${r.t.toFixed(2)} | ${r.mb.toFixed(1)} MB |\n`,
    );
  }
  process.stdout.write(
    `unpack ${(w.u / t.u).toFixed(1)}× faster, build + unpack ${(w.t / t.t).toFixed(1)}× faster, disk ${(w.mb / Math.max(t.mb, 0.01)).toFixed(0)}× smaller\n`,
  );
} finally {
  for (const tag of tags) {
    try {
      execFileSync("docker", ["rmi", "-f", tag], { stdio: "ignore" });
    } catch {
      // Already gone.
    }
  }
  rmSync(scratch, { recursive: true, force: true });
}
