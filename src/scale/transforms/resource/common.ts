import { InternalError, UserError } from "../../../core/errors.js";
import { Rng } from "../../../core/rng.js";
import { isTreePath } from "../../file-tree.js";
import type { FileTree, Transform, TransformInput } from "../../types.js";

/**
 * Quotes `s` for POSIX sh as one word. Every word a transform quotes this way that could start
 * with "-" is a relative path, so it gets a "./" prefix rather than being read as an option.
 */
export function shq(s: string): string {
  const w = s.startsWith("-") ? `./${s}` : s;
  return /^[A-Za-z0-9_./+-]+$/.test(w) ? w : `'${w.replaceAll("'", "'\\''")}'`;
}

/** The folder of a tree path ("" at the root). */
export function dirOf(p: string): string {
  const i = p.lastIndexOf("/");
  return i < 0 ? "" : p.slice(0, i);
}

/** The last part of a tree path. */
export function baseOf(p: string): string {
  return p.slice(p.lastIndexOf("/") + 1);
}

/** A file name without its last extension ("orders.csv" -> "orders"). */
export function stemOf(p: string): string {
  const b = baseOf(p);
  const i = b.lastIndexOf(".");
  return i > 0 ? b.slice(0, i) : b;
}

/** Joins a folder ("" for the root) and a relative path. */
export function inDir(dir: string, rel: string): string {
  return dir === "" ? rel : `${dir}/${rel}`;
}

/** `mkdir -p 'dir' && ` when `p` is inside a folder, so a step can write `p` from an emptied tree. */
export function mkdirFor(p: string): string {
  const d = dirOf(p);
  return d === "" ? "" : `mkdir -p ${shq(d)} && `;
}

/** Strict UTF-8 text, or undefined when the bytes are not valid UTF-8. A BOM is kept as U+FEFF. */
export function utf8Text(bytes: Uint8Array): string | undefined {
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

export function byCodeUnit(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** `n` lowercase hex digits from `rng`. */
export function hexId(rng: Rng, n: number): string {
  let s = "";
  while (s.length < n) s += rng.nextU32().toString(16).padStart(8, "0");
  return s.slice(0, n);
}

/** The transform's Rng for one application: seeded by the input seed and the transform name. */
export function rngFor(name: string, seed: number): Rng {
  return new Rng(`${name}:${seed >>> 0}`);
}

/**
 * Hands out new paths that collide with nothing: not an existing file, not a folder holding
 * files, not under an existing file, and not handed out before.
 */
export class PathPicker {
  private readonly files = new Set<string>();
  private readonly dirs = new Set<string>();

  constructor(tree: FileTree | Iterable<string>) {
    const keys = isTreeLike(tree) ? tree.keys() : tree;
    for (const p of keys) this.claim(p);
  }

  isFree(p: string): boolean {
    if (!isTreePath(p) || this.files.has(p) || this.dirs.has(p)) return false;
    let d = dirOf(p);
    while (d !== "") {
      if (this.files.has(d)) return false;
      d = dirOf(d);
    }
    return true;
  }

  claim(p: string): void {
    this.files.add(p);
    let d = dirOf(p);
    while (d !== "") {
      this.dirs.add(d);
      d = dirOf(d);
    }
  }

  /** The first free candidate `make(0)`, `make(1)`, ... (claimed before it is returned). */
  pick(make: (attempt: number) => string): string {
    for (let attempt = 0; attempt < 1000; attempt++) {
      const p = make(attempt);
      if (this.isFree(p)) {
        this.claim(p);
        return p;
      }
    }
    throw new InternalError(`no free path after 1000 candidates (last: ${make(999)})`);
  }

  /** Like pick, but every path in the group made from one candidate must be free. */
  pickGroup(make: (attempt: number) => string[]): string[] {
    for (let attempt = 0; attempt < 1000; attempt++) {
      const ps = make(attempt);
      if (new Set(ps).size === ps.length && ps.every((p) => this.isFree(p))) {
        for (const p of ps) this.claim(p);
        return ps;
      }
    }
    throw new InternalError("no free group of paths after 1000 candidates");
  }
}

function isTreeLike(x: FileTree | Iterable<string>): x is FileTree {
  return typeof (x as FileTree).get === "function" && typeof (x as FileTree).keys === "function";
}

/** The bytes of `p` in `env`, or a UserError naming the transform and the file. */
export function fileOf(t: { name: string }, env: FileTree, p: string): Uint8Array {
  const b = env.get(p);
  if (b === undefined) throw new UserError(`transform ${t.name}: target ${p} is not in the environment`);
  return b;
}

/** Refuses targets the transform cannot take: wrong count for its arity, duplicates, missing or unaccepted files. */
export function checkTargets<P>(t: Transform<P>, input: TransformInput<P>): void {
  const { targets, env } = input;
  if (t.arity === "one" && targets.length !== 1) {
    throw new UserError(`transform ${t.name} binds exactly one file, got ${targets.length}`);
  }
  if (t.arity === "many" && targets.length < 2) {
    throw new UserError(`transform ${t.name} binds at least two files, got ${targets.length}`);
  }
  if (new Set(targets).size !== targets.length) {
    throw new UserError(`transform ${t.name}: duplicate targets in ${targets.join(", ")}`);
  }
  for (const p of targets) {
    if (!t.accepts(p, fileOf(t, env, p))) {
      throw new UserError(`transform ${t.name} cannot take ${p} losslessly`);
    }
  }
}

/** A Markdown code span for a path or command. */
export function code(s: string): string {
  return s.includes("`") ? `\`\` ${s} \`\`` : `\`${s}\``;
}

/**
 * A resource transform whose apply first checks its targets and parameters, so every transform
 * refuses bad input the same way (UserError naming the transform and the file or field).
 */
export function resourceTransform<P>(t: Omit<Transform<P>, "kind">): Transform<P> {
  const full: Transform<P> = {
    ...t,
    kind: "resource",
    apply(input) {
      const parsed = t.params.safeParse(input.params);
      if (!parsed.success) {
        throw new UserError(`transform ${t.name}: bad parameters: ${parsed.error.message}`);
      }
      const checked = { ...input, params: parsed.data };
      checkTargets(full, checked);
      return t.apply(checked);
    },
  };
  return full;
}
