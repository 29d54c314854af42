import {
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, posix } from "node:path";
import { errorMessage, UserError } from "../core/errors.js";
import { prepareTask } from "../runner/task-image.js";
import { ensureRootfs } from "../sandbox/image/rootfs-cache.js";
import { loadTask } from "../task/load.js";
import type { Task } from "../task/types.js";
import { unmirrorDockerfile } from "./dockerfile.js";
import { byPath, readTaskFolder, sameBytes, sha256Hex } from "./layout.js";
import { protectedReads } from "./requirements.js";
import { copyEntries, readTaskTreeOf } from "./task-tree.js";

/**
 * Data a Dockerfile's RUN makes at build time (a database a script seeds) is in no file of
 * environment/, so no transform can reach it. Such a root is first made into an equivalent task
 * (docs/scale.md, "Data made at build time"): the files the build left in its WORKDIR become files
 * of the build context, put back by COPY lines appended to the Dockerfile after a RUN that removes
 * the built ones. The image's WORKDIR is then the same file for file (bytes and modes, compared on
 * both images), and RES scales that task as it scales any data a COPY puts there.
 */

/** Where an equivalent root's context keeps the files its Dockerfile's own COPY lines mirrored. */
const MOVED = ".res-built";

/** The folder of the lineage's out folder that holds the equivalent root. */
export const BUILT_ROOT_DIR = "root";

/** At most this much build-time data is made into context files. */
const MAX_FILES = 2000;
const MAX_BYTES = 64 << 20;
/** Path segments a shell-form COPY line names as they are (RES reads such lines back). */
const PLAIN = /^[A-Za-z0-9._+@%=,-]+$/;

interface BuiltFile {
  bytes: Uint8Array;
  mode: number;
  uid: number;
  gid: number;
}

/** Where `scale` puts the equivalent root of `taskDir` in `outDir`. */
export function builtRootDir(outDir: string, taskDir: string): string {
  return join(outDir, BUILT_ROOT_DIR, basename(taskDir));
}

/**
 * The equivalent root with the build's WORKDIR data as context files, written under `outDir`;
 * null when the task has no Dockerfile to build, already copies files into its WORKDIR, or its
 * build leaves no file there (the caller then says why it cannot scale the task).
 */
export async function materializeBuiltData(
  taskDir: string,
  outDir: string,
  log: (line: string) => void,
): Promise<string | null> {
  const tree = readTaskTreeOf(taskDir);
  const task = await loadTask(taskDir);
  const prebuilt = task.image?.dockerImage ?? null;
  if (tree.dockerfile === null && prebuilt === null) return null;
  const image = await workdirFiles(taskDir, task);
  const { workdir, files: built } = image;
  // Only what a COPY puts there: nothing a build step made or changed to bring into the context.
  if ([...built].every(([p, f]) => sameBytes(tree.tree.get(p), f.bytes))) return null;
  const where = `${taskDir}: data the build makes in ${workdir}`;
  // The files mirrored by the Dockerfile's own COPY lines move to MOVED/ of the context (those
  // lines read them there), so that the lines appended below are the only mirroring ones.
  if ([...tree.rest.keys()].some((r) => r.startsWith(`${MOVED}/`))) {
    throw new UserError(
      `${where}: environment/${MOVED} is a folder of the task's own, where RES would move files`,
    );
  }
  const context = new Map<string, unknown>(tree.rest);
  for (const p of tree.tree.keys()) context.set(`${MOVED}/${p}`, true);
  const owner = usableOwner(taskDir, context, workdir, built);
  const dir = builtRootDir(outDir, taskDir);
  // One an earlier run made before it stopped: no lineage grew from it (a resume goes on from it).
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  cpSync(taskDir, dir, { recursive: true });
  const env = join(dir, "environment");
  for (const p of tree.tree.keys()) {
    const to = join(env, MOVED, ...p.split("/"));
    mkdirSync(join(to, ".."), { recursive: true });
    renameSync(join(env, ...p.split("/")), to);
  }
  for (const [p, f] of built) {
    const file = join(env, ...p.split("/"));
    mkdirSync(join(file, ".."), { recursive: true });
    writeFileSync(file, f.bytes, { mode: f.mode & 0o7777 });
  }
  const dockerfile = join(env, "Dockerfile");
  // A prebuilt image (docker_image) becomes the base of a Dockerfile that names its WORKDIR, so
  // RES finds it in the file (task.toml then no longer names the image).
  const base =
    tree.dockerfile !== null
      ? unmirrorDockerfile(tree.dockerfile.text, tree.dockerfile.info, MOVED)
      : fromImage(prebuilt ?? "", workdir, join(dir, "task.toml"));
  const lines = { entries: copyEntries(context, built), owner, user: image.user };
  writeFileSync(dockerfile, appendedDockerfile(base, workdir, built, lines));
  const again = (await workdirFiles(dir)).files;
  const differs = firstDifference(built, again);
  if (differs !== null) {
    throw new UserError(
      `${where}: ${posix.join(workdir, differs)} is not the same in the image of ${dir}, whose context holds the built files (a build that differs each time); RES cannot scale it`,
    );
  }
  if (readTaskTreeOf(dir).tree.size !== built.size) {
    throw new UserError(`${where}: the COPY lines appended to ${dockerfile} do not mirror the files`);
  }
  log(`${taskDir}: ${built.size} file(s) the build makes in ${workdir} are context files of ${dir}`);
  return dir;
}

/**
 * Refuses, before anything is written, built files that nothing names (the task stays
 * unscalable), that a COPY line cannot give, that clash with the build context, or that have
 * several owners; else the owner COPY --chown gives them (null for root's).
 */
function usableOwner(
  taskDir: string,
  context: ReadonlyMap<string, unknown>,
  workdir: string,
  built: ReadonlyMap<string, BuiltFile>,
): string | null {
  const where = `${taskDir}: data the build makes in ${workdir}`;
  const instruction = readFileSync(join(taskDir, "instruction.md"), "utf8");
  const tests = readTaskFolder(taskDir, "tests");
  const named = protectedReads(
    tests,
    workdir,
    new Map([...built].map(([p, f]) => [p, f.bytes])),
    instruction,
    readTaskFolder(taskDir, "solution"),
  );
  if (named.length === 0) {
    throw new UserError(
      `${taskDir}: not scalable: its build leaves ${built.size} file(s) in the agent's workdir ${workdir}, but neither tests/ nor (when the tests name none) instruction.md or solution/ name one of them, and no Python grader runs a program of the workdir on generated inputs (a program task)`,
    );
  }
  for (const p of built.keys()) {
    if (!p.split("/").every((s) => PLAIN.test(s))) {
      throw new UserError(`${where}: ${posix.join(workdir, p)}: a name a COPY line cannot give as it is`);
    }
    // A file of the build context by that name, or a file where the path needs a folder (or the reverse).
    const clash = [...context.keys(), "Dockerfile", ".dockerignore"].find(
      (r) => r === p || r.startsWith(`${p}/`) || p.startsWith(`${r}/`),
    );
    if (clash !== undefined) {
      throw new UserError(
        `${where}: ${posix.join(workdir, p)} cannot be a file of the build context beside environment/${clash}`,
      );
    }
  }
  return ownerOf(built, where);
}

/** How the appended lines copy the built files back (see appendedDockerfile). */
export interface CopyBack {
  /** Top-level files and folders to COPY, as a child's Dockerfile copies them (task-tree.ts). */
  entries: readonly string[];
  /** `uid:gid` for COPY --chown; null for root's. */
  owner: string | null;
  /** The image's USER (its config, whatever stage set it); null for root. */
  user: string | null;
}

/**
 * The Dockerfile with the built files removed and copied back from the context, as root, the
 * image's USER given back after.
 */
export function appendedDockerfile(
  text: string,
  workdir: string,
  built: ReadonlyMap<string, unknown>,
  { entries, owner, user }: CopyBack,
): string {
  const paths = [...built.keys()].sort(byPath);
  const lines = [
    "",
    "# longhaul scale: the files the build made in WORKDIR, from the build context (docs/scale.md)",
  ];
  if (user !== null) lines.push("USER root");
  for (let i = 0; i < paths.length; i += 100) {
    const chunk = paths.slice(i, i + 100).map((p) => JSON.stringify(posix.join(workdir, p)));
    lines.push(`RUN ["rm", "-f", "--", ${chunk.join(", ")}]`);
  }
  // What a child's Dockerfile copies too (task-tree.ts): a folder whole unless the build context
  // has other files in it, which must not reach the WORKDIR.
  for (const t of [...entries].sort(byPath)) {
    const dest = posix.join(workdir, t.replace(/\/$/, "")) + (t.endsWith("/") ? "/" : "");
    lines.push(["COPY", ...(owner === null ? [] : [`--chown=${owner}`]), t, dest].join(" "));
  }
  if (user !== null) lines.push(`USER ${user}`);
  return `${text.replace(/\n*$/, "\n")}${lines.join("\n")}\n`;
}

/**
 * The `uid:gid` every built file has, for COPY --chown; null for root's. Files of several owners
 * cannot be put back by COPY lines of whole folders: refused, naming two.
 */
function ownerOf(built: ReadonlyMap<string, BuiltFile>, where: string): string | null {
  const owners = new Map<string, string>();
  for (const [p, f] of built) if (!owners.has(`${f.uid}:${f.gid}`)) owners.set(`${f.uid}:${f.gid}`, p);
  if (owners.size > 1) {
    const [a, b] = [...owners].map(([o, p]) => `${p} (${o})`);
    throw new UserError(`${where}: files of more than one owner: ${a}, ${b}; RES cannot scale it`);
  }
  const [only] = owners.keys();
  return only === undefined || only === "0:0" ? null : only;
}

/**
 * The start of an equivalent root's Dockerfile over a prebuilt image, and its task.toml without
 * the docker_image line (which would win over the Dockerfile).
 */
function fromImage(image: string, workdir: string, toml: string): string {
  const lines = readFileSync(toml, "utf8").split("\n");
  const at = lines.flatMap((l, i) => (/^\s*docker_image\s*=/.test(l) ? [i] : []));
  if (at.length !== 1) {
    throw new UserError(
      `${toml}: docker_image is not on one line of its own; RES cannot make a Dockerfile of it`,
    );
  }
  lines.splice(at[0] ?? 0, 1);
  writeFileSync(toml, lines.join("\n"));
  return `FROM ${image}\nWORKDIR ${workdir}\n`;
}

interface ImageFiles {
  files: Map<string, BuiltFile>;
  /** The WORKDIR trials start in (the image's own, or task.toml's). */
  workdir: string;
  /** The image's USER; null for root. */
  user: string | null;
}

/** Regular files under the built image's WORKDIR (links and other entries stay as built). */
async function workdirFiles(taskDir: string, loaded?: Task): Promise<ImageFiles> {
  const task = loaded ?? (await loadTask(taskDir));
  // Out of the lineage's folder, which stays as it was when the task is refused; the log of a
  // build that failed is kept (the error names it).
  const logs = mkdtempSync(join(tmpdir(), "longhaul-built-data-"));
  const ready = await prepareTask(task, logs);
  if (!ready.ok) throw new UserError(`${taskDir}: ${ready.error}`);
  rmSync(logs, { recursive: true, force: true });
  const workdir = ready.task.config.environment.workdir;
  if (ready.image === null) return { files: new Map(), workdir, user: null };
  const rootfs = await ensureRootfs(ready.image);
  const top = join(rootfs, ...workdir.split("/"));
  const out = new Map<string, BuiltFile>();
  const asRoot = process.getuid?.() === 0;
  let bytes = 0;
  const walk = (dir: string, rel: string): void => {
    for (const name of readdirSync(dir).sort(byPath)) {
      const path = join(dir, name);
      const p = rel === "" ? name : `${rel}/${name}`;
      const st = lstatSync(path);
      if (st.isDirectory()) walk(path, p);
      else if (st.isFile()) {
        bytes += st.size;
        if (out.size >= MAX_FILES || bytes > MAX_BYTES) {
          throw new UserError(
            `${taskDir}: the build makes more in ${workdir} than RES makes into files of the build context (at most ${MAX_FILES} files, ${MAX_BYTES} bytes)`,
          );
        }
        // Unpacked by anyone but root, every file of the image is that user's: its owner is unknown
        // there and taken as root's (docs/scale.md).
        const own = asRoot ? { uid: st.uid, gid: st.gid } : { uid: 0, gid: 0 };
        out.set(p, { bytes: readBuilt(path, p, taskDir), mode: st.mode, ...own });
      }
    }
  };
  if (existsSync(top) && lstatSync(top).isDirectory()) walk(top, "");
  return { files: out, workdir, user: ready.image.config.user };
}

function readBuilt(path: string, p: string, taskDir: string): Uint8Array {
  try {
    return readFileSync(path);
  } catch (e) {
    throw new UserError(`${taskDir}: the built file ${p} of its WORKDIR cannot be read: ${errorMessage(e)}`);
  }
}

function firstDifference(
  a: ReadonlyMap<string, BuiltFile>,
  b: ReadonlyMap<string, BuiltFile>,
): string | null {
  const key = (f: BuiltFile): string => `${f.mode & 0o7777} ${f.uid}:${f.gid} ${sha256Hex(f.bytes)}`;
  for (const p of [...new Set([...a.keys(), ...b.keys()])].sort(byPath)) {
    const x = a.get(p);
    const y = b.get(p);
    if (x === undefined || y === undefined || key(x) !== key(y)) return p;
  }
  return null;
}
