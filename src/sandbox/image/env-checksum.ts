import { createHash } from "node:crypto";
import { lstat, readdir, readFile, readlink } from "node:fs/promises";
import { join } from "node:path";

/**
 * sha256 (hex) of a Docker build context: every entry's relative path in sorted order, its kind,
 * its executable bit and its bytes (a symbolic link's target). Kept apart from src/task's task
 * checksum because the sandbox layer must not depend on tasks, and because a build must be redone
 * when a file turns executable (a COPY keeps the mode) even though the task's checksum ignores modes.
 */
export async function envChecksum(dir: string): Promise<string> {
  const hash = createHash("sha256");
  const field = (s: string | Buffer): void => {
    const b = typeof s === "string" ? Buffer.from(s, "utf8") : s;
    // Length-prefixed, so no two different trees hash the same concatenation.
    hash.update(`${b.length}:`);
    hash.update(b);
  };
  for (const rel of await walk(dir, "")) {
    const p = join(dir, rel);
    const st = await lstat(p);
    field(rel);
    if (st.isSymbolicLink()) {
      field("l");
      field(await readlink(p));
    } else if (st.isDirectory()) {
      field("d");
    } else {
      field((st.mode & 0o111) !== 0 ? "x" : "f");
      field(await readFile(p));
    }
  }
  return hash.digest("hex");
}

async function walk(root: string, rel: string): Promise<string[]> {
  const out: string[] = [];
  const entries = await readdir(join(root, rel), { withFileTypes: true });
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const e of entries) {
    const r = rel === "" ? e.name : `${rel}/${e.name}`;
    out.push(r);
    if (e.isDirectory()) out.push(...(await walk(root, r)));
  }
  return out;
}
