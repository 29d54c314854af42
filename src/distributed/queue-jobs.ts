import type { Job, Queue } from "bullmq";
import type { Redis } from "ioredis";
import type { PlannedTrial } from "../runner/trial-plan.js";
import type { JobConfig } from "../store/index.js";
import type { Task } from "../task/types.js";

/** Finished queue jobs read per page. */
const PAGE = 200;

/**
 * Ids of the queue jobs of a longhaul job (the ids start with `<job>__`), in any state. SCAN,
 * not the queue's lists: it needs no state and costs nothing to a queue holding other jobs.
 */
export async function queuedIdsOf(redis: Redis, queue: Queue, jobId: string): Promise<string[]> {
  const base = queue.toKey("");
  const ids = new Set<string>();
  let cursor = "0";
  do {
    const [next, keys] = await redis.scan(cursor, "MATCH", `${base}${jobId}__*`, "COUNT", 1000);
    cursor = next;
    for (const k of keys) if (!/:(lock|logs)$/.test(k)) ids.add(k.slice(base.length));
  } while (cursor !== "0");
  return [...ids].sort();
}

/**
 * This job's finished queue jobs. The queue is shared with other coordinators' jobs, whose
 * finished trials wait there while their coordinator is away: every page is read past them.
 */
export async function finishedOf(queue: Queue, prefix: string): Promise<Job[]> {
  const out: Job[] = [];
  for (let start = 0; ; start += PAGE) {
    const page = await queue.getJobs(["completed", "failed"], start, start + PAGE - 1, true);
    for (const j of page) if (j !== undefined && (j.id ?? "").startsWith(prefix)) out.push(j);
    if (page.length < PAGE || out.length >= PAGE) return out;
  }
}

/**
 * Why a queued trial (its data) or a worker's result is not this job's planned trial: an older
 * job of the same name left it in the queue, or the task changed since it was queued. Null when
 * every field that makes a trial agrees.
 */
export function foreignField(
  got: unknown,
  config: JobConfig,
  task: Task,
  planned: PlannedTrial,
): string | null {
  if (typeof got !== "object" || got === null) return "not a trial";
  const g = got as Record<string, unknown>;
  const t = (typeof g.task === "object" && g.task !== null ? g.task : {}) as Record<string, unknown>;
  const want: [string, unknown, unknown][] = [
    ["job_id", g.job_id, config.job_id],
    ["trial_id", g.trial_id, planned.trialId],
    ["task", t.name, task.name],
    ["task checksum", t.checksum, task.checksum],
    ["agent", g.agent, planned.agent],
    ["model", g.model, planned.model],
    ["attempt", g.attempt, planned.attempt],
    ["seed", g.seed, planned.seed],
  ];
  for (const [field, have, expected] of want) {
    if (have !== expected) return `${field} ${short(have)}, expected ${short(expected)}`;
  }
  return null;
}

function short(v: unknown): string {
  const s = JSON.stringify(v) ?? String(v);
  return s.length > 40 ? `${s.slice(0, 37)}…` : s;
}
