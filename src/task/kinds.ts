import { UserError } from "../core/errors.js";
import type { Task } from "./types.js";

/**
 * A kind of task other than a Harbor folder (task.toml): a world task, say. The task layer knows
 * no kind but its own; a higher layer registers one, and `loadTaskSet` then accepts its paths. A
 * task it loads carries `kind`, and the runner runs it with the trial kind of the same name.
 */
export interface TaskKind {
  /** Recorded in `Task.kind`; also the name of the runner's trial kind for these tasks. */
  kind: string;
  /** Whether a path that is not a Harbor task folder holds tasks of this kind (a file or a dataset). */
  claims(path: string): boolean;
  /** Every task at the path, each validated (errors name file, field and line). */
  load(path: string): Promise<Task[]>;
}

const kinds = new Map<string, TaskKind>();

/** Adds a task kind; a second kind of one name is an error (plugins must not shadow each other). */
export function registerTaskKind(k: TaskKind): void {
  if (k.kind === "terminal") throw new UserError('task kind "terminal" is the built-in Harbor task');
  const had = kinds.get(k.kind);
  if (had !== undefined && had !== k) throw new UserError(`task kind "${k.kind}" is already registered`);
  kinds.set(k.kind, k);
}

/** The registered kind that claims a path, if any (in registration order). */
export function taskKindFor(path: string): TaskKind | undefined {
  for (const k of kinds.values()) if (k.claims(path)) return k;
  return undefined;
}

/** Names of the registered task kinds, besides "terminal". */
export function listTaskKinds(): string[] {
  return [...kinds.keys()];
}
