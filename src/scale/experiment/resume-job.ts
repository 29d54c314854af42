import { join } from "node:path";
import { UserError } from "../../core/index.js";
import type { JobConfig, JobStore } from "../../store/index.js";

/** Fields a continued job must share with the experiment: they decide which trials it holds. */
const SAME = [
  "agents",
  "models",
  "attempts",
  "seed",
  "agent_options",
  "timeout_multiplier",
  "sandbox",
] as const;

/**
 * `scale experiment --resume --job NAME`: the job's own config, once it is shown to be this
 * experiment's (the same tasks, by name and checksum, the same agent, attempts and seed), with
 * this run's concurrency and retries. Its finished trials are kept; the rest run.
 */
export function continuedJob(store: JobStore, wanted: JobConfig): JobConfig {
  const id = wanted.job_id;
  if (!store.hasJob(id)) {
    throw new UserError(`--resume: no job named ${id} in ${store.jobsDir}; leave out --resume to start it`);
  }
  const was = store.loadJobConfig(id);
  const file = join(store.jobDir(id), "config.json");
  const key = (c: JobConfig): string[] => c.tasks.map((t) => `${t.name}@${t.checksum}`);
  const before = key(was);
  const now = key(wanted);
  const changed = now.find((t) => !before.includes(t)) ?? before.find((t) => !now.includes(t));
  if (changed !== undefined) {
    throw new UserError(
      `${file}: field "tasks": job ${id} holds other tasks than this experiment (first difference: ${changed.split("@")[0]}); it is not this experiment's job, or a root task changed: choose a new --job`,
    );
  }
  for (const field of SAME) {
    const a = JSON.stringify(was[field]);
    const b = JSON.stringify(wanted[field]);
    if (a !== b) {
      throw new UserError(
        `${file}: field "${field}": job ${id} was started with ${a}, this experiment asks for ${b}; continue it with the same options, or choose a new --job`,
      );
    }
  }
  return { ...was, concurrency: wanted.concurrency, retries: wanted.retries };
}
