import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type Job, Worker } from "bullmq";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  BlobStore,
  RESULT_MAX_ENTRIES,
  runDistributed,
  TRIAL_QUEUE,
  type TrialReturn,
} from "../../src/distributed/index.js";
import { planTrials } from "../../src/runner/index.js";
import { infraFailure } from "../../src/runner/run-planned-trial.js";
import { JobStore } from "../../src/store/index.js";
import { fixtureTask, jobConfig } from "../runner/helpers.js";
import { useQueueLab } from "../support/queue-lab.js";

// The coordinator against a worker that sends back trial folders built to harm the host.
const lab = useQueueLab("hostile");
let conn: Redis;

beforeAll(() => {
  conn = new Redis(lab.redis.url, { maxRetriesPerRequest: null });
});
afterAll(() => conn?.disconnect());

/** A pack as packDir lays it out, entry by entry, in whatever order a hostile worker likes. */
function craft(entries: { kind: string; path: string; data?: string }[]): Buffer {
  const parts: Buffer[] = [Buffer.from("LHPK1\n")];
  for (const e of entries) {
    const path = Buffer.from(e.path);
    const data = Buffer.from(e.data ?? "");
    const head = Buffer.alloc(13);
    head.write(e.kind, 0, "latin1");
    head.writeUInt32BE(0o644, 1);
    head.writeUInt32BE(path.length, 5);
    head.writeUInt32BE(data.length, 9);
    parts.push(head, path, data);
  }
  return Buffer.concat(parts);
}

describe("a hostile worker's trial folders", () => {
  it("are refused on the host with a line, nothing written outside the trial, the results recorded", async () => {
    const task = await fixtureTask("seeded");
    const config = jobConfig([task], { job_id: "hostile", attempts: 2, seed: 7 });
    const plan = planTrials(config);
    const [first, second] = plan;
    if (first === undefined || second === undefined) throw new Error("no plan");
    const outside = join(lab.tmp, "outside");
    mkdirSync(outside);
    const victim = join(outside, "victim");
    writeFileSync(victim, "host data\n");
    const blobs = new BlobStore(conn);
    const packs = new Map([
      [
        first.trialId,
        craft([
          // The coordinator runs in this process: its result.json is written through this name.
          { kind: "l", path: `result.json.tmp-${process.pid}`, data: victim },
          { kind: "f", path: "x", data: "overwritten\n" },
        ]),
      ],
      [
        second.trialId,
        craft(Array.from({ length: RESULT_MAX_ENTRIES + 1 }, (_, i) => ({ kind: "d", path: `d${i}` }))),
      ],
    ]);
    const workerConn = new Redis(lab.redis.url, { maxRetriesPerRequest: null });
    const worker = new Worker(
      TRIAL_QUEUE,
      async (job: Job): Promise<TrialReturn> => {
        const planned = plan.find((p) => p.trialId === job.data.trial_id);
        const pack = packs.get(job.data.trial_id);
        if (planned === undefined || pack === undefined) throw new Error("not this test's trial");
        const result = {
          ...infraFailure(config, task, planned, ""),
          outcome: "completed" as const,
          reward: 1,
          error: null,
        };
        return { result, artifacts: await blobs.put(pack, 600), worker: "hostile" };
      },
      { connection: workerConn },
    );
    const lines: string[] = [];
    const store = await JobStore.open(join(lab.tmp, "jobs"));
    try {
      const outcome = await runDistributed({
        store,
        config,
        tasks: [task],
        redisUrl: lab.redis.url,
        resume: false,
        pollMs: 50,
        log: (l) => lines.push(l),
      });
      expect(outcome.interrupted).toBe(false);
      expect(outcome.trials.map((t) => t.outcome)).toEqual(["completed", "completed"]);
    } finally {
      await worker.close();
      workerConn.disconnect();
      await store.close();
    }
    expect(readFileSync(victim, "utf8")).toBe("host data\n");
    expect(statSync(victim).isFile()).toBe(true);
    expect(lines.join("\n")).toMatch(
      new RegExp(
        `trial ${first.trialId}: artifacts not kept \\(pack entry "result.json.tmp-${process.pid}" is a symbolic link`,
      ),
    );
    expect(lines.join("\n")).toMatch(
      new RegExp(
        `trial ${second.trialId}: artifacts not kept \\(pack holds more than ${RESULT_MAX_ENTRIES} entries`,
      ),
    );
    for (const p of [first, second]) {
      const dir = join(lab.tmp, "jobs", "hostile", p.trialId);
      expect(readdirSync(dir)).toEqual(["result.json"]);
    }
    expect(existsSync(join(lab.tmp, "jobs", "hostile", first.trialId, "x"))).toBe(false);
  }, 120_000);
});
