import type { z } from "zod";

/**
 * An environment as RES sees it: the files a task's environment/ folder gives the agent, by
 * POSIX path relative to that folder ("data/orders.csv"), with their bytes. Immutable by
 * convention: transforms return a new map and never edit the one they were given.
 */
export type FileTree = ReadonlyMap<string, Uint8Array>;

export const TRANSFORM_KINDS = ["resource", "relation", "operation"] as const;
/** resource: how information is reached; relation: how sources relate; operation: when actions become possible. */
export type TransformKind = (typeof TRANSFORM_KINDS)[number];

/**
 * The canonical form a ground fact is compared in, so a lossless change of representation
 * (CSV quoting, JSON key order, SQLite page layout, PNG compression) still restores the fact:
 * bytes, canonical JSON, sorted rows of a CSV/TSV/JSONL table, SQLite logical dump, decoded pixels.
 */
export const FACT_FORMS = ["bytes", "json", "rows", "sqlite", "pixels"] as const;
export type FactForm = (typeof FACT_FORMS)[number];

/** A protected ground fact: the content of `path` in canonical `form` has digest `digest` (sha256 hex). */
export interface GroundFact {
  path: string;
  form: FactForm;
  digest: string;
}

/**
 * One public restore step: a POSIX sh command run from the environment's root (the agent's
 * workdir) with only what every image has (sh, coreutils, gzip, tar, python3 standard library)
 * plus any tool the transform itself placed in the environment.
 */
export interface RestoreStep {
  run: string;
  /** One line for people: what this step undoes. */
  why: string;
}

/** What a transform is applied to: the parent's files, the resources it is bound to, its parameters and seed. */
export interface TransformInput<P> {
  env: FileTree;
  /** Paths in `env` this application is bound to (at least one; see Transform.arity). */
  targets: readonly string[];
  params: P;
  seed: number;
}

/** What a transform makes: the child's files and what the agent is told. */
export interface TransformOutput {
  env: FileTree;
  /**
   * The public access instructions added to the spec update (Markdown, one or more sentences):
   * how the targets are reached now. Names paths and procedures, never a protected fact's value.
   */
  access: string;
  /** Steps that, run in order from the root of the child environment, bring every target back. */
  restore: RestoreStep[];
  /** Paths this application created that a later transform may bind to (keys, manifests, tools, parts). */
  produced: string[];
  /** Paths of `env` that no longer exist in the child (moved, split, packed away). */
  removed: string[];
}

/**
 * One transform of the library. A pure seeded function: the same input gives the same bytes
 * (gzip mtime 0, sorted archive entries, fixed dates), with no clock, no Math.random, no I/O
 * outside a private temporary folder.
 */
export interface Transform<P = unknown> {
  name: string;
  kind: TransformKind;
  /** In the 6-transform "basic" ablation library (base64, gzip, split, move/rename, manifest, preparation step). */
  basic: boolean;
  /** One line for docs and `scale tree`. */
  summary: string;
  /** The restore procedure in words, for docs/scale.md. */
  restoreDoc: string;
  params: z.ZodType<P>;
  /** How many targets one application binds: "one" file, or "many" (at least two). */
  arity: "one" | "many";
  /** True when `path` (with its bytes) is a resource this transform can bind to. */
  accepts(path: string, bytes: Uint8Array): boolean;
  /** Seeded default parameters, for the planner. */
  defaultParams(seed: number): P;
  apply(input: TransformInput<P>): TransformOutput;
}

/** One bound step of a plan: a transform by name, its targets and parameters. */
export interface PlanStep {
  transform: string;
  targets: string[];
  params: unknown;
  seed: number;
}
