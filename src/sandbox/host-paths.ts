import { execFile } from "node:child_process";
import { existsSync, lstatSync, realpathSync, rmSync } from "node:fs";
import { lstat, mkdir } from "node:fs/promises";
import { basename, dirname, join, posix, relative } from "node:path";
import { promisify } from "node:util";
import { errorMessage, UserError } from "../core/errors.js";
import { isWithin } from "./spec.js";

const run = promisify(execFile);

/** One sandbox folder kept on the host: `sandboxRoot` inside is `hostRoot` outside. */
export interface PersistentBind {
  sandboxRoot: string;
  hostRoot: string;
}

function findBind(
  binds: readonly PersistentBind[],
  sandboxPath: string,
): { bind: PersistentBind; hostPath: string } | null {
  if (!sandboxPath.startsWith("/") || sandboxPath.split("/").includes("..")) return null;
  const p = posix.normalize(sandboxPath);
  // Longest root first, so a bind nested in another wins.
  const sorted = [...binds].sort((a, b) => b.sandboxRoot.length - a.sandboxRoot.length);
  for (const bind of sorted) {
    if (!isWithin(p, bind.sandboxRoot)) continue;
    const rest = p.slice(bind.sandboxRoot.length).split("/").filter(Boolean);
    return { bind, hostPath: rest.length === 0 ? bind.hostRoot : join(bind.hostRoot, ...rest) };
  }
  return null;
}

/** The host path of a sandbox path under one of the binds, or null (purely lexical). */
export function mapToHost(binds: readonly PersistentBind[], sandboxPath: string): string | null {
  return findBind(binds, sandboxPath)?.hostPath ?? null;
}

/**
 * Resolve a sandbox path to a host path that is really inside its bind: a symlink made inside
 * the sandbox (say /app/x -> /) would otherwise make the host read or write its own files.
 * Every existing ancestor is resolved with realpath and must stay within the bind's root; the
 * last component is left alone because copies keep symlinks as links.
 */
export function resolveHostPath(binds: readonly PersistentBind[], sandboxPath: string): string {
  const found = findBind(binds, sandboxPath);
  if (found === null) {
    const roots = binds.map((b) => b.sandboxRoot).join(", ");
    throw new UserError(`sandbox path ${sandboxPath} is outside the persistent folders (${roots})`);
  }
  const root = realpathSync(found.bind.hostRoot);
  if (found.hostPath === found.bind.hostRoot) return root;
  let parent = dirname(found.hostPath);
  const missing: string[] = [basename(found.hostPath)];
  while (!existsSync(parent)) {
    missing.unshift(basename(parent));
    parent = dirname(parent);
  }
  const real = join(realpathSync(parent), ...missing);
  const rel = relative(root, real);
  if (rel === "" || rel === ".." || rel.startsWith("../") || rel.startsWith("/")) {
    throw new UserError(
      `sandbox path ${sandboxPath} leads outside ${found.bind.sandboxRoot} through a symlink`,
    );
  }
  return real;
}

/**
 * Makes every folder between a bind's root and `sandboxPath` (not the path itself) a real folder
 * or nothing, as a mount point needs: a link or a file the sandbox's processes left there is
 * removed, never followed, so content staged below it lands where the path says (bwrap's
 * MountPoints.claim does the same on the image's root).
 */
export function claimHostParents(binds: readonly PersistentBind[], sandboxPath: string): void {
  const found = findBind(binds, sandboxPath);
  if (found === null) return;
  const rest = relative(found.bind.hostRoot, found.hostPath).split("/").filter(Boolean);
  let at = found.bind.hostRoot;
  for (const name of rest.slice(0, -1)) {
    at = join(at, name);
    const st = lstatSync(at, { throwIfNoEntry: false });
    if (st === undefined) return;
    if (!st.isDirectory()) rmSync(at, { force: true });
  }
}

/**
 * The host path of a sandbox path under one of the binds, or null when there is none or it would
 * leave its bind through a symlink the sandbox made (resolveHostPath; the last component is not
 * resolved, so a caller that follows it must lstat it first).
 */
export function safeMapToHost(binds: readonly PersistentBind[], sandboxPath: string): string | null {
  if (mapToHost(binds, sandboxPath) === null) return null;
  try {
    return resolveHostPath(binds, sandboxPath);
  } catch {
    return null;
  }
}

/**
 * Copy a file or folder (merged into an existing folder), keeping symlinks as links. By cp(1), not
 * fs.cp: fs.cp walks names as strings, so a file whose name is not UTF-8 (a task author's, or an
 * agent's) would be decoded into a name that does not exist and stop the copy.
 */
export async function copyTree(from: string, to: string, o: { skipTooDeep?: boolean } = {}): Promise<void> {
  await lstat(from);
  await mkdir(dirname(to), { recursive: true });
  try {
    await run("cp", ["-R", "-P", "-f", "--preserve=mode", "-T", "--", from, to]);
  } catch (e) {
    const stderr = e instanceof Error && "stderr" in e ? e.stderr : undefined;
    const why = typeof stderr === "string" && stderr.trim() !== "" ? stderr.trim() : errorMessage(e);
    // cp goes by path and copies all else: what lies deeper than a path can name is left out.
    if (o.skipTooDeep === true && typeof stderr === "string" && tooDeepOnly(stderr)) return;
    throw new Error(`could not copy ${from} to ${to}: ${why}`);
  }
}

/** Whether every complaint of cp is about a name too long for the host (ENAMETOOLONG). */
function tooDeepOnly(stderr: string): boolean {
  const lines = stderr.split("\n").filter((l) => l.trim() !== "");
  return lines.length > 0 && lines.every((l) => l.endsWith(": File name too long"));
}
