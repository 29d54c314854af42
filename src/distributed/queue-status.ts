import { Queue } from "bullmq";
import { checkRedis, connectRedis } from "./redis.js";
import { TRIAL_QUEUE } from "./trial-job.js";

export interface QueueStatus {
  workers: { name: string; addr: string; idle_sec: number }[];
  running: { trial: string; worker: string; running_sec: number }[];
  counts: Record<"waiting" | "prioritized" | "delayed" | "active" | "completed" | "failed", number>;
}

/** Workers connected to the trial queue, the trials they are running, and the backlog. */
export async function queueStatus(redisUrl: string, now = Date.now()): Promise<QueueStatus> {
  const redis = connectRedis(redisUrl);
  await checkRedis(redis, redisUrl, 5000);
  const queue = new Queue(TRIAL_QUEUE, { connection: redis });
  try {
    const [clients, active, counts] = await Promise.all([
      queue.getWorkers(),
      queue.getJobs(["active"], 0, -1, true),
      queue.getJobCounts("waiting", "prioritized", "delayed", "active", "completed", "failed"),
    ]);
    return {
      workers: clients
        .map((c) => ({
          name: workerName(c.rawname ?? c.name ?? "?"),
          addr: c.addr ?? "?",
          idle_sec: Number(c.idle ?? 0),
        }))
        .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
      running: active.flatMap((j) =>
        j === undefined
          ? []
          : [
              {
                trial: j.id ?? "?",
                worker: j.processedBy ?? "?",
                running_sec: Math.max(0, Math.round((now - (j.processedOn ?? now)) / 1000)),
              },
            ],
      ),
      counts: {
        waiting: counts.waiting ?? 0,
        prioritized: counts.prioritized ?? 0,
        delayed: counts.delayed ?? 0,
        active: counts.active ?? 0,
        completed: counts.completed ?? 0,
        failed: counts.failed ?? 0,
      },
    };
  } finally {
    await queue.close();
    redis.disconnect();
  }
}

/** The status as three small tables (what `longhaul queue status` prints). */
export function renderQueueStatus(s: QueueStatus): string {
  const table = (head: string[], rows: string[][]): string => {
    const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
    const line = (r: string[]) =>
      r
        .map((c, i) => c.padEnd(widths[i] ?? 0))
        .join("  ")
        .trimEnd();
    return [line(head), line(widths.map((w) => "-".repeat(w))), ...rows.map(line)].join("\n");
  };
  const c = s.counts;
  return [
    `workers (${s.workers.length})`,
    table(
      ["worker", "address", "idle s"],
      s.workers.map((w) => [w.name, w.addr, String(w.idle_sec)]),
    ),
    "",
    `running trials (${s.running.length})`,
    table(
      ["trial", "worker", "running s"],
      s.running.map((r) => [r.trial, r.worker, String(r.running_sec)]),
    ),
    "",
    "backlog",
    table(
      ["waiting", "prioritized", "delayed", "active", "completed", "failed"],
      [[c.waiting, c.prioritized, c.delayed, c.active, c.completed, c.failed].map(String)],
    ),
  ].join("\n");
}

/** BullMQ names a worker's connection `<prefix>:<queue>:w:<name>`; the name is what a user gave. */
function workerName(raw: string): string {
  const at = raw.indexOf(":w:");
  return at < 0 ? raw : raw.slice(at + 3);
}
