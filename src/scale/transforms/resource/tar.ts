import { utf8 } from "../../file-tree.js";

const BLOCK = 512;
const RECORD = 20 * BLOCK;
/** Every entry's modification time: 2020-01-01T00:00:00Z, so archives carry no build time. */
export const TAR_MTIME = 1_577_836_800;

/** Splits a path into ustar prefix (<= 155 bytes) and name (<= 100 bytes) at a slash, or undefined. */
export function ustarSplit(path: string): { prefix: string; name: string } | undefined {
  const len = (s: string) => utf8.encode(s).length;
  if (len(path) <= 100) return { prefix: "", name: path };
  for (let i = path.indexOf("/"); i >= 0; i = path.indexOf("/", i + 1)) {
    const prefix = path.slice(0, i);
    const name = path.slice(i + 1);
    if (len(prefix) <= 155 && len(name) <= 100 && name !== "") return { prefix, name };
  }
  return undefined;
}

function putString(h: Uint8Array, offset: number, size: number, s: string): void {
  const b = utf8.encode(s);
  if (b.length > size) throw new RangeError(`tar header field too long: ${s}`);
  h.set(b, offset);
}

function putOctal(h: Uint8Array, offset: number, size: number, n: number): void {
  putString(h, offset, size, `${n.toString(8).padStart(size - 1, "0")}\0`);
}

function header(path: string, size: number): Uint8Array {
  const split = ustarSplit(path);
  if (split === undefined) throw new RangeError(`path too long for a ustar archive: ${path}`);
  const h = new Uint8Array(BLOCK);
  putString(h, 0, 100, split.name);
  putOctal(h, 100, 8, 0o644);
  putOctal(h, 108, 8, 0);
  putOctal(h, 116, 8, 0);
  putOctal(h, 124, 12, size);
  putOctal(h, 136, 12, TAR_MTIME);
  h.fill(0x20, 148, 156); // the checksum is computed with its own field as spaces
  h[156] = 0x30; // regular file
  putString(h, 257, 6, "ustar\0");
  putString(h, 263, 2, "00");
  putString(h, 265, 32, "root");
  putString(h, 297, 32, "root");
  putOctal(h, 329, 8, 0);
  putOctal(h, 337, 8, 0);
  putString(h, 345, 155, split.prefix);
  const sum = h.reduce((a, b) => a + b, 0);
  putString(h, 148, 8, `${sum.toString(8).padStart(6, "0")}\0 `);
  return h;
}

/**
 * A POSIX ustar archive of regular files, entries sorted by path, mode 0644, owner root (0/0),
 * fixed mtime, padded to whole 10 KiB records: the same files always give the same bytes.
 */
export function ustarArchive(files: ReadonlyMap<string, Uint8Array>): Uint8Array {
  const chunks: Uint8Array[] = [];
  let total = 0;
  const push = (c: Uint8Array): void => {
    chunks.push(c);
    total += c.length;
  };
  for (const path of [...files.keys()].sort()) {
    const data = files.get(path) as Uint8Array;
    push(header(path, data.length));
    push(data);
    const pad = (BLOCK - (data.length % BLOCK)) % BLOCK;
    if (pad > 0) push(new Uint8Array(pad));
  }
  push(new Uint8Array(2 * BLOCK));
  const tail = (RECORD - (total % RECORD)) % RECORD;
  if (tail > 0) push(new Uint8Array(tail));
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}
