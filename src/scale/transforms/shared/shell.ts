import { dirName } from "./names.js";

/** Single-quotes a string for POSIX sh. */
export function sq(s: string): string {
  return `'${s.replaceAll("'", `'\\''`)}'`;
}

/** A tree path as a shell argument that no tool mistakes for an option. */
export function pathArg(path: string): string {
  return sq(path.startsWith("-") ? `./${path}` : path);
}

/** `mkdir -p <dir> && ` for a path's folder, or "" at the root: restored files may sit in folders that no longer exist. */
export function mkdirFor(path: string): string {
  const d = dirName(path);
  return d === "" ? "" : `mkdir -p ${pathArg(d)} && `;
}
