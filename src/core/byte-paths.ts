import { readdirSync } from "node:fs";

const SLASH = Buffer.from("/");

/**
 * The entries of `dir` as full paths in bytes. A name that is not UTF-8 (an agent can make one)
 * does not survive a round trip through a string: decoded, it names no file, so a walk by
 * strings silently skips it and everything under it.
 */
export function childPathsBytes(dir: Buffer | string): Buffer[] {
  const at = typeof dir === "string" ? Buffer.from(dir) : dir;
  return readdirSync(at, { encoding: "buffer" }).map((name) => Buffer.concat([at, SLASH, name]));
}
