import { InternalError } from "../../../core/errors.js";
import type { Rng } from "../../../core/rng.js";
import { isTreePath } from "../../file-tree.js";
import type { FileTree } from "../../types.js";
import { opaqueToken } from "./names.js";

/**
 * A mutable copy of a parent tree that refuses path collisions: a new file may not replace a
 * file, sit under a path that is a file, or be a folder's path. Transforms build their child
 * environment through it so two outputs never clobber each other or a parent file.
 */
export class TreeBuilder {
  private readonly files: Map<string, Uint8Array>;
  /** Paths taken away: never reused, so a restore can put them back without meeting an output. */
  private readonly gone = new Set<string>();

  constructor(parent: FileTree) {
    this.files = new Map(parent);
  }

  has(path: string): boolean {
    return this.files.has(path);
  }

  get(path: string): Uint8Array | undefined {
    return this.files.get(path);
  }

  /**
   * True when `path` can be created: a valid tree path, not a file, not a folder, no parent that
   * is a file, and none of that for a path this builder took away either.
   */
  isFree(path: string): boolean {
    if (!isTreePath(path) || this.files.has(path) || this.gone.has(path)) return false;
    const parts = path.split("/");
    for (let i = 1; i < parts.length; i++) {
      const dir = parts.slice(0, i).join("/");
      if (this.files.has(dir) || this.gone.has(dir)) return false;
    }
    const prefix = `${path}/`;
    for (const p of this.files.keys()) if (p.startsWith(prefix)) return false;
    for (const p of this.gone) if (p.startsWith(prefix)) return false;
    return true;
  }

  /** Adds a new file; a collision is a bug in the transform. */
  put(path: string, bytes: Uint8Array): void {
    if (!this.isFree(path)) throw new InternalError(`transform output collides at ${JSON.stringify(path)}`);
    this.files.set(path, bytes);
  }

  /** Replaces the bytes of an existing file. */
  replace(path: string, bytes: Uint8Array): void {
    if (!this.files.has(path)) throw new InternalError(`cannot replace missing ${JSON.stringify(path)}`);
    this.files.set(path, bytes);
  }

  /** Removes a file and returns its bytes. */
  take(path: string): Uint8Array {
    const b = this.files.get(path);
    if (b === undefined) throw new InternalError(`transform input ${JSON.stringify(path)} is missing`);
    this.files.delete(path);
    this.gone.add(path);
    return b;
  }

  /**
   * Places a helper whose bytes are fixed (a tool script): reuses `path` when it already holds
   * the same bytes, otherwise picks a free variant next to it.
   */
  placeShared(path: string, bytes: Uint8Array, rng: Rng): string {
    const existing = this.files.get(path);
    if (existing !== undefined && Buffer.from(existing).equals(Buffer.from(bytes))) return path;
    if (this.isFree(path)) {
      this.files.set(path, bytes);
      return path;
    }
    const dot = path.lastIndexOf(".");
    const slash = path.lastIndexOf("/");
    const [head, ext] = dot > slash + 1 ? [path.slice(0, dot), path.slice(dot)] : [path, ""];
    const p = this.fresh(rng, (tok) => `${head}-${tok}${ext}`);
    this.files.set(p, bytes);
    return p;
  }

  /** A free path from `make(token)` with a seeded opaque token, retrying on collision. */
  fresh(rng: Rng, make: (token: string) => string, tokenLength = 8): string {
    for (let i = 0; i < 1000; i++) {
      const p = make(opaqueToken(rng, tokenLength));
      if (this.isFree(p)) return p;
    }
    throw new InternalError("could not find a free path for a transform output");
  }

  /** The first free path of `candidates`, else a free seeded variant of the last one. */
  firstFree(rng: Rng, candidates: readonly string[]): string {
    for (const c of candidates) if (this.isFree(c)) return c;
    const last = candidates[candidates.length - 1] ?? "out";
    const dot = last.lastIndexOf(".");
    const slash = last.lastIndexOf("/");
    const [head, ext] = dot > slash + 1 ? [last.slice(0, dot), last.slice(dot)] : [last, ""];
    return this.fresh(rng, (tok) => `${head}-${tok}${ext}`, 6);
  }

  build(): Map<string, Uint8Array> {
    return new Map(this.files);
  }
}
