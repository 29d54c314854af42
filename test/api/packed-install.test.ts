import { execFile, spawn } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";

// The package as a user gets it: `npm pack`, installed into a folder of its own outside the
// repository, without dev dependencies. The installed `longhaul` command and the two example
// scripts of docs/api.md then run against that install alone, so a module left out of the
// tarball, or a dev dependency (vitest, typescript, ...) imported at run time, fails here.
// The tests after the first use folders of their own (a task, two jobs folders), so they run at once.

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, "../..");

const LockEntry = z.looseObject({ dev: z.boolean().optional() });
const Lock = z.looseObject({ packages: z.record(z.string(), LockEntry) });
const Manifest = z.looseObject({
  version: z.string(),
  license: z.string(),
  bin: z.record(z.string(), z.string()),
  engines: z.record(z.string(), z.string()),
  dependencies: z.record(z.string(), z.string()),
  devDependencies: z.record(z.string(), z.string()),
});
const PackOutput = z.array(z.object({ filename: z.string(), integrity: z.string() })).length(1);

const manifest = Manifest.parse(JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")));

let work = "";
let pkgDir = "";

/**
 * The children see neither the repository's module paths nor what an `npm test` run tells its
 * scripts about the repository (npm_package_*, npm_lifecycle_*, npm_config_local_prefix): the
 * install must stand on its own. npm's other settings (npm_config_cache, a registry) are kept.
 */
function cleanEnv(): NodeJS.ProcessEnv {
  const drop =
    /^(NODE_PATH|NODE_OPTIONS|npm_package_.*|npm_lifecycle_.*|npm_config_local_prefix|npm_command)$/i;
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!drop.test(k)) env[k] = v;
  return { ...env, CI: "true" };
}

async function inWork(
  file: string,
  args: string[],
  timeout = 170_000,
): Promise<{ stdout: string; stderr: string }> {
  return run(file, args, { cwd: work, env: cleanEnv(), timeout, maxBuffer: 16 * 1024 * 1024 });
}

/** Newest modification time (ms) of the files under `dir` that `keep` accepts. */
function newest(dir: string, keep: (f: string) => boolean): { file: string; mtime: number } {
  let best = { file: "", mtime: 0 };
  for (const e of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!e.isFile()) continue;
    const f = join(e.parentPath, e.name);
    if (!keep(f)) continue;
    const mtime = statSync(f).mtimeMs;
    if (mtime > best.mtime) best = { file: f, mtime };
  }
  return best;
}

/**
 * `npm pack` packs dist/ as it is (the package has no prepack build), and the suite builds
 * before it runs (scripts/test.sh); a dist/ older than src/ would test stale code, so it stops.
 * The stamp is dist/package.json, which `npm run build` writes last, after tsc succeeded, on
 * every build: tsc leaves a file alone when its source was touched but not changed.
 */
function assertDistFresh(): void {
  const stamp = join(ROOT, "dist", "package.json");
  if (!existsSync(stamp)) throw new Error("dist/ is missing: run `npm run build` first");
  const src = newest(join(ROOT, "src"), (f) => f.endsWith(".ts") && !f.endsWith(".test.ts"));
  if (src.mtime > statSync(stamp).mtimeMs) {
    throw new Error(`${relative(ROOT, src.file)} is newer than the last build: run \`npm run build\` first`);
  }
}

/**
 * A project that depends on the tarball, with a lockfile of exactly the runtime packages the
 * repository's own lockfile pins (its entries not marked dev). An offline install needs exact
 * versions and integrities: `npm ci` fills the npm cache with tarballs, not with the registry
 * metadata a range resolution would read. The dev packages are left out, so they are absent.
 */
function writeProject(tarball: string, integrity: string): void {
  const lock = Lock.parse(JSON.parse(readFileSync(join(ROOT, "package-lock.json"), "utf8")));
  const spec = `file:${tarball}`;
  const packages: Record<string, unknown> = {
    "": { name: "longhaul-user", dependencies: { longhaul: spec } },
    "node_modules/longhaul": {
      version: manifest.version,
      resolved: spec,
      integrity,
      license: manifest.license,
      dependencies: manifest.dependencies,
      bin: manifest.bin,
      engines: manifest.engines,
    },
  };
  for (const [path, entry] of Object.entries(lock.packages)) {
    if (path !== "" && entry.dev !== true) packages[path] = entry;
  }
  const pkg = { name: "longhaul-user", private: true, type: "module", dependencies: { longhaul: spec } };
  writeFileSync(join(work, "package.json"), `${JSON.stringify(pkg, null, 2)}\n`);
  const lockfile = { name: "longhaul-user", lockfileVersion: 3, requires: true, packages };
  writeFileSync(join(work, "package-lock.json"), `${JSON.stringify(lockfile, null, 2)}\n`);
}

async function install(): Promise<void> {
  // --ignore-scripts: better-sqlite3's install script would compile SQLite with node-gyp (one to
  // two minutes here), since its prebuilt binaries are downloaded from outside the npm registry.
  const args = ["ci", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error"];
  try {
    await inWork("npm", [...args, "--offline"], 120_000);
  } catch (e) {
    // A package missing from the npm cache: take it from the registry (the one network CI has).
    if (!/ENOTCACHED/.test(String((e as { stderr?: string }).stderr ?? e))) throw e;
    await inWork("npm", [...args, "--prefer-offline"], 120_000);
  }
  // In place of that build: the repository's addon, compiled by `npm ci` for this same pinned
  // better-sqlite3 version and this Node, is exactly what the install script would have produced.
  const version = (dir: string): string =>
    z.object({ version: z.string() }).parse(JSON.parse(readFileSync(join(dir, "package.json"), "utf8")))
      .version;
  const from = join(ROOT, "node_modules", "better-sqlite3");
  const to = join(work, "node_modules", "better-sqlite3");
  if (version(from) !== version(to)) {
    throw new Error(`better-sqlite3 ${version(to)} installed, but the repository built ${version(from)}`);
  }
  mkdirSync(join(to, "build", "Release"), { recursive: true });
  const addon = join("build", "Release", "better_sqlite3.node");
  copyFileSync(join(from, addon), join(to, addon));
}

beforeAll(async () => {
  assertDistFresh();
  work = realpathSync(mkdtempSync(join(tmpdir(), "longhaul-packed-")));
  const packed = await run(
    "npm",
    ["pack", "--ignore-scripts", "--json", "--loglevel=error", "--pack-destination", work],
    { cwd: ROOT, env: cleanEnv(), maxBuffer: 64 * 1024 * 1024 },
  );
  const [tarball] = PackOutput.parse(JSON.parse(packed.stdout));
  if (tarball === undefined) throw new Error("npm pack made no tarball");
  writeProject(tarball.filename, tarball.integrity);
  await install();
  pkgDir = join(work, "node_modules", "longhaul");
}, 180_000);

afterAll(() => {
  if (work === "") return;
  // Unlinking the install's ~9,000 files can take a minute on a busy disk, and nothing waits for
  // it: a detached `rm` finishes the clean-up after the test file is done.
  spawn("rm", ["-rf", "--", work], { detached: true, stdio: "ignore" }).unref();
});

describe("the packed package installed in a folder of its own", () => {
  it("is the tarball's copy, with runtime dependencies only and nothing above to fall back on", () => {
    // Installed from the tarball, not linked to the repository.
    expect(realpathSync(pkgDir)).toBe(pkgDir);
    expect(existsSync(join(pkgDir, "dist", "cli", "main.js"))).toBe(true);
    for (const absent of ["test", "src/cli", "tsconfig.json", "node_modules"]) {
      expect(existsSync(join(pkgDir, absent)), absent).toBe(false);
    }
    for (const dev of Object.keys(manifest.devDependencies)) {
      expect(existsSync(join(work, "node_modules", dev)), `dev dependency ${dev}`).toBe(false);
    }
    for (const dep of Object.keys(manifest.dependencies)) {
      expect(existsSync(join(work, "node_modules", dep)), `dependency ${dep}`).toBe(true);
    }
    // Node looks for packages in every parent folder's node_modules too: none may exist.
    for (let d = dirname(work); ; d = dirname(d)) {
      expect(existsSync(join(d, "node_modules")), `${d}/node_modules`).toBe(false);
      if (dirname(d) === d) break;
    }
  });

  it.concurrent("runs the installed `longhaul --help` and `--version`", async () => {
    const bin = join(work, "node_modules", ".bin", "longhaul");
    expect(realpathSync(bin)).toBe(join(pkgDir, "dist", "cli", "main.js"));
    const help = await inWork(bin, ["--help"]);
    expect(help.stdout).toMatch(/^Usage: longhaul \[options\] \[command\]/);
    expect(help.stdout).toMatch(/^ {2}run \[options\] \[paths\.\.\.\]/m);
    expect((await inWork(bin, ["--version"])).stdout).toBe(`${manifest.version}\n`);
  });

  it.concurrent("scaffolds a task carrying the packed verifier kit, and ships the sealed runner", async () => {
    const bin = join(work, "node_modules", ".bin", "longhaul");
    await inWork(bin, ["task", "new", join(work, "kit-task")]);
    const kit = readFileSync(join(pkgDir, "kit", "lh.py"), "utf8");
    expect(readFileSync(join(work, "kit-task", "tests", "lh.py"), "utf8")).toBe(kit);
    expect(kit).toBe(readFileSync(join(ROOT, "kit", "lh.py"), "utf8"));
    expect(existsSync(join(pkgDir, "src", "grading", "kit", "sealed-run"))).toBe(true);
  });

  it.concurrent("runs an oracle trial of a bundled task with the installed CLI: R = 1", async () => {
    const bin = join(work, "node_modules", ".bin", "longhaul");
    const jobs = join(work, "jobs-cli");
    // The examples below run log-digest and loan-schedule; heatwave-audit's oracle trial is cheaper.
    const task = join(pkgDir, "tasks", "heatwave-audit");
    const r = await inWork(bin, [
      "run",
      task,
      ...[
        "--agent",
        "oracle",
        "--sandbox",
        "bwrap",
        "--jobs-dir",
        jobs,
        "--job",
        "packed",
        "--seed",
        "3",
        "--json",
      ],
    ]);
    const out = z
      .object({
        job_id: z.string(),
        trials: z.array(
          z.object({ trial_id: z.string(), outcome: z.string(), reward: z.number().nullable() }),
        ),
      })
      .parse(JSON.parse(r.stdout));
    expect(out.job_id).toBe("packed");
    expect(out.trials).toHaveLength(1);
    const trial = out.trials[0];
    expect(trial).toMatchObject({ outcome: "completed", reward: 1 });
    expect(r.stderr).toMatch(/^done {3}heatwave-audit__oracle__a1 +R=1\.000 +completed/m);
    const stored = z
      .object({ reward: z.number() })
      .parse(JSON.parse(readFileSync(join(jobs, "packed", trial?.trial_id ?? "", "result.json"), "utf8")));
    expect(stored.reward).toBe(1);
    // The job index is the SQLite store, written through the installed better-sqlite3.
    expect(statSync(join(jobs, "longhaul.db")).size).toBeGreaterThan(0);
  }, 180_000);

  it.concurrent("runs both example scripts of docs/api.md against the install", async () => {
    for (const f of ["run-oracle.mjs", "report-job.mjs"]) {
      copyFileSync(join(ROOT, "docs", "examples", f), join(work, f));
    }
    const probe = 'console.log(import.meta.resolve("longhaul"), import.meta.resolve("longhaul/testing"));';
    const where = await inWork(process.execPath, ["--input-type=module", "-e", probe]);
    expect(where.stdout.trim().split(" ")).toEqual([
      `file://${join(pkgDir, "dist", "index.js")}`,
      `file://${join(pkgDir, "dist", "testing.js")}`,
    ]);
    const jobs = join(work, "jobs-api");
    const oracle = await inWork(process.execPath, ["run-oracle.mjs", jobs]);
    expect(oracle.stdout).toContain("trial loan-schedule oracle completed R=1.000");
    expect(oracle.stdout).toContain("trial log-digest oracle completed R=1.000");
    expect(oracle.stdout).toContain("pass@1 (R >= 0.95): 2/2, mean R 1.000");
    const report = await inWork(process.execPath, ["report-job.mjs", jobs]);
    expect(report.stdout).toContain("oracle / -: pass@1 2/2, mean R 1.000");
    expect(report.stdout).toContain("# longhaul report");
    // longhaul/testing imports vitest, a dev dependency: absent here, so importing it fails.
    const testing = await inWork(process.execPath, [
      "--input-type=module",
      "-e",
      'import("longhaul/testing").then(() => console.log("loaded"), (e) => console.log(e.code, e.message));',
    ]);
    expect(testing.stdout).toMatch(/^ERR_MODULE_NOT_FOUND Cannot find package 'vitest'/);
  }, 180_000);
});
