const BITS = 5;
const CHUNK = 1 << BITS;
const MASK = CHUNK - 1;

/**
 * A persistent vector: `set` and `push` return a new vector sharing all untouched chunks, so a
 * step copies a few dozen pointers instead of the whole collection and old states stay valid
 * (cheap snapshots). Two levels of 32-slot chunks; the top level is copied on write.
 */
export class PVec<T> {
  private constructor(
    private readonly chunks: ReadonlyArray<readonly T[]>,
    readonly length: number,
  ) {}

  static empty<T>(): PVec<T> {
    return new PVec<T>([], 0);
  }

  static from<T>(items: readonly T[]): PVec<T> {
    const chunks: T[][] = [];
    for (let i = 0; i < items.length; i += CHUNK) chunks.push(items.slice(i, i + CHUNK));
    return new PVec(chunks, items.length);
  }

  get(i: number): T | undefined {
    if (i < 0 || i >= this.length) return undefined;
    return this.chunks[i >> BITS]?.[i & MASK];
  }

  set(i: number, value: T): PVec<T> {
    if (i < 0 || i >= this.length) throw new RangeError(`PVec.set(${i}) out of range ${this.length}`);
    const chunks = this.chunks.slice();
    const chunk = (chunks[i >> BITS] ?? []).slice();
    chunk[i & MASK] = value;
    chunks[i >> BITS] = chunk;
    return new PVec(chunks, this.length);
  }

  push(value: T): PVec<T> {
    const chunks = this.chunks.slice();
    const c = this.length >> BITS;
    const chunk = (chunks[c] ?? []).slice();
    chunk.push(value);
    chunks[c] = chunk;
    return new PVec(chunks, this.length + 1);
  }

  toArray(): T[] {
    const out: T[] = [];
    for (const chunk of this.chunks) out.push(...chunk);
    return out;
  }

  forEach(fn: (value: T, index: number) => void): void {
    let i = 0;
    for (const chunk of this.chunks) for (const v of chunk) fn(v, i++);
  }

  toJSON(): T[] {
    return this.toArray();
  }
}
