import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { type TrialResult, trialResultSchema } from "../../src/core/index.js";
import type { ChildSpec } from "./trial-child.js";

/** The host secret: set only in the environment of the process that runs the trial. */
export const HOST_SECRET = "lhadv-host-secret-5b1d7e0c";

/** Above this resident size (a trial needs a few hundred MiB) the trial process is considered to be ballooning and is killed. */
const RSS_CAP_KB = 1024 * 1024;

export interface ChildOutcome {
  trials: { result: TrialResult; dir: string }[];
  wallMs: number;
  startMs: number;
  /** Why the trial process itself failed (crash, hang, runaway memory), or null. */
  hostFailure: string | null;
}

const outSchema = z.object({
  trials: z.array(z.object({ result: trialResultSchema, dir: z.string() })),
  wallMs: z.number(),
  startMs: z.number(),
});

function rssKb(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m?.[1] === undefined ? 0 : Number(m[1]);
  } catch {
    return 0;
  }
}

/** Runs the job of `spec` in a child process under a wall-clock and memory watchdog. */
export async function runInChild(spec: Omit<ChildSpec, "out">, timeoutMs: number): Promise<ChildOutcome> {
  const out = join(spec.jobsDir, "child-outcome.json");
  const specPath = join(spec.jobsDir, "child-spec.json");
  writeFileSync(specPath, JSON.stringify({ ...spec, out }));
  const child = spawn(
    process.execPath,
    ["--import", "tsx", join(import.meta.dirname, "trial-child.ts"), specPath],
    {
      detached: true,
      stdio: ["ignore", "ignore", "pipe"],
      env: { ...process.env, LH_HOST_SECRET: HOST_SECRET },
    },
  );
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => {
    if (stderr.length < 20_000) stderr += d.toString("utf8");
  });
  let killedFor: string | null = null;
  const kill = (why: string): void => {
    killedFor ??= why;
    try {
      if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
    } catch {
      // already gone
    }
  };
  const timer = setTimeout(() => kill(`trial process still running after ${timeoutMs} ms`), timeoutMs);
  const watch = setInterval(() => {
    const kb = child.pid === undefined ? 0 : rssKb(child.pid);
    if (kb > RSS_CAP_KB) kill(`trial process grew to ${Math.round(kb / 1024)} MiB resident`);
  }, 100);
  const code = await new Promise<number | null>((resolve) => child.on("close", (c) => resolve(c)));
  clearTimeout(timer);
  clearInterval(watch);
  if (killedFor !== null || code !== 0) {
    return {
      trials: [],
      wallMs: 0,
      startMs: 0,
      hostFailure: killedFor ?? `trial process exited ${code}: ${stderr.slice(-2000)}`,
    };
  }
  const parsed = outSchema.parse(JSON.parse(readFileSync(out, "utf8")));
  return { ...parsed, hostFailure: null };
}
