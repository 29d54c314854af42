import type { TrialResult } from "../core/index.js";
import { UserError } from "../core/index.js";
import type { TrialParams } from "./run-trial.js";

/**
 * How trials of one task kind run (src/task/kinds.ts). A terminal task's trial is the runner's
 * own (sandbox → agent → verifier); another kind — a world task played by a team — brings its
 * own, and gets the same parameters and returns the same TrialResult, so that jobs, retries,
 * the store, reports and the viewer treat both alike. It throws InfraError for what is not the
 * agent's fault (the job retries it) and records everything else as the trial's outcome.
 */
export interface TrialKind {
  kind: string;
  /** The agent names that can play tasks of this kind (e.g. a world's team agents). */
  agents(): string[];
  /** Whether one of its agents needs `--model` (checked before a job is made). */
  needsModel?(agent: string): boolean;
  /** Refuses agent options its trials would refuse for this agent (a UserError), before a job is made. */
  checkOptions?(options: Readonly<Record<string, string>>, agent: string): void;
  run(p: TrialParams): Promise<TrialResult>;
}

const kinds = new Map<string, TrialKind>();

/** Adds a trial kind; a second one of the same name is an error. */
export function registerTrialKind(k: TrialKind): void {
  const had = kinds.get(k.kind);
  if (had !== undefined && had !== k) throw new UserError(`trial kind "${k.kind}" is already registered`);
  kinds.set(k.kind, k);
}

/** The trial kind for a task kind; a task of a kind nobody registered cannot run. */
export function getTrialKind(kind: string): TrialKind {
  const k = kinds.get(kind);
  if (k === undefined) {
    throw new UserError(
      `no trial kind "${kind}" is registered (known: terminal${[...kinds.keys()].map((n) => `, ${n}`).join("")})`,
    );
  }
  return k;
}

/** Every registered trial kind (besides the built-in terminal one). */
export function listTrialKinds(): TrialKind[] {
  return [...kinds.values()];
}
