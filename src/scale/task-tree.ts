import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { UserError } from "../core/errors.js";
import { parseTaskConfigWithWarnings } from "../task/config.js";
import { type DockerfileInfo, parseDockerfile, rewriteDockerfile } from "./dockerfile.js";
import { readTree } from "./file-tree.js";
import type { FileTree } from "./types.js";

/**
 * A task's environment as RES sees it. For a host task the whole environment/ folder is the tree
 * (it is copied into the workdir). For a Dockerfile task only files that a COPY mirrors into the
 * WORKDIR are the tree; everything else in the build context (`rest`) is kept byte for byte.
 */
export interface TaskTree {
  tree: Map<string, Uint8Array>;
  rest: Map<string, Uint8Array>;
  /** Where the tree's paths live for the agent. */
  workdir: string;
  dockerfile: { text: string; info: DockerfileInfo } | null;
}

const DOCKERFILE = "Dockerfile";

/** Reads environment/ of `taskDir`; `configWorkdir` is task.toml's workdir (an image's WORKDIR wins). */
export function readTaskTree(taskDir: string, configWorkdir: string, dockerImage: string | null): TaskTree {
  const envDir = join(taskDir, "environment");
  const all = existsSync(envDir) ? readTree(envDir) : new Map<string, Uint8Array>();
  const dockerBytes = all.get(DOCKERFILE);
  if (dockerImage !== null) {
    // A prebuilt image: environment/ is not copied anywhere, so nothing in it reaches the agent.
    return { tree: new Map(), rest: all, workdir: configWorkdir, dockerfile: null };
  }
  if (dockerBytes === undefined)
    return { tree: all, rest: new Map(), workdir: configWorkdir, dockerfile: null };
  if (all.has(".dockerignore")) {
    throw new UserError(
      `${join(envDir, ".dockerignore")}: not supported by RES (which files reach the image would need its rules)`,
    );
  }
  const text = new TextDecoder().decode(dockerBytes);
  const info = parseDockerfile(text, (p) => p === "." || isDirIn(envDir, p));
  const workdir = info.workdir ?? configWorkdir;
  const mirrored = new Set<string>();
  const readElsewhere = new Set<string>();
  for (const ins of info.instructions) {
    for (const src of ins.reads ?? []) {
      for (const p of all.keys()) {
        if (p === DOCKERFILE || !(src === "." || p === src || p.startsWith(`${src}/`))) continue;
        (ins.mirror !== undefined ? mirrored : readElsewhere).add(p);
      }
    }
  }
  const tree = new Map<string, Uint8Array>();
  const rest = new Map<string, Uint8Array>();
  for (const [p, bytes] of all) {
    // A file that also reaches the image some other way stays as it is: changing it would change that too.
    if (mirrored.has(p) && !readElsewhere.has(p)) tree.set(p, bytes);
    else rest.set(p, bytes);
  }
  return { tree, rest, workdir, dockerfile: { text, info } };
}

function isDirIn(envDir: string, p: string): boolean {
  try {
    return statSync(join(envDir, ...p.split("/"))).isDirectory();
  } catch {
    return false;
  }
}

/**
 * The child's environment/ folder: the transformed tree, plus (Dockerfile tasks) the untouched
 * build context and a Dockerfile whose mirroring COPY lines now copy the transformed tree.
 */
export function childEnvironment(parent: TaskTree, childTree: FileTree): Map<string, Uint8Array> {
  const out = new Map<string, Uint8Array>(childTree);
  if (parent.dockerfile === null) return out;
  for (const [p, bytes] of parent.rest) {
    if (out.has(p)) {
      throw new UserError(`environment/${p}: a transform wrote a file the build context already holds`);
    }
    out.set(p, bytes);
  }
  out.set(
    DOCKERFILE,
    new TextEncoder().encode(
      rewriteDockerfile(parent.dockerfile.text, parent.dockerfile.info, copyEntries(parent.rest, childTree)),
    ),
  );
  return out;
}

/**
 * Top-level entries to COPY for the transformed tree: a whole folder when no build-only file
 * shares it, else that folder's tree files one by one (so build-only files never reach the workdir).
 */
export function copyEntries(
  rest: ReadonlyMap<string, unknown>,
  tree: ReadonlyMap<string, unknown>,
): string[] {
  const restTop = new Set([...rest.keys()].map((p) => p.split("/")[0] ?? p));
  const entries = new Set<string>();
  for (const p of tree.keys()) {
    const top = p.split("/")[0] ?? p;
    if (top === p) entries.add(p);
    else if (restTop.has(top)) entries.add(p);
    else entries.add(`${top}/`);
  }
  return [...entries].sort();
}

/** The tree of a task folder, with task.toml read the way `run` reads it. */
export function readTaskTreeOf(taskDir: string): TaskTree {
  const tomlPath = join(taskDir, "task.toml");
  const hasDockerfile = existsSync(join(taskDir, "environment", DOCKERFILE));
  const { config } = parseTaskConfigWithWarnings(tomlPath, readFileSync(tomlPath, "utf8"), hasDockerfile);
  return readTaskTree(taskDir, config.environment.workdir, config.environment.docker_image);
}
