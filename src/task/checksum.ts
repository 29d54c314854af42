import { createHash, type Hash } from "node:crypto";
import { createReadStream } from "node:fs";
import { lstat, readdir, readFile, readlink } from "node:fs/promises";
import { join } from "node:path";

/**
 * Names left out of the checksum: they appear on one machine and not another (editor and OS
 * droppings, bytecode caches, VCS metadata) and say nothing about the task.
 */
const IGNORED = new Set([".git", ".DS_Store", "__pycache__", "Thumbs.db"]);

/** Files up to this size are read whole and ahead of time; bigger ones are streamed in turn. */
const SMALL_FILE_MAX = 4 * 1024 * 1024;
/** How many small files are read ahead while earlier ones are hashed. */
const READ_AHEAD = 16;

interface Entry {
  rel: string;
  abs: string;
  kind: "file" | "link";
  size: number;
}

/**
 * sha256 over every file's relative path and bytes, in sorted order. Symlinks count by their
 * target text (not followed), paths use "/" and sort by code unit, and file modes and times are
 * left out, so the same task gives the same checksum on every machine and checkout.
 */
export async function taskChecksum(dir: string): Promise<string> {
  const entries = await walk(dir, "");
  entries.sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
  // Reads overlap (a task is mostly small files, where latency dominates); hashing stays in order.
  const pending = new Map<number, Promise<Buffer | null>>();
  const start = (i: number): void => {
    const e = entries[i];
    if (e === undefined || pending.has(i)) return;
    const read =
      e.kind === "link"
        ? readlink(e.abs, { encoding: "buffer" })
        : e.size <= SMALL_FILE_MAX
          ? readFile(e.abs)
          : Promise.resolve(null); // streamed when its turn comes
    // A read-ahead that fails is rethrown when its turn comes; until then it must not count as
    // an unhandled rejection.
    read.catch(() => {});
    pending.set(i, read);
  };
  const hash = createHash("sha256");
  for (let i = 0; i < entries.length; i++) {
    for (let j = i; j < i + READ_AHEAD; j++) start(j);
    const e = entries[i]!;
    const content = await pending.get(i)!;
    pending.delete(i);
    // Length-prefixed framing: no two different trees can produce the same byte stream.
    const rel = Buffer.from(e.rel, "utf8");
    if (e.kind === "link") {
      const target = content ?? Buffer.alloc(0);
      hash.update(`L${rel.length}:`).update(rel).update(`${target.length}:`).update(target);
      continue;
    }
    hash
      .update(`F${rel.length}:`)
      .update(rel)
      .update(`${content?.length ?? e.size}:`);
    if (content !== null) hash.update(content);
    else await streamInto(hash, e.abs);
  }
  return hash.digest("hex");
}

async function walk(abs: string, rel: string): Promise<Entry[]> {
  const names = (await readdir(abs)).filter((n) => !IGNORED.has(n));
  const nested = await Promise.all(
    names.map(async (name): Promise<Entry[]> => {
      const childAbs = join(abs, name);
      const childRel = rel === "" ? name : `${rel}/${name}`;
      const st = await lstat(childAbs);
      if (st.isSymbolicLink()) return [{ rel: childRel, abs: childAbs, kind: "link", size: 0 }];
      if (st.isDirectory()) return walk(childAbs, childRel);
      if (st.isFile()) return [{ rel: childRel, abs: childAbs, kind: "file", size: st.size }];
      return []; // Sockets, fifos and devices have no bytes worth hashing.
    }),
  );
  return nested.flat();
}

function streamInto(hash: Hash, path: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const stream = createReadStream(path, { highWaterMark: 1024 * 1024 });
    stream.on("data", (chunk) => hash.update(chunk));
    stream.on("error", reject);
    stream.on("end", () => resolve());
  });
}
