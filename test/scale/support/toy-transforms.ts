import { createHash } from "node:crypto";
import { gzipSync } from "node:zlib";
import { z } from "zod";
import { cloneTree, utf8 } from "../../../src/scale/file-tree.js";
import type { Transform, TransformInput, TransformOutput } from "../../../src/scale/types.js";

/**
 * Small transforms for the pipeline's tests, so the planner, the child builder and the verifier
 * can be exercised without the real library. Each is a pure seeded function like a real one;
 * the "broken" ones each carry exactly one defect the verifier must name.
 */

const NoParams = z.object({}).strict();
type NoP = z.infer<typeof NoParams>;

function q(s: string): string {
  return `'${s.replaceAll("'", `'\\''`)}'`;
}

function hex(seed: number, path: string): string {
  return createHash("sha256").update(`${seed}:${path}`).digest("hex").slice(0, 10);
}

function base(name: string, basic: boolean, accepts: (p: string) => boolean): Omit<Transform<NoP>, "apply"> {
  return {
    name,
    kind: "resource",
    basic,
    summary: `${name} (test transform)`,
    restoreDoc: "see the test",
    params: NoParams,
    arity: "one",
    accepts: (p) => accepts(p),
    defaultParams: () => ({}),
  };
}

/** Gzips the target to <target>.gz. */
export const toyGzip: Transform<NoP> = {
  ...base("toy-gzip", true, (p) => !p.endsWith(".gz")),
  apply({ env, targets }: TransformInput<NoP>): TransformOutput {
    const p = targets[0] ?? "";
    const out = cloneTree(env);
    out.delete(p);
    out.set(`${p}.gz`, new Uint8Array(gzipSync(env.get(p) ?? new Uint8Array(), { level: 9 })));
    return {
      env: out,
      access: `\`${p}\` is now stored gzip-compressed as \`${p}.gz\`.`,
      restore: [{ run: `gzip -dc ${q(`${p}.gz`)} > ${q(p)} && rm ${q(`${p}.gz`)}`, why: `decompress ${p}` }],
      produced: [`${p}.gz`],
      removed: [p],
    };
  },
};

/** Moves the target to an opaque path under vault/. */
export const toyMove: Transform<NoP> = {
  ...base("toy-move", true, (p) => !p.startsWith("vault/")),
  apply({ env, targets, seed }: TransformInput<NoP>): TransformOutput {
    const p = targets[0] ?? "";
    const to = `vault/${hex(seed, p)}.bin`;
    const out = cloneTree(env);
    out.delete(p);
    out.set(to, env.get(p) ?? new Uint8Array());
    const dir = p.includes("/") ? p.slice(0, p.lastIndexOf("/")) : ".";
    return {
      env: out,
      access: `\`${p}\` was moved to \`${to}\`.`,
      restore: [{ run: `mkdir -p ${q(dir)} && mv ${q(to)} ${q(p)}`, why: `move ${p} back` }],
      produced: [to],
      removed: [p],
    };
  },
};

function firstLineDropped(bytes: Uint8Array): Uint8Array {
  const lines = utf8.decode(bytes).split("\n");
  lines.splice(1, 1);
  return utf8.encode(lines.join("\n"));
}

/** Broken: gzips the target minus its first data record (a restored file loses a row). */
export const toyLossy: Transform<NoP> = {
  ...toyGzip,
  name: "toy-lossy",
  basic: false,
  apply(input) {
    const o = toyGzip.apply(input);
    const p = input.targets[0] ?? "";
    const out = cloneTree(o.env);
    out.set(`${p}.gz`, new Uint8Array(gzipSync(firstLineDropped(input.env.get(p) ?? new Uint8Array()))));
    return { ...o, env: out };
  },
};

/** Broken: the restore step names a file that does not exist. */
export const toyBadRef: Transform<NoP> = {
  ...toyGzip,
  name: "toy-badref",
  basic: false,
  apply(input) {
    const o = toyGzip.apply(input);
    const p = input.targets[0] ?? "";
    return { ...o, restore: [{ run: `gzip -dc ${q(`${p}.gzip`)} > ${q(p)}`, why: `decompress ${p}` }] };
  },
};

/** Broken: gzips and moves the target, but publishes the two restore steps in the wrong order. */
export const toySwapped: Transform<NoP> = {
  ...toyGzip,
  name: "toy-swapped",
  basic: false,
  apply(input) {
    const g = toyGzip.apply(input);
    const p = input.targets[0] ?? "";
    const m = toyMove.apply({ ...input, env: g.env, targets: [`${p}.gz`] });
    return { ...m, restore: [...g.restore, ...m.restore], removed: [p] };
  },
};

/** Broken: the access text quotes a value of the file it hides. */
export const toyLeaky: Transform<NoP> = {
  ...toyGzip,
  name: "toy-leaky",
  basic: false,
  apply(input) {
    const o = toyGzip.apply(input);
    const second =
      utf8.decode(input.env.get(input.targets[0] ?? "") ?? new Uint8Array()).split("\n")[1] ?? "";
    return { ...o, access: `${o.access} Its first record is \`${second}\`.` };
  },
};

let calls = 0;
/** Broken: not a pure function (each application writes a different note). */
export const toyImpure: Transform<NoP> = {
  ...toyGzip,
  name: "toy-impure",
  basic: false,
  apply(input) {
    const o = toyGzip.apply(input);
    calls += 1;
    const out = cloneTree(o.env);
    out.set("NOTE.txt", utf8.encode(`applied ${calls} time(s)\n`));
    return { ...o, env: out };
  },
};

/** Broken: changes nothing the solution needs (it only adds a backup copy). */
export const toyNoop: Transform<NoP> = {
  ...toyGzip,
  name: "toy-noop",
  basic: false,
  apply({ env, targets }) {
    const p = targets[0] ?? "";
    const out = cloneTree(env);
    out.set(`${p}.bak`, env.get(p) ?? new Uint8Array());
    return {
      env: out,
      access: `A backup of \`${p}\` is at \`${p}.bak\`.`,
      restore: [{ run: `rm -f ${q(`${p}.bak`)}`, why: "remove the backup" }],
      produced: [`${p}.bak`],
      removed: [],
    };
  },
};

/** Sound, but its restore step runs a command that fails before the step succeeds as a whole. */
export const toyLenient: Transform<NoP> = {
  ...toyGzip,
  name: "toy-lenient",
  basic: false,
  apply(input) {
    const o = toyGzip.apply(input);
    const p = input.targets[0] ?? "";
    const run = `test -e ${q(`${p}.old`)}; gzip -dc ${q(`${p}.gz`)} > ${q(p)} && rm ${q(`${p}.gz`)}`;
    return { ...o, restore: [{ run, why: `decompress ${p}` }] };
  },
};

export const GOOD_TOYS = [toyGzip, toyMove] as const;
export const BROKEN_TOYS = [toyLossy, toyBadRef, toySwapped, toyLeaky, toyImpure, toyNoop] as const;
