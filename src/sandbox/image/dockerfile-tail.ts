import { posix } from "node:path";
import { dockerfileInstructions } from "./dockerfile-lines.js";

/**
 * A Dockerfile split where only files are added: the head (everything up to the last instruction
 * that runs anything) and a tail of COPY from the build context and metadata instructions. Two
 * images that differ only in their tails (the children of one task, say) share the head's root
 * file system; the tail changes nothing outside `paths`.
 */
export interface DockerfileTail {
  /** The Dockerfile up to the tail, byte for byte. */
  head: string;
  /** Absolute paths the tail writes: each COPY destination and each WORKDIR it makes. */
  paths: string[];
}

/** Instructions that change only the image's config. */
const METADATA = new Set([
  "ENV",
  "LABEL",
  "USER",
  "CMD",
  "ENTRYPOINT",
  "EXPOSE",
  "STOPSIGNAL",
  "HEALTHCHECK",
  "SHELL",
  "MAINTAINER",
]);

/**
 * The tail of a Dockerfile, or null when it has none worth splitting (no COPY after the last
 * RUN) or when what it writes cannot be told from its text alone: a variable, a COPY --from or
 * any flag but --chown/--chmod/--link, a heredoc, ADD (it may fetch or unpack), a parser
 * directive, or a relative path with no absolute WORKDIR before it.
 */
export function splitDockerfileTail(text: string): DockerfileTail | null {
  const lines = text.split("\n");
  if (lines.some((l) => /^\s*#\s*(syntax|escape|check)\s*=/i.test(l))) return null;
  const ins = dockerfileInstructions(lines);
  let start = ins.length;
  while (start > 0) {
    const k = ins[start - 1]?.keyword ?? "";
    if (k !== "COPY" && k !== "WORKDIR" && !METADATA.has(k)) break;
    start -= 1;
  }
  const tail = ins.slice(start);
  if (start === 0 || !tail.some((i) => i.keyword === "COPY")) return null;
  // The WORKDIR a tail's relative path starts from: set after the last FROM, absolute.
  let workdir: string | null = null;
  for (const i of ins.slice(0, start)) {
    if (i.keyword === "FROM") workdir = null;
    if (i.keyword === "WORKDIR") {
      const w = i.args.trim();
      if (w.includes("$")) return null;
      if (!w.startsWith("/") && workdir === null) return null;
      workdir = posix.resolve(workdir ?? "/", w);
    }
  }
  const paths: string[] = [];
  for (const i of tail) {
    if (i.args.includes("$") || i.args.includes("<<")) return null;
    if (i.keyword === "WORKDIR") {
      const w = i.args.trim();
      if (!w.startsWith("/") && workdir === null) return null;
      workdir = posix.resolve(workdir ?? "/", w);
      paths.push(workdir);
    } else if (i.keyword === "COPY") {
      const dest = copyDestination(i.args);
      if (dest === null || (!dest.startsWith("/") && workdir === null)) return null;
      paths.push(posix.resolve(workdir ?? "/", dest));
    }
  }
  const firstLine = tail[0]?.first ?? lines.length;
  return { head: `${lines.slice(0, firstLine).join("\n")}\n`, paths: [...new Set(paths)] };
}

/** The destination of a COPY, or null for a form whose effect is not just "put files there". */
function copyDestination(args: string): string | null {
  const words = args.trim().split(/\s+/);
  while (words[0]?.startsWith("--")) {
    const flag = words.shift() ?? "";
    if (!/^--(chown|chmod)=\S+$/.test(flag) && flag !== "--link") return null;
  }
  const rest = words.join(" ");
  let parts: string[];
  if (rest.startsWith("[")) {
    try {
      const parsed: unknown = JSON.parse(rest);
      if (!Array.isArray(parsed) || !parsed.every((p) => typeof p === "string")) return null;
      parts = parsed;
    } catch {
      return null;
    }
  } else parts = words;
  const dest = parts[parts.length - 1];
  return parts.length >= 2 && dest !== undefined && dest !== "" ? dest : null;
}
