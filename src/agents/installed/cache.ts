import { spawn } from "node:child_process";
import {
  chmodSync,
  closeSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { InfraError, UserError } from "../../core/index.js";
import type { InstalledAgentDef } from "./types.js";

/** Written last into an install folder: its presence means the install is complete. */
const DONE_MARKER = ".longhaul-installed";
/** A lock older than this whose holder cannot be checked is taken over. */
const STALE_LOCK_MS = 15 * 60 * 1000;

/** The agent cache: LONGHAUL_AGENT_CACHE, else `$XDG_CACHE_HOME/longhaul/agents`, else ~/.cache/… */
export function agentCacheRoot(env: NodeJS.ProcessEnv = process.env): string {
  const explicit = env.LONGHAUL_AGENT_CACHE;
  if (explicit !== undefined && explicit !== "") return explicit;
  const xdg = env.XDG_CACHE_HOME;
  return join(xdg !== undefined && xdg !== "" ? xdg : join(homedir(), ".cache"), "longhaul", "agents");
}

/** The cache key (and folder name) of an install: `@scope+name@1.2.3` or a script's key. */
export function installKey(install: InstalledAgentDef["install"]): string {
  if (install.kind === "script") return install.key.replaceAll("/", "+");
  return `${install.package.replaceAll("/", "+")}@${install.version}`;
}

/**
 * The host folder holding the agent's install, installing it first if this cache has none.
 * Concurrent trials (and processes) sharing a cache install once: the first takes a lock file,
 * installs into a private folder and renames it into place; the others wait for the marker.
 */
export async function ensureInstalled(
  def: InstalledAgentDef,
  root: string,
  log: (line: string) => void = () => undefined,
  signal?: AbortSignal,
): Promise<string> {
  const key = installKey(def.install);
  const dir = join(root, key);
  if (existsSync(join(dir, DONE_MARKER))) return dir;
  mkdirSync(root, { recursive: true });
  const lock = join(root, `${key}.lock`);
  for (;;) {
    if (existsSync(join(dir, DONE_MARKER))) return dir;
    if (signal?.aborted) throw new InfraError(`install of ${key} interrupted`);
    if (takeLock(lock)) break;
    await new Promise((ok) => setTimeout(ok, 250));
  }
  try {
    if (existsSync(join(dir, DONE_MARKER))) return dir;
    const tmp = `${dir}.tmp-${process.pid}`;
    rmSync(tmp, { recursive: true, force: true });
    mkdirSync(tmp, { recursive: true });
    const t0 = performance.now();
    log(`installing ${key} into ${root}`);
    await install(def, tmp, signal);
    for (const rel of def.executables ?? []) {
      const p = join(tmp, rel);
      if (existsSync(p)) chmodSync(p, 0o755);
    }
    writeFileSync(join(tmp, DONE_MARKER), `${new Date().toISOString()}\n`);
    rmSync(dir, { recursive: true, force: true });
    renameSync(tmp, dir);
    log(`installed ${key} in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    return dir;
  } finally {
    rmSync(lock, { force: true });
  }
}

/** Creates the lock file, or clears it when its holder is gone; true when this process holds it. */
function takeLock(lock: string): boolean {
  try {
    const fd = openSync(lock, "wx");
    writeFileSync(fd, String(process.pid));
    closeSync(fd);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
  }
  if (lockIsStale(lock)) rmSync(lock, { force: true });
  return false;
}

function lockIsStale(lock: string): boolean {
  try {
    const pid = Number.parseInt(readFileSync(lock, "utf8"), 10);
    if (Number.isInteger(pid) && pid > 0) {
      try {
        process.kill(pid, 0);
        return false;
      } catch (e) {
        // EPERM: alive but someone else's.
        return (e as NodeJS.ErrnoException).code === "ESRCH";
      }
    }
    return Date.now() - statSync(lock).mtimeMs > STALE_LOCK_MS;
  } catch {
    return false;
  }
}

async function install(def: InstalledAgentDef, into: string, signal?: AbortSignal): Promise<void> {
  const inst = def.install;
  if (inst.kind === "script") {
    await run("bash", ["-c", inst.script], into, { PREFIX: into }, signal, def.name);
    return;
  }
  const quiet = ["--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error", "--omit=dev"];
  if (inst.lockDir !== undefined) {
    const locks = typeof inst.lockDir === "string" ? inst.lockDir : inst.lockDir();
    // The pinned tree: the lockfile decides every version; npm ci refuses a lock that disagrees.
    copyFileSync(join(locks, "package.json"), join(into, "package.json"));
    copyFileSync(join(locks, "package-lock.json"), join(into, "package-lock.json"));
    try {
      await run("npm", ["ci", ...quiet], into, {}, signal, def.name);
    } catch (e) {
      // Some packages declare optional dependencies npm's lockfile cannot hold (an empty range),
      // and `npm ci` then calls any lock out of sync; `npm install` still takes every version
      // the lock names.
      if (!(e instanceof InfraError) || !e.message.includes("EUSAGE")) throw e;
      rmSync(join(into, "node_modules"), { recursive: true, force: true });
      await run("npm", ["install", "--no-save", ...quiet], into, {}, signal, def.name);
    }
    return;
  }
  writeFileSync(join(into, "package.json"), `${JSON.stringify({ private: true })}\n`);
  await run(
    "npm",
    ["install", ...quiet, "--save-exact", `${inst.package}@${inst.version}`],
    into,
    {},
    signal,
    def.name,
  );
}

function run(
  cmd: string,
  args: string[],
  cwd: string,
  env: Record<string, string>,
  signal: AbortSignal | undefined,
  name: string,
): Promise<void> {
  return new Promise((ok, fail) => {
    const p = spawn(cmd, args, {
      cwd,
      env: { ...process.env, ...env },
      stdio: ["ignore", "ignore", "pipe"],
      signal,
    });
    let err = "";
    p.stderr.on("data", (d: Buffer) => {
      // The head names the error (npm's code line); the tail its detail.
      if (err.length < 64_000) err += d.toString("utf8");
    });
    p.on("error", (e) =>
      fail(
        (e as NodeJS.ErrnoException).code === "ENOENT"
          ? new UserError(`installing agent ${name} needs ${cmd} on the PATH`)
          : new InfraError(`installing agent ${name}: ${e.message}`),
      ),
    );
    p.on("close", (code) => {
      if (code === 0) ok();
      // A registry outage is worth a retry; the trial is retried as an infrastructure failure.
      else
        fail(
          new InfraError(
            `installing agent ${name}: ${cmd} ${args[0] ?? ""} exited ${code}: ${summarize(err)}`,
          ),
        );
    });
  });
}

/** npm's error code line and the last lines of its output. */
function summarize(stderr: string): string {
  const t = stderr.trim();
  const code = t.split("\n").find((l) => l.includes("code E")) ?? "";
  return `${code}${code ? " … " : ""}${t.slice(-800)}`;
}
