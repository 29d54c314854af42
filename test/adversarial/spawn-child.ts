import { type ChildProcess, spawn } from "node:child_process";
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

const answerSchema = z.object({ done: z.string(), error: z.string().optional() });

function rssKb(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m?.[1] === undefined ? 0 : Number(m[1]);
  } catch {
    return 0;
  }
}

/** The process that runs isolated trials, kept between attacks (see trial-child.ts). */
interface TrialProcess {
  child: ChildProcess;
  stderr: string;
  /** Resolves with the exit code once the process has gone. */
  closed: Promise<number | null>;
}

let current: TrialProcess | null = null;

function trialProcess(): TrialProcess {
  if (current !== null && current.child.exitCode === null && current.child.signalCode === null)
    return current;
  const child = spawn(process.execPath, ["--import", "tsx", join(import.meta.dirname, "trial-child.ts")], {
    detached: true,
    stdio: ["ignore", "ignore", "pipe", "ipc"],
    env: { ...process.env, LH_HOST_SECRET: HOST_SECRET },
  });
  const p: TrialProcess = {
    child,
    stderr: "",
    closed: new Promise((resolve) => child.on("close", (c) => resolve(c))),
  };
  child.stderr?.on("data", (d: Buffer) => {
    if (p.stderr.length < 20_000) p.stderr += d.toString("utf8");
  });
  // Idle between attacks, it must not keep the test process alive.
  child.unref();
  child.channel?.unref();
  current = p;
  return p;
}

function killTrialProcess(p: TrialProcess): void {
  if (current === p) current = null;
  try {
    if (p.child.pid !== undefined) process.kill(-p.child.pid, "SIGKILL");
  } catch {
    // already gone
  }
}

/** Ends the kept trial process (a test file's afterAll). */
export async function stopTrialProcess(): Promise<void> {
  const p = current;
  if (p === null) return;
  killTrialProcess(p);
  await p.closed;
}

/** Runs the job of `spec` in the trial process under a wall-clock and memory watchdog. */
export async function runInChild(spec: Omit<ChildSpec, "out">, timeoutMs: number): Promise<ChildOutcome> {
  const out = join(spec.jobsDir, "child-outcome.json");
  const specPath = join(spec.jobsDir, "child-spec.json");
  writeFileSync(specPath, JSON.stringify({ ...spec, out }));
  const p = trialProcess();
  const pid = p.child.pid;
  let killedFor: string | null = null;
  const kill = (why: string): void => {
    killedFor ??= why;
    killTrialProcess(p);
  };
  const timer = setTimeout(() => kill(`trial process still running after ${timeoutMs} ms`), timeoutMs);
  const watch = setInterval(() => {
    const kb = pid === undefined ? 0 : rssKb(pid);
    if (kb > RSS_CAP_KB) kill(`trial process grew to ${Math.round(kb / 1024)} MiB resident`);
  }, 100);
  const answered = new Promise<{ error?: string } | { exit: number | null }>((resolve) => {
    const onMessage = (m: unknown): void => {
      const a = answerSchema.safeParse(m);
      if (!a.success || a.data.done !== specPath) return;
      p.child.off("message", onMessage);
      resolve(a.data.error === undefined ? {} : { error: a.data.error });
    };
    p.child.on("message", onMessage);
    void p.closed.then((c) => resolve({ exit: c }));
  });
  p.child.send(specPath);
  const answer = await answered;
  clearTimeout(timer);
  clearInterval(watch);
  if (killedFor !== null || "exit" in answer || answer.error !== undefined) {
    // A process that failed a job is not trusted with the next one.
    killTrialProcess(p);
    const why =
      "exit" in answer ? `trial process exited ${answer.exit}: ${p.stderr.slice(-2000)}` : answer.error;
    return { trials: [], wallMs: 0, startMs: 0, hostFailure: killedFor ?? why ?? "trial process failed" };
  }
  const parsed = outSchema.parse(JSON.parse(readFileSync(out, "utf8")));
  return { ...parsed, hostFailure: null };
}
