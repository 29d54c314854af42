import { posix } from "node:path";
import { dockerfileInstructions } from "../sandbox/image/dockerfile-lines.js";

/**
 * The parts of a Dockerfile RES needs: its final WORKDIR and which COPY lines "mirror" a folder
 * of the build context into that WORKDIR at the same relative path (`COPY data/ /app/data/`).
 * Only mirrored files are transformable: the agent sees them at workdir/<path>, so a transformed
 * tree written back at the same context paths lands in the image exactly as the original did.
 */
export interface DockerfileInfo {
  /** The last WORKDIR (absolute), or null when the Dockerfile sets none. */
  workdir: string | null;
  instructions: Instruction[];
}

export interface Instruction {
  /** 0-based index of the first and last physical line (continuations joined). */
  first: number;
  last: number;
  keyword: string;
  /** Everything after the keyword, continuations joined with spaces. */
  args: string;
  /** Set for a COPY whose every source mirrors into the final WORKDIR; its flags and sources. */
  mirror?: { flags: string[]; sources: string[] };
  /** Context paths (normalized, "." for the whole context) this COPY/ADD reads, mirrored or not. */
  reads?: string[];
}

/** `isDir` tells whether a context path (normalized, "." for the context itself) is a folder. */
export function parseDockerfile(text: string, isDir: (contextPath: string) => boolean): DockerfileInfo {
  const lines = text.split("\n");
  const instructions: Instruction[] = dockerfileInstructions(lines);
  let workdir: string | null = null;
  const workdirAt: (string | null)[] = [];
  for (const ins of instructions) {
    if (ins.keyword === "WORKDIR") {
      const w = ins.args.trim().replace(/^"(.*)"$/, "$1");
      workdir = posix.normalize(w.startsWith("/") ? w : posix.join(workdir ?? "/", w));
    }
    workdirAt.push(workdir);
  }
  instructions.forEach((ins, k) => {
    if (ins.keyword !== "COPY" && ins.keyword !== "ADD") return;
    const parsed = parseCopyArgs(ins.args);
    if (parsed === null) {
      ins.reads = ["."];
      return;
    }
    ins.reads = parsed.sources.map(normalizeSource);
    if (ins.keyword !== "COPY" || workdir === null || parsed.fromStage) return;
    const here = workdirAt[k] ?? "/";
    const ok = parsed.sources.every((s) =>
      mirrors(s, isDir(normalizeSource(s)), parsed.sources.length, parsed.dest, here, workdir ?? ""),
    );
    if (ok) ins.mirror = { flags: parsed.flags, sources: ins.reads };
  });
  return { workdir, instructions };
}

function normalizeSource(s: string): string {
  const n = posix.normalize(s.replace(/^\.\//, ""));
  return n === "./" || n === "" ? "." : n.replace(/\/$/, "");
}

interface CopyArgs {
  flags: string[];
  sources: string[];
  dest: string;
  fromStage: boolean;
}

/** Shell-form COPY arguments; null for the JSON form or anything unusual (never transformed). */
function parseCopyArgs(args: string): CopyArgs | null {
  if (args.trim().startsWith("[") || /[$*?[\]"'\\]/.test(args)) return null;
  const words = args.trim().split(/\s+/).filter(Boolean);
  const flags = words.filter((w) => w.startsWith("--"));
  const rest = words.filter((w) => !w.startsWith("--"));
  if (rest.length < 2) return null;
  const dest = rest[rest.length - 1] ?? "";
  return { flags, sources: rest.slice(0, -1), dest, fromStage: flags.some((f) => f.startsWith("--from")) };
}

/**
 * True when COPY puts `src` at workdir/src. Docker copies a folder's contents into dest, and a
 * file to dest itself unless dest ends in "/" or several sources are given (then into dest/).
 */
function mirrors(
  src: string,
  dir: boolean,
  count: number,
  dest: string,
  here: string,
  workdir: string,
): boolean {
  const s = normalizeSource(src);
  if (s.startsWith("..") || s.startsWith("/")) return false;
  const absDest = posix.normalize(dest.startsWith("/") ? dest : posix.join(here, dest));
  const destDir = absDest.replace(/\/$/, "") || "/";
  const wanted = s === "." ? workdir : posix.join(workdir, s);
  if (dir) return count === 1 && destDir === wanted;
  const into = dest.endsWith("/") || count > 1;
  const landing = into ? posix.join(destDir, posix.basename(s)) : destDir;
  return landing === wanted;
}

/**
 * The child's Dockerfile: the first mirroring COPY line becomes one mirroring COPY per entry of
 * `entries` (top-level names of the transformed tree, folders ending in "/"), the other
 * mirroring lines go, and every other line stays byte for byte.
 */
export function rewriteDockerfile(text: string, info: DockerfileInfo, entries: readonly string[]): string {
  const mirrorsAt = info.instructions.filter((ins) => ins.mirror !== undefined);
  const firstMirror = mirrorsAt[0];
  if (firstMirror === undefined || info.workdir === null) return text;
  const workdir = info.workdir;
  const flags = firstMirror.mirror?.flags ?? [];
  const copyLines = entries.map((e) => {
    const dest = posix.join(workdir, e.replace(/\/$/, "")) + (e.endsWith("/") ? "/" : "");
    return ["COPY", ...flags, e, dest].join(" ");
  });
  const lines = text.split("\n");
  const out: string[] = [];
  for (let n = 0; n < lines.length; n++) {
    const ins = mirrorsAt.find((x) => x.first === n);
    if (ins === undefined) {
      out.push(lines[n] ?? "");
      continue;
    }
    if (ins === firstMirror) out.push(...copyLines);
    n = ins.last;
  }
  return out.join("\n");
}

/**
 * The Dockerfile with every mirroring COPY line reading its sources from `folder/` of the build
 * context instead (same flags, same destination), so that none mirrors any more: an equivalent
 * root (built-data.ts) moves those files there, and the files its appended lines copy last are
 * the only mirrored ones. Every other line stays byte for byte.
 */
export function unmirrorDockerfile(text: string, info: DockerfileInfo, folder: string): string {
  const lines = text.split("\n");
  const out: string[] = [];
  for (let n = 0; n < lines.length; n++) {
    const ins = info.instructions.find((x) => x.first === n && x.mirror !== undefined);
    const parsed = ins === undefined ? null : parseCopyArgs(ins.args);
    if (ins === undefined || parsed === null) {
      out.push(lines[n] ?? "");
      continue;
    }
    const sources = parsed.sources.map((s) => {
      const p = normalizeSource(s);
      return p === "." ? `${folder}/` : `${posix.join(folder, p)}${s.endsWith("/") ? "/" : ""}`;
    });
    out.push(["COPY", ...parsed.flags, ...sources, parsed.dest].join(" "));
    n = ins.last;
  }
  return out.join("\n");
}
