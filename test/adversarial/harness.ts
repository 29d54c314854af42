import { execFileSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import { expect } from "vitest";
import type { Outcome, TrialResult } from "../../src/core/index.js";
import { tempDir } from "../runner/helpers.js";
import { runInProcess } from "./run-in-process.js";
import { scanTree } from "./scan.js";
import { HOST_SECRET, runInChild } from "./spawn-child.js";

/** Planted in the fixture's tests/ (key.txt and grade.py): it must never reach a jobs folder. */
export const TESTS_MARKER = "LHMARK-HIDDEN-9Q7ZK2";
/** A host file outside every sandbox; attacks aim at it by its known path. */
export const CANARY = "/tmp/longhaul-adv-canary.txt";
const CANARY_TEXT = "untouched\n";
/** Host files an attack could try to change through a write that escapes the sandbox. */
const HOST_WATCH = [CANARY, "/etc/ld.so.preload", "/etc/hosts", "/etc/profile"];
export const JOB_SEED = 12345;
/** Agent 8 s + verifier 15 s (adv-vault/task.toml) + sandbox start, grace and copy-out. */
const MAX_TRIAL_MS = 50_000;

export interface Attack {
  name: string;
  /**
   * Bash run by the shell agent. Placeholders: @P@ a marker unique to this run (put it in the
   * command line of every process the attack starts, so survivors can be found with pgrep),
   * @PORT@ a TCP port and @ABSTRACT@ an abstract unix socket name the host listens on, @CANARY@.
   */
  script: string;
  /** Outcomes that count as contained (default completed and agent_timeout). */
  outcomes?: Outcome[];
  /** Fixture tasks to run on (default adv-vault); every one must score exactly 0. */
  tasks?: string[];
  check?: (run: AttackRun) => void | Promise<void>;
  /**
   * Run the trial in a child process under a watchdog: for attacks that, if not contained, make
   * the host read forever or block (links to devices, FIFOs). Slower (a process start).
   */
  isolate?: boolean;
  /**
   * The outcome cannot depend on how resources are limited (cgroups or rlimits): no resource is
   * exhausted and no process has to be killed at a phase's end. Run on every provider, but not
   * again on a configuration that differs only in its limits (`ProviderConfig.limitsVariant`).
   */
  anyLimits?: boolean;
  /**
   * The agent's budget in seconds instead of its task's: for an attack that only ends at the agent
   * deadline, cut to what still shows it (the outcome and the checks stay the same).
   */
  agentTimeoutSec?: number;
}

export interface AttackRun {
  trial: TrialResult;
  trialDir: string;
  jobsDir: string;
  jobId: string;
  startMs: number;
  wallMs: number;
  /** A file the agent left in /logs/agent, as copied to the trial folder; null if absent. */
  agentLog(name: string): string | null;
}

function snapshot(): string[] {
  try {
    writeFileSync(CANARY, CANARY_TEXT, { flag: "wx" });
  } catch {
    // Already there (another worker made it); its content is checked below.
  }
  return HOST_WATCH.map((p) =>
    existsSync(p) ? createHash("sha256").update(readFileSync(p)).digest("hex") : "absent",
  );
}

function pgrep(marker: string): number[] {
  try {
    return execFileSync("pgrep", ["-f", marker], { encoding: "utf8" })
      .split("\n")
      .filter((l) => l.trim() !== "")
      .map(Number)
      .filter((pid) => pid !== process.pid);
  } catch {
    return []; // pgrep exits 1 when nothing matches
  }
}

interface Listener {
  server: Server;
  connections: number;
}

async function listen(addr: string | number): Promise<Listener> {
  const l: Listener = { server: createServer(), connections: 0 };
  l.server.on("connection", (s) => {
    l.connections += 1;
    s.destroy();
  });
  await new Promise<void>((resolve) =>
    typeof addr === "number" ? l.server.listen(addr, "127.0.0.1", resolve) : l.server.listen(addr, resolve),
  );
  return l;
}

/**
 * Runs `attack` as the shell agent on the fixture task(s) with provider `provider`, then asserts
 * the secure behaviour: reward 0 (the honest-zero baseline) and a counted outcome, no test content,
 * seed or host secret in the jobs folder, a bounded trial folder with no links out of it and no
 * FIFOs, host files unchanged, no process left, no connection to the host, bounded time.
 */
export async function runAttack(provider: string, attack: Attack): Promise<AttackRun[]> {
  const marker = `lhadv${randomBytes(5).toString("hex")}`;
  const tcp = await listen(0);
  const abstract = `lhadv-${randomBytes(5).toString("hex")}`;
  const unix = await listen(`\0${abstract}`);
  const address = tcp.server.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  const script = attack.script
    .replaceAll("@P@", marker)
    .replaceAll("@PORT@", String(port))
    .replaceAll("@ABSTRACT@", abstract)
    .replaceAll("@CANARY@", CANARY);
  const before = snapshot();
  const jobsDir = tempDir("adv");
  const jobId = `adv-${marker}`;
  try {
    const spec = {
      jobsDir,
      jobId,
      tasks: attack.tasks ?? ["adv-vault"],
      cmd: script,
      provider,
      seed: JOB_SEED,
      ...(attack.agentTimeoutSec === undefined ? {} : { agentTimeoutSec: attack.agentTimeoutSec }),
    };
    const child = attack.isolate === true ? await runInChild(spec, 90_000) : await runInProcess(spec);
    // Teardown may take a moment; anything still running after that survived the trial.
    let left = pgrep(marker);
    for (let i = 0; i < 30 && left.length > 0; i++) {
      await new Promise((r) => setTimeout(r, 100));
      left = pgrep(marker);
    }
    for (const pid of left) {
      try {
        process.kill(pid, "SIGKILL"); // clean up what we started, by pid
      } catch {
        // gone
      }
    }
    expect(
      child.hostFailure,
      "the host process running the trial must not crash, hang or balloon",
    ).toBeNull();
    expect(left, "no process of the attack may outlive the trial").toEqual([]);
    expect(snapshot(), "host files outside the sandbox must be unchanged").toEqual(before);
    expect(readFileSync(CANARY, "utf8")).toBe(CANARY_TEXT);
    expect(tcp.connections, "no connection may reach a host loopback service").toBe(0);
    expect(unix.connections, "no connection may reach a host abstract unix socket").toBe(0);
    expect(child.trials.length).toBe((attack.tasks ?? ["adv-vault"]).length);
    const runs: AttackRun[] = [];
    for (const { result, dir } of child.trials) {
      expect(String(result.seed).length, "seed long enough to grep for").toBeGreaterThanOrEqual(6);
      expect(result.outcome, `outcome (errors: ${result.grading_errors.join("; ").slice(0, 400)})`).toBeOneOf(
        attack.outcomes ?? ["completed", "agent_timeout"],
      );
      expect(result.reward, "no reward above the honest-zero baseline").toBe(0);
      expect(child.wallMs, "the trial must end in bounded time").toBeLessThan(MAX_TRIAL_MS);
      const all = scanTree(jobsDir, [TESTS_MARKER, HOST_SECRET], (rel) => rel.endsWith("child-spec.json"));
      expect(all.hits.get(TESTS_MARKER), "hidden test content in the jobs folder").toEqual([]);
      expect(all.hits.get(HOST_SECRET), "host environment in the jobs folder").toEqual([]);
      const trial = scanTree(dir, [String(result.seed)], (rel) => rel === "result.json");
      expect(trial.hits.get(String(result.seed)), "the hidden seed in files the agent could shape").toEqual(
        [],
      );
      expect(trial.escapingLinks, "links out of the trial folder").toEqual([]);
      expect(trial.specialFiles, "FIFOs or devices in the trial folder").toEqual([]);
      expect(trial.files, "trial folder file count must be bounded").toBeLessThan(10_000);
      expect(trial.bytes, "trial folder size must be bounded").toBeLessThan(32 * 1024 * 1024);
      const agentLog = (name: string): string | null => {
        const path = join(dir, "agent", "logs", name);
        return existsSync(path) ? readFileSync(path, "utf8").slice(0, 100_000) : null;
      };
      runs.push({
        trial: result,
        trialDir: dir,
        jobsDir,
        jobId,
        startMs: child.startMs,
        wallMs: child.wallMs,
        agentLog,
      });
    }
    for (const run of runs) await attack.check?.(run);
    return runs;
  } finally {
    tcp.server.close();
    unix.server.close();
    rmSync(jobsDir, { recursive: true, force: true });
  }
}
