import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CliProcess, runCli, startCli } from "../support/cli-process.js";
import { type RedisServer, startRedis } from "../support/redis-server.js";

// A queue behind a password: the resume commands longhaul prints must name it, never the password.
const PASSWORD = "pw-never-printed";
let redis: RedisServer;
let tmp: string;
const procs: CliProcess[] = [];

beforeAll(async () => {
  redis = await startRedis({ password: PASSWORD });
  tmp = mkdtempSync(join(tmpdir(), "longhaul-test-queue-resume-"));
});
afterAll(async () => {
  for (const p of procs) await p.kill9();
  await redis?.stop();
  if (tmp !== undefined) rmSync(tmp, { recursive: true, force: true });
});

/** Starts a coordinator of job `queued` with no worker, and stops it with SIGINT once it has made the job. */
async function interruptedRun(jobsDir: string, url: string, resume: boolean): Promise<CliProcess> {
  const args = resume
    ? ["run", "--resume", "--job", "queued", "--jobs-dir", jobsDir, "--queue", url]
    : [
        "run",
        "test/fixtures/tasks/seeded",
        "-a",
        "oracle",
        "--job",
        "queued",
        "--jobs-dir",
        jobsDir,
        "--queue",
        url,
      ];
  const p = startCli(args);
  procs.push(p);
  // The progress line comes once the job is made and its trials are enqueued.
  await p.waitFor(/job: \d+ trials/, 30_000);
  p.child.kill("SIGINT");
  expect(await p.exited).toBe(130);
  return p;
}

/** Every byte the job store holds, as text: config.json, result.json, the index. */
function storeText(jobsDir: string): string {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) out.push(readFileSync(p, "latin1"));
    }
  };
  walk(jobsDir);
  return out.join("\n");
}

describe("the resume command of a job run with --queue", () => {
  it("names the queue with its password masked, on Ctrl-C, in config.json and in the report", async () => {
    const jobsDir = join(tmp, "jobs");
    const shown = `redis://:***@127.0.0.1:${redis.port}`;
    const resume = `longhaul run --resume --job queued --jobs-dir ${jobsDir} --queue '${shown}'`;
    const note = "(put the queue's password in place of ***: it is not recorded)";

    const first = await interruptedRun(jobsDir, redis.url, false);
    expect(first.stderr()).toContain(
      `SIGINT: stopping; finished trials are kept. Continue with: ${resume} ${note}`,
    );
    expect(first.stderr()).not.toContain(PASSWORD);

    const config = JSON.parse(readFileSync(join(jobsDir, "queued", "config.json"), "utf8"));
    expect(config.queue_url).toBe(shown);

    const report = await runCli(["report", "queued", "--jobs-dir", jobsDir]);
    expect(report.code, report.stderr).toBe(2);
    expect(report.stderr).toContain(`resume it with ${resume} ${note}`);

    // Resumed on the same server under another spelling of the URL: the latest is recorded.
    const other = `redis://default:${PASSWORD}@127.0.0.1:${redis.port}/0`;
    const second = await interruptedRun(jobsDir, other, true);
    const otherShown = `redis://default:***@127.0.0.1:${redis.port}/0`;
    expect(second.stderr()).toContain(`--queue '${otherShown}' ${note}`);
    const again = JSON.parse(readFileSync(join(jobsDir, "queued", "config.json"), "utf8"));
    expect(again.queue_url).toBe(otherShown);
    expect(storeText(jobsDir)).not.toContain(PASSWORD);
  }, 90_000);
});
