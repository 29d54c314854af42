import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join, posix } from "node:path";
import { Rng } from "../core/rng.js";
import { type PerturbationId, pickPerturbations } from "./catalog.js";
import { applyPerturbations, type PerturbOptions } from "./pipeline.js";
import type { AppliedPerturbation } from "./pipeline-records.js";
import type { RecordFormat } from "./records.js";
import { type Row, StressError } from "./types.js";

export type StressInputs = Record<string, Uint8Array | string>;

export interface StressCase<E> {
  seed: number | string;
  /** Relative POSIX path → content; the files the agent's program is run on. */
  inputs: StressInputs;
  /** The ground truth the grader compares against. */
  expected: E;
  /** What was done, in words, for reward-details and debugging. */
  notes: string[];
}

export type StressGenerator<E> = (
  rng: Rng,
  seed: number | string,
) => {
  inputs: StressInputs;
  expected: E;
  notes?: string[];
};

function checkPath(path: string): void {
  const normal = posix.normalize(path);
  const ok =
    path.length > 0 &&
    !path.startsWith("/") &&
    normal === path &&
    !normal.startsWith("..") &&
    !path.includes("\\");
  if (!ok)
    throw new StressError(
      `stress input path ${JSON.stringify(path)} must be relative, normalised and inside the case`,
    );
}

/** Run a generator on a fresh Rng for `seed`: the same seed always yields the same case. */
export function makeStressCase<E>(seed: number | string, generator: StressGenerator<E>): StressCase<E> {
  const out = generator(new Rng(seed), seed);
  for (const [path, content] of Object.entries(out.inputs)) {
    checkPath(path);
    if (typeof content !== "string" && !(content instanceof Uint8Array)) {
      throw new StressError(`stress input ${path}: content must be a string or Uint8Array`);
    }
  }
  return { seed, inputs: out.inputs, expected: out.expected, notes: out.notes ?? [] };
}

/** Write a case's inputs under `dir` (directories are created); returns the absolute paths written. */
export async function writeStressInputs(dir: string, inputs: StressInputs): Promise<string[]> {
  const written: string[] = [];
  for (const [path, content] of Object.entries(inputs)) {
    checkPath(path);
    const target = join(dir, path);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, content);
    written.push(target);
  }
  return written;
}

export interface RecordsExpectation {
  /** The records before any perturbation. */
  original: Row[];
  /** The records as they sit in the files (after record-level perturbations). */
  records: Row[];
  entry: string;
  format: RecordFormat;
  perturbations: PerturbationId[];
  applied: AppliedPerturbation[];
}

/** A generator that perturbs `records` with `count` seed-chosen perturbations (from `pool` if given). */
export function recordsGenerator(
  records: readonly Row[],
  options: PerturbOptions & { count?: number; pool?: readonly PerturbationId[] } = {},
): StressGenerator<RecordsExpectation> {
  return (rng) => {
    const ids = pickPerturbations(rng.fork("pick"), options.count ?? 4, options.pool);
    const out = applyPerturbations(rng.fork("apply"), records, ids, options);
    return {
      inputs: out.inputs,
      expected: {
        original: records.map((r) => ({ ...r })),
        records: out.records,
        entry: out.entry,
        format: out.format,
        perturbations: ids,
        applied: out.applied,
      },
      notes: out.notes,
    };
  };
}
