import { mkdtempSync, readdirSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  BlobStore,
  DEFAULT_MAX_RESULT_MIB,
  PackTooLargeError,
  packDir,
  resultCapBytes,
  runDistributed,
} from "../../src/distributed/index.js";
import { JobStore } from "../../src/store/index.js";
import { fixtureTask, jobConfig } from "../runner/helpers.js";
import { startCli } from "../support/cli-process.js";
import { useQueueLab } from "../support/queue-lab.js";

const lab = useQueueLab("result-cap");
let conn: Redis;
beforeAll(() => {
  conn = new Redis(lab.redis.url, { maxRetriesPerRequest: null });
});
afterAll(() => conn?.disconnect());

const MIB = 2 ** 20;

describe("the cap on a result pack", () => {
  it("packDir refuses a folder past the cap while walking it, before reading a file too large", () => {
    const dir = mkdtempSync(join(tmpdir(), "longhaul-test-pack-cap-"));
    try {
      writeFileSync(join(dir, "small.txt"), "x".repeat(1000));
      const exact = packDir(dir).length;
      expect(packDir(dir, { maxBytes: exact }).length).toBe(exact);
      expect(() => packDir(dir, { maxBytes: exact - 1 })).toThrow(PackTooLargeError);
      // A sparse 8 GiB file: read whole, it would not even fit in a Buffer; refused by its size.
      writeFileSync(join(dir, "huge.bin"), "y");
      truncateSync(join(dir, "huge.bin"), 8 * 1024 * MIB);
      expect(() => packDir(dir, { maxBytes: 256 * MIB })).toThrow(
        /its pack is over 256 MiB \(the cap on a result pack, --max-result-mib\)/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("defaults to 256 MiB and takes 1 to 512 MiB", () => {
    expect(DEFAULT_MAX_RESULT_MIB).toBe(256);
    expect(resultCapBytes(undefined)).toBe(256 * MIB);
    expect(resultCapBytes(512)).toBe(512 * MIB);
    expect(() => resultCapBytes(513)).toThrow(/--max-result-mib must be a whole number from 1 to 512/);
  });

  it("a blob past the cap is refused by its length, without fetching it", async () => {
    const blobs = new BlobStore(conn);
    const digest = await blobs.put(Buffer.alloc(2 * MIB, 7), 60);
    await expect(blobs.get(digest, MIB)).rejects.toThrow(
      `blob ${digest.slice(0, 12)} holds ${2 * MIB} bytes, more than the ${MIB}-byte cap on a result pack (--max-result-mib); refused`,
    );
    expect((await blobs.get(digest, 2 * MIB)).length).toBe(2 * MIB);
    await blobs.delete(digest);
  });

  // The shell agent leaves a 3 MB file in its logs: over a 1 MiB cap, far under the log copy's.
  const bigTrial = async (jobId: string, workerCap: number | null, coordinatorCap: number | undefined) => {
    const task = await fixtureTask("trivial");
    const config = jobConfig([task], {
      job_id: jobId,
      agents: ["shell"],
      agent_options: { cmd: "head -c 3000000 /dev/urandom > /logs/agent/big.bin" },
    });
    const worker = startCli([
      "worker",
      "--redis",
      lab.redis.url,
      "--cache",
      join(lab.tmp, `cache-${jobId}`),
      ...(workerCap === null ? [] : ["--max-result-mib", String(workerCap)]),
    ]);
    lab.procs.push(worker);
    const store = await JobStore.open(join(lab.tmp, `jobs-${jobId}`));
    const lines: string[] = [];
    // A worker that exits (refusing its options, say) ends the wait instead of leaving it hanging.
    const stop = new AbortController();
    void worker.exited.then(() => stop.abort());
    try {
      const outcome = await runDistributed({
        store,
        config,
        tasks: [task],
        redisUrl: lab.redis.url,
        resume: false,
        pollMs: 50,
        log: (l) => lines.push(l),
        signal: stop.signal,
        ...(coordinatorCap === undefined ? {} : { maxResultMib: coordinatorCap }),
      });
      expect(outcome.interrupted, worker.stderr()).toBe(false);
      const [trial] = outcome.trials;
      expect(outcome.trials).toHaveLength(1);
      expect(trial?.outcome).not.toBe("infra_error");
      // Recorded, without its folder: only result.json is there.
      expect(readdirSync(store.trialDir(jobId, trial?.trial_id ?? ""))).toEqual(["result.json"]);
      // No result pack is left behind in Redis: what remains is the small task bundle.
      for (const key of await conn.keys("longhaul:blob:*")) expect(await conn.strlen(key)).toBeLessThan(MIB);
      return { lines, worker: worker.stderr(), trialId: trial?.trial_id ?? "" };
    } finally {
      await worker.kill9();
      await store.close();
    }
  };

  it("a worker does not send a trial folder past its cap; the trial is recorded without it", async () => {
    const r = await bigTrial("capped-worker", 1, undefined);
    expect(r.worker).toMatch(
      /trial capped-worker__\S+: artifacts not kept \(its pack is over 1 MiB \(the cap on a result pack, --max-result-mib\), [\d.]+ MiB counted so far\); result sent/,
    );
    expect(r.lines.join("\n")).toMatch(
      new RegExp(
        `trial ${r.trialId}: artifacts not kept \\(the worker sent none: its pack is over 1 MiB .*\\); result recorded`,
      ),
    );
  }, 120_000);

  it("a coordinator refuses a result pack past its cap before fetching it; the trial is recorded without it", async () => {
    const r = await bigTrial("capped-coordinator", null, 1);
    expect(r.worker).not.toContain("artifacts not kept");
    expect(r.lines.join("\n")).toMatch(
      new RegExp(
        `trial ${r.trialId}: artifacts not kept \\(blob \\w{12} holds \\d+ bytes, more than the ${MIB}-byte cap on a result pack \\(--max-result-mib\\); refused\\); result recorded`,
      ),
    );
  }, 120_000);
});
