import { createHash } from "node:crypto";
import type { Stats } from "node:fs";
import { lstat, readdir, readFile, readlink } from "node:fs/promises";
import { join } from "node:path";

/** How many entries are read ahead of the one being hashed (a context is mostly small files). */
const READ_AHEAD = 16;
/** Files up to this size are read ahead; a bigger one is read when its turn comes. */
const AHEAD_MAX = 4 * 1024 * 1024;

/**
 * sha256 (hex) of a Docker build context: every entry's relative path in sorted order, its kind,
 * its executable bit and its bytes (a symbolic link's target). Kept apart from src/task's task
 * checksum because the sandbox layer must not depend on tasks, and because a build must be redone
 * when a file turns executable (a COPY keeps the mode) even though the task's checksum ignores modes.
 * Entries are read a few at a time (a file's read waited for alone costs a round trip through
 * the thread pool, and a context of a hundred files took 40 ms that way); they are hashed in order.
 */
export async function envChecksum(dir: string): Promise<string> {
  const hash = createHash("sha256");
  const field = (s: string | Buffer): void => {
    const b = typeof s === "string" ? Buffer.from(s, "utf8") : s;
    // Length-prefixed, so no two different trees hash the same concatenation.
    hash.update(`${b.length}:`);
    hash.update(b);
  };
  const rels = await walk(dir, "");
  const pending = new Map<number, Promise<Entry>>();
  const start = (i: number): void => {
    const rel = rels[i];
    if (rel === undefined || pending.has(i)) return;
    const read = readEntry(join(dir, rel), true);
    // A read-ahead that fails is rethrown when its turn comes, not reported as unhandled.
    read.catch(() => {});
    pending.set(i, read);
  };
  for (let i = 0; i < rels.length; i++) {
    for (let j = i; j < i + READ_AHEAD; j++) start(j);
    let e = await (pending.get(i) as Promise<Entry>);
    pending.delete(i);
    if (e.kind === "later") e = await readEntry(join(dir, rels[i] as string), false);
    field(rels[i] as string);
    field(e.kind);
    if (e.bytes !== null) field(e.bytes);
  }
  return hash.digest("hex");
}

/** A folder (d), a link (l, its target), a file (x executable, f not), or a big file read later. */
type Entry =
  | { kind: "d"; bytes: null }
  | { kind: "l" | "x" | "f"; bytes: Buffer }
  | { kind: "later"; bytes: null };

/** An entry's kind and bytes; a file over AHEAD_MAX read ahead is left for its turn ("later"). */
async function readEntry(p: string, ahead: boolean): Promise<Entry> {
  const st: Stats = await lstat(p);
  if (st.isSymbolicLink()) return { kind: "l", bytes: await readlink(p, { encoding: "buffer" }) };
  if (st.isDirectory()) return { kind: "d", bytes: null };
  const kind = (st.mode & 0o111) !== 0 ? "x" : "f";
  if (ahead && st.size > AHEAD_MAX) return { kind: "later", bytes: null };
  // Read as a file whatever it is (a FIFO or socket in a context fails here, as it always did).
  return { kind, bytes: await readFile(p) };
}

async function walk(root: string, rel: string): Promise<string[]> {
  const entries = await readdir(join(root, rel), { withFileTypes: true });
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const below = await Promise.all(
    entries.map((e) => {
      const r = rel === "" ? e.name : `${rel}/${e.name}`;
      return e.isDirectory() ? walk(root, r) : Promise.resolve([]);
    }),
  );
  const out: string[] = [];
  entries.forEach((e, i) => {
    out.push(rel === "" ? e.name : `${rel}/${e.name}`);
    out.push(...(below[i] ?? []));
  });
  return out;
}
